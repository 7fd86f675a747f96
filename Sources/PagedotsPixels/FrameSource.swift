/// One frame of an animation as the encoders take it: straight RGBA pixels
/// (`width × height × 4` bytes, rows top to bottom) and how long it shows.
public struct RGBAFrame {
    public var pixels: [UInt8]
    public var delayMilliseconds: Int

    public init(pixels: [UInt8], delayMilliseconds: Int) {
        self.pixels = pixels
        self.delayMilliseconds = delayMilliseconds
    }
}

/// The frames of an animation, drawn when an encoder asks for them: what
/// the GIF and APNG encoders read (docs/gif.md, "Drawing the frames").
///
/// An encoder asks for the frames in increasing order, possibly in more
/// than one pass (each in order), so that it never holds more than a
/// couple of frames' pixels at once. Drawing a frame may fail (a carousel's
/// slide that turns out corrupt): the first failure ends the encoding, and
/// what was written until then must be thrown away.
public protocol FrameSource<Failure> {
    /// What drawing a frame can fail with (`Never` for an indicator's frames).
    associatedtype Failure: Error

    /// The canvas, in pixels.
    var width: Int { get }
    var height: Int { get }
    /// How many frames there are.
    var count: Int { get }

    /// Frame `index`: its pixels and delay, the same whatever was asked before.
    func frame(at index: Int) throws(Failure) -> RGBAFrame

    /// A box outside which frame `index`'s pixels equal frame `index − 1`'s,
    /// when `frame(at: index)` was the last frame asked for; nil when that
    /// is not known (always allowed), and for the first frame. The encoder
    /// then looks for the frame's changes only inside it, so a box that
    /// misses a change gives a wrong file.
    func changedBox(at index: Int) -> PixelRect?
}

/// Frames given by closures: for callers that hold their frames already
/// (tests, benchmarks, the fuzz harnesses).
public struct FrameList: FrameSource {
    public let width: Int
    public let height: Int
    public let count: Int
    private let frameAt: (Int) -> (pixels: [UInt8], delayMilliseconds: Int)
    private let changedBoxAt: (Int) -> PixelRect?

    /// `count` frames of `width × height`, frame i being `frameAt(i)`, and
    /// its changed box `changedBoxAt(i)` (none known by default).
    public init(
        width: Int, height: Int, count: Int, frameAt: @escaping (Int) -> (pixels: [UInt8], delayMilliseconds: Int),
        changedBoxAt: @escaping (Int) -> PixelRect? = { _ in nil }
    ) {
        self.width = width
        self.height = height
        self.count = count
        self.frameAt = frameAt
        self.changedBoxAt = changedBoxAt
    }

    public func frame(at index: Int) -> RGBAFrame {
        let frame = frameAt(index)
        return RGBAFrame(pixels: frame.pixels, delayMilliseconds: frame.delayMilliseconds)
    }

    public func changedBox(at index: Int) -> PixelRect? { changedBoxAt(index) }
}
