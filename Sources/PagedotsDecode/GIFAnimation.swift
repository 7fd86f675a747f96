/// An animated GIF's timeline, read without decoding a pixel: its screen,
/// its frames with their delays and disposal, and its loop count.
public struct GIFAnimation: Equatable, Sendable {
    /// The screen (the canvas every frame is drawn on).
    public var width: Int
    public var height: Int
    public var frames: [GIFFrameInfo]
    /// The NETSCAPE2.0 repetition count: nil without one (browsers play the
    /// animation once), 0 for forever, n for n repetitions after the first
    /// play (browsers play it n + 1 times).
    public var loopCount: Int?

    /// Reads the timeline of the GIF in `bytes`; the screen, every frame and
    /// their sum are checked against `limits`. The image data is skipped,
    /// not checked: `GIFFramePlayer` finds corrupt data when it decodes it.
    public init(scanning bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits = ImageSizeLimits()) throws(ImageDecodingError) {
        guard ImageKind(sniffing: bytes) == .gif else { throw .unrecognized }
        let stream = try GIFStream(bytes, limits: limits)
        width = stream.width
        height = stream.height
        frames = []
        while let frame = try stream.nextImage() {
            frames.append(frame)
            try stream.skipImage()
        }
        loopCount = stream.loopCount
    }

    /// The cycle's length as browsers play it, in milliseconds.
    public var playedMilliseconds: Int { frames.reduce(0) { $0 + $1.playedMilliseconds } }
}

/// An animated GIF played frame by frame, as a browser shows it: each call
/// to `next` decodes one more frame onto the canvas. Memory is the canvas
/// (and a copy of it while a frame with `previous` disposal is shown),
/// whatever the number of frames.
public final class GIFFramePlayer {
    /// A frame as shown: the whole screen after drawing it, and how the file describes it.
    public struct Frame: Sendable {
        public var image: DecodedImage
        public var info: GIFFrameInfo
    }

    private let stream: GIFStream
    private var canvas: GIFCanvas
    /// Kept alive for as long as the player reads from its bytes.
    private let owner: AnyObject?
    private var ended = false

    /// A player of the GIF in `bytes`, which must stay valid while it is used
    /// (`owner`, if given, is kept until the player goes: e.g. the object
    /// that holds the bytes).
    public init(_ bytes: UnsafeRawBufferPointer, owner: AnyObject? = nil, limits: ImageSizeLimits = ImageSizeLimits()) throws(ImageDecodingError) {
        guard ImageKind(sniffing: bytes) == .gif else { throw .unrecognized }
        self.owner = owner
        stream = try GIFStream(bytes, limits: limits)
        canvas = GIFCanvas(width: stream.width, height: stream.height)
    }

    public var width: Int { stream.width }
    public var height: Int { stream.height }

    /// The next frame as shown, or nil after the last. The image shares its
    /// storage with the player's canvas until one of them changes.
    public func next() throws(ImageDecodingError) -> Frame? {
        guard !ended, let info = try stream.nextImage() else {
            ended = true
            return nil
        }
        try canvas.draw(info, from: stream)
        return Frame(image: canvas.image, info: info)
    }

    /// The NETSCAPE2.0 repetition count as read so far (see `GIFAnimation.loopCount`).
    public var loopCount: Int? { stream.loopCount }
}
