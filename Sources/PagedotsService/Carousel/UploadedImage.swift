import Glibc
import HTTPServer
import PagedotsDecode

/// One image part of a carousel upload: where its bytes lie in the request
/// body (which it keeps alive, uncopied) or in the temporary file the body
/// was moved to (`SpooledBody`), what its header said, and what it is
/// called in messages (`slide 3`, `carousel`).
///
/// Probed when the upload is read; decoded only when the composition needs
/// it, through `decode` or `playFrames`, with the same refusals.
struct UploadedImage: Sendable {
    /// Where the body that holds the part is.
    private enum Source: Sendable {
        case memory(HTTPRequestBody)
        case spooled(SpooledBody)
    }

    /// `slide 3` (numbered from 1 among the slides) or `carousel`.
    let role: String
    let probe: ImageProbe
    /// The part's `filename`, as sent, if any.
    let filename: String?
    private var source: Source
    private let range: Range<Int>
    private let limits: ImageSizeLimits

    /// The part at `range` of `body`, probed under `limits`; throws the
    /// refusal (415 for an unknown format, 400 for a corrupt or oversized one).
    init(role: String, filename: String?, body: HTTPRequestBody, range: Range<Int>, limits: ImageSizeLimits) throws(CarouselUploadError) {
        self.role = role
        self.filename = filename
        source = .memory(body)
        self.range = range
        self.limits = limits
        probe = try Self.withPart(of: role, in: source, at: range) { bytes, _ throws(ImageDecodingError) in
            try ImageDecoder.probe(bytes, limits: limits)
        }
    }

    /// This part, its bytes now read from `body`'s temporary file.
    func spooled(to body: SpooledBody) -> UploadedImage {
        var image = self
        image.source = .spooled(body)
        return image
    }

    /// The pixels (a GIF's first frame), at least `minimum` in size when a
    /// JPEG can be decoded smaller (see `ImageDecoder.decode`).
    func decode(atLeast minimum: (width: Int, height: Int)? = nil) throws(CarouselUploadError) -> DecodedImage {
        try Self.withPart(of: role, in: source, at: range) { bytes, _ throws(ImageDecodingError) in
            try ImageDecoder.decode(bytes, limits: limits, atLeast: minimum)
        }
    }

    /// An animated GIF's timeline, read without decoding its frames.
    func animation() throws(CarouselUploadError) -> GIFAnimation {
        try Self.withPart(of: role, in: source, at: range) { bytes, _ throws(ImageDecodingError) in
            try GIFAnimation(scanning: bytes, limits: limits)
        }
    }

    /// Hands each frame of an animated GIF, as a browser shows it, to `body`
    /// in turn (one canvas in memory); `body` returns false to stop.
    func playFrames(_ frameHandler: (GIFFramePlayer.Frame) -> Bool) throws(CarouselUploadError) {
        try Self.withPart(of: role, in: source, at: range) { bytes, _ throws(ImageDecodingError) in
            let player = try GIFFramePlayer(bytes, limits: limits)
            while let frame = try player.next(), frameHandler(frame) {}
        }
    }

    /// A player of this animated GIF's frames, one at a time. It keeps the
    /// bytes it reads alive (the request body, or the part read back from
    /// its file), which no longer move.
    func framePlayer() throws(CarouselUploadError) -> GIFFramePlayer {
        try Self.withPart(of: role, in: source, at: range) { bytes, owner throws(ImageDecodingError) in
            try GIFFramePlayer(bytes, owner: owner, limits: limits)
        }
    }

    /// Runs `body` with the part's bytes and the object that holds them;
    /// throws its failure as the part's refusal, or a `503` when a spooled
    /// part cannot be read back.
    private static func withPart<Result>(
        of role: String, in source: Source, at range: Range<Int>,
        _ body: (UnsafeRawBufferPointer, AnyObject) throws(ImageDecodingError) -> Result
    ) throws(CarouselUploadError) -> Result {
        let holder: HTTPRequestBody
        let part: Range<Int>
        switch source {
        case .memory(let requestBody):
            (holder, part) = (requestBody, range)
        case .spooled(let spooled):
            guard let bytes = spooled.read(range) else {
                throw CarouselUploadError(status: 503, "\(role): could not be read back from its temporary file: try again")
            }
            (holder, part) = (HTTPRequestBody(bytes), 0..<range.count)
        }
        do throws(ImageDecodingError) {
            return try holder.withUnsafeBytes { (bytes) throws(ImageDecodingError) in
                try body(UnsafeRawBufferPointer(rebasing: bytes[part]), holder)
            }
        } catch {
            throw CarouselUploadError(role: role, error)
        }
    }
}

/// A carousel upload's request body moved to an unlinked temporary file
/// (`openTemporaryFile`), so that its memory (up to `--max-upload-mb`) is
/// let go of while the carousel is drawn; each slide is read back, alone,
/// when it is decoded.
final class SpooledBody: Sendable {
    private let descriptor: Int32

    /// `body` written to a temporary file; nil when none can be made or written.
    init?(_ body: HTTPRequestBody) {
        guard let descriptor = openTemporaryFile(prefix: "pagedots-upload") else { return nil }
        guard body.withUnsafeBytes({ writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The bytes at `range`; nil if they cannot be read.
    func read(_ range: Range<Int>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: range.count)
        return bytes.withUnsafeMutableBytes { readAll(into: $0, from: descriptor, at: range.lowerBound) } ? bytes : nil
    }
}
