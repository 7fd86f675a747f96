/// The first pass over an animation: which frames differ from the one
/// before them and where, and what every pixel shown allows (the colour
/// type is chosen once, from this, for all frames).
struct AnimationSurvey {
    /// A picture of the animation: one input frame, or a run of identical
    /// consecutive ones merged.
    struct Frame {
        /// The `frameAt` index that gives its pixels.
        var source: Int
        /// How long it shows: the delays of the input frames merged into it.
        var milliseconds: Int
        /// The smallest rectangle that holds every pixel that differs from
        /// the frame before (the whole canvas for the first).
        var change: PixelRect
        /// The pixels of `change`, rows top to bottom; nil for the first
        /// frame and when the changes did not all fit the byte limit.
        var changedPixels: [UInt8]?
    }

    private(set) var frames: [Frame] = []
    /// Every pixel of the first frame and of each later frame's change.
    private(set) var colors = PixelSurvey()
    /// The first frame's pixels; nil when there are no frames (or once taken).
    private var first: RGBACanvas?

    /// Asks `frameAt` for frames `0 ..< frameCount` in order and holds two at
    /// a time. Delays below 0 count as 0, and above `FrameDelay.maxMilliseconds`
    /// as that. The changed pixels are kept while they come to at most
    /// `keptByteLimit` bytes in all; past that none are kept.
    init(width: Int, height: Int, frameCount: Int, keptByteLimit: Int, frameAt: (Int) -> (pixels: [UInt8], delayMilliseconds: Int)) {
        var previous: RGBACanvas?
        var keptBytes = 0
        var keeping = true
        for index in 0 ..< max(0, frameCount) {
            let (pixels, delay) = frameAt(index)
            let milliseconds = min(max(delay, 0), FrameDelay.maxMilliseconds)
            let frame = RGBACanvas(width: width, height: height, pixels: pixels)
            guard let before = previous else {
                frame.pixels.withUnsafeBytes { colors.add($0) }
                frames.append(Frame(source: index, milliseconds: milliseconds, change: frame.bounds))
                first = frame
                previous = frame
                continue
            }
            let change = RGBACanvas.changedBounds(from: before, to: frame)
            if change.isEmpty {
                frames[frames.count - 1].milliseconds += milliseconds
                continue
            }
            let changed = frame.crop(change)
            changed.withUnsafeBytes { colors.add($0) }
            keptBytes += changed.count
            if keeping && keptBytes > keptByteLimit {
                keeping = false
                for number in frames.indices {
                    frames[number].changedPixels = nil
                }
            }
            frames.append(Frame(source: index, milliseconds: milliseconds, change: change, changedPixels: keeping ? changed : nil))
            previous = frame
        }
    }

    /// The first frame's pixels, no longer held here (so that the second
    /// pass can change them in place); nil when there are no frames.
    mutating func takeFirst() -> RGBACanvas? {
        defer { first = nil }
        return first
    }
}
