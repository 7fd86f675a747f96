import PagedotsPixels

/// The first pass over an animation: which frames differ from the one
/// before them and where, and what every pixel shown allows (the colour
/// type is chosen once, from this, for all frames).
struct AnimationSurvey {
    /// A picture of the animation: one input frame, or a run of identical
    /// consecutive ones merged.
    struct Frame {
        /// The index of the source frame that gives its pixels.
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
    /// The same pixels' colours while every one is opaque (only an opaque
    /// animation can be RGB, which needs a colour key to blend OVER).
    private var keySearch = ColorKeySearch()
    /// The first frame's pixels; nil when there are no frames (or once taken).
    private var first: RGBACanvas?
    private let budget: CacheBudget
    /// The bytes of changed pixels kept, taken from the budget.
    private var keptBytes = 0

    /// Asks `source` for its frames in order and holds two at a time. Delays below 0 count as 0, and above `FrameDelay.maxMilliseconds`
    /// as that. The changed pixels are kept while `budget` holds them all
    /// (`.images`, until `forgetChanges()`); past that none are kept. A frame's change
    /// is looked for only inside its changed box, if the source knows one
    /// (`APNGEncoder.encode`). Throws the first frame that could not be drawn.
    init<Source: FrameSource>(_ source: Source, budget: CacheBudget) throws(Source.Failure) {
        self.budget = budget
        let (width, height, frameCount) = (source.width, source.height, source.count)
        guard frameCount > 0 else { return }
        let firstFrame = try source.frame(at: 0)
        let (firstPixels, firstDelay) = (firstFrame.pixels, firstFrame.delayMilliseconds)
        // The frame before, in a buffer of its own that each change is pasted
        // into: holding on to the caller's pixels would make a caller that
        // draws the next frame over them copy them first, every frame.
        var previous = RGBACanvas(width: width, height: height, pixels: firstPixels)
        previous.pixels.withUnsafeBytes { add($0) }
        frames.append(Frame(source: 0, milliseconds: Self.clamped(firstDelay), change: previous.bounds))
        first = previous
        var keeping = true
        for index in 1 ..< frameCount {
            let input = try source.frame(at: index)
            let delay = input.delayMilliseconds
            let frame = RGBACanvas(width: width, height: height, pixels: input.pixels)
            let hint = source.changedBox(at: index)
            let change = PixelRect.changed(from: previous.pixels, to: frame.pixels, width: width, within: hint ?? previous.bounds)
            if change.isEmpty {
                frames[frames.count - 1].milliseconds += Self.clamped(delay)
                continue
            }
            let changed = frame.crop(change)
            changed.withUnsafeBytes { add($0) }
            if keeping && budget.take(changed.count, for: .images) {
                keptBytes += changed.count
            } else if keeping {
                keeping = false
                forgetChanges()
            }
            frames.append(Frame(source: index, milliseconds: Self.clamped(delay), change: change, changedPixels: keeping ? changed : nil))
            previous.paste(changed, in: change)
        }
    }

    /// Drops the changed pixels kept and gives their memory back.
    mutating func forgetChanges() {
        for number in frames.indices {
            frames[number].changedPixels = nil
        }
        budget.giveBack(keptBytes, for: .images)
        keptBytes = 0
    }

    private static func clamped(_ delay: Int) -> Int {
        min(max(delay, 0), FrameDelay.maxMilliseconds)
    }

    /// A colour that no pixel shown uses, for a `tRNS` colour key, when
    /// every pixel is opaque; nil otherwise, or when none was found.
    var colorKey: PackedPixel? {
        colors.isOpaque ? keySearch.unusedColor : nil
    }

    private mutating func add(_ pixels: UnsafeRawBufferPointer) {
        colors.add(pixels)
        if colors.isOpaque {
            keySearch.add(pixels)
        }
    }

    /// The first frame's pixels, no longer held here (so that the second
    /// pass can change them in place); nil when there are no frames.
    mutating func takeFirst() -> RGBACanvas? {
        defer { first = nil }
        return first
    }
}
