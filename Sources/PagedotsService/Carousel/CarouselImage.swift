import PagedotsDecode

/// One image of a carousel's input (a slide, or a carousel GIF made
/// elsewhere): where its bytes are, what its header said, and what it is
/// called in messages (`slide 3`, `carousel`).
///
/// Probed when the input is read; decoded only when the composition needs
/// it, through `decode` or `framePlayer`, with the same refusals.
struct CarouselImage: Sendable {
    /// `slide 3` (numbered from 1 among the slides) or `carousel`.
    let role: String
    let probe: ImageProbe
    /// The file name it was sent or fetched under, if any.
    let filename: String?
    private(set) var bytes: ImageBytes
    private let limits: ImageSizeLimits

    /// The image in `bytes`, probed under `limits`; throws the refusal (415
    /// for an unknown format, 400 for a corrupt or oversized one).
    init(role: String, filename: String?, bytes: ImageBytes, limits: ImageSizeLimits) throws(CarouselInputError) {
        self.role = role
        self.filename = filename
        self.bytes = bytes
        self.limits = limits
        probe = try Self.withBytes(of: role, in: bytes) { bytes, _ throws(ImageDecodingError) in
            try ImageDecoder.probe(bytes, limits: limits)
        }
    }

    /// This image, its bytes now at `range` of `file`.
    func spooled(to file: SpooledFile, at range: Range<Int>) -> CarouselImage {
        var image = self
        image.bytes = .spooled(file, range)
        return image
    }

    /// The pixels (a GIF's first frame), at least `minimum` in size when
    /// its format can be decoded smaller (see `ImageDecoder.decode`).
    func decode(atLeast minimum: (width: Int, height: Int)? = nil) throws(CarouselInputError) -> DecodedImage {
        try Self.withBytes(of: role, in: bytes) { bytes, _ throws(ImageDecodingError) in
            try ImageDecoder.decode(bytes, limits: limits, atLeast: minimum)
        }
    }

    /// An animated GIF's timeline, read without decoding its frames.
    func animation() throws(CarouselInputError) -> GIFAnimation {
        try Self.withBytes(of: role, in: bytes) { bytes, _ throws(ImageDecodingError) in
            try GIFAnimation(scanning: bytes, limits: limits)
        }
    }

    /// A player of this animated GIF's frames, one at a time. It keeps the
    /// bytes it reads alive, which no longer move.
    func framePlayer() throws(CarouselInputError) -> GIFFramePlayer {
        try Self.withBytes(of: role, in: bytes) { bytes, owner throws(ImageDecodingError) in
            try GIFFramePlayer(bytes, owner: owner, limits: limits)
        }
    }

    /// Runs `body` with the image's bytes and the object that holds them;
    /// throws its failure as the image's refusal, or a `503` when spooled
    /// bytes cannot be read back.
    private static func withBytes<Result>(
        of role: String, in bytes: ImageBytes, _ body: (UnsafeRawBufferPointer, AnyObject) throws(ImageDecodingError) -> Result
    ) throws(CarouselInputError) -> Result {
        let result: Result?
        do throws(ImageDecodingError) {
            result = try bytes.withBytes(body)
        } catch {
            throw CarouselInputError(role: role, error)
        }
        guard let result else {
            throw CarouselInputError(status: 503, "\(role): could not be read back from its temporary file: try again")
        }
        return result
    }
}
