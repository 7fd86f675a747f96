import HTTPServer
import PagedotsDecode

/// One image part of a carousel upload: where its bytes lie in the request
/// body (which it keeps alive, uncopied), what its header said, and what it
/// is called in messages (`slide 3`, `carousel`).
///
/// Probed when the upload is read; decoded only when the composition needs
/// it, through `decode` or `playFrames`, with the same refusals.
struct UploadedImage: Sendable {
    /// `slide 3` (numbered from 1 among the slides) or `carousel`.
    let role: String
    let probe: ImageProbe
    /// The part's `filename`, as sent, if any.
    let filename: String?
    private let body: HTTPRequestBody
    private let range: Range<Int>
    private let limits: ImageSizeLimits

    /// The part at `range` of `body`, probed under `limits`; throws the
    /// refusal (415 for an unknown format, 400 for a corrupt or oversized one).
    init(role: String, filename: String?, body: HTTPRequestBody, range: Range<Int>, limits: ImageSizeLimits) throws(CarouselUploadError) {
        self.role = role
        self.filename = filename
        self.body = body
        self.range = range
        self.limits = limits
        do throws(ImageDecodingError) {
            probe = try body.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                try ImageDecoder.probe(UnsafeRawBufferPointer(rebasing: bytes[range]), limits: limits)
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }

    /// The pixels (a GIF's first frame), at least `minimum` in size when a
    /// JPEG can be decoded smaller (see `ImageDecoder.decode`).
    func decode(atLeast minimum: (width: Int, height: Int)? = nil) throws(CarouselUploadError) -> DecodedImage {
        do throws(ImageDecodingError) {
            return try body.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                try ImageDecoder.decode(UnsafeRawBufferPointer(rebasing: bytes[range]), limits: limits, atLeast: minimum)
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }

    /// An animated GIF's timeline, read without decoding its frames.
    func animation() throws(CarouselUploadError) -> GIFAnimation {
        do throws(ImageDecodingError) {
            return try body.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                try GIFAnimation(scanning: UnsafeRawBufferPointer(rebasing: bytes[range]), limits: limits)
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }

    /// Hands each frame of an animated GIF, as a browser shows it, to `body`
    /// in turn (one canvas in memory); `body` returns false to stop.
    func playFrames(_ frameHandler: (GIFFramePlayer.Frame) -> Bool) throws(CarouselUploadError) {
        do throws(ImageDecodingError) {
            try body.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                let player = try GIFFramePlayer(UnsafeRawBufferPointer(rebasing: bytes[range]), limits: limits)
                while let frame = try player.next(), frameHandler(frame) {}
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }

    /// A player of this animated GIF's frames, one at a time. It keeps the
    /// request body alive, whose bytes no longer move once it has been read.
    func framePlayer() throws(CarouselUploadError) -> GIFFramePlayer {
        do throws(ImageDecodingError) {
            return try body.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                try GIFFramePlayer(UnsafeRawBufferPointer(rebasing: bytes[range]), owner: body, limits: limits)
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }
}
