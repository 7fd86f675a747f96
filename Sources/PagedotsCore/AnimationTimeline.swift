/// One frame of an animation: what it shows, and for how long.
public struct AnimationFrame: Hashable, Sendable {
    public var moment: Moment
    /// Milliseconds: a multiple of 10 (GIF counts centiseconds), at least 20.
    public var delay: Int

    public init(moment: Moment, delay: Int) {
        self.moment = moment
        self.delay = delay
    }
}

/// The frames of an animated spec's cycle (docs/styles.md, "Animation").
///
/// The cycle starts at `current` and shows every page in order, then comes
/// back to `current`. Each page shows for `dwell` ms: at rest (the progress
/// style's timer filling), then, in its last `transition` ms, the move to the
/// next page, sampled `fps` times a second from the leaving page (eased
/// progress 0) to the reached one (1), which ends the page's dwell. So the
/// first frame is the still image, the last one shows `current` again, and
/// the delays add up to `pages × dwell` exactly. Neighbouring frames that
/// show the same moment are one longer frame.
public struct AnimationTimeline: Sendable {
    public let spec: IndicatorSpec

    /// The shortest frame, in milliseconds: browsers show shorter GIF delays as 100 ms.
    public static let minimumDelay = 20
    /// GIF's unit of time, in milliseconds: every delay is a multiple of it.
    static let tick = 10

    /// The timeline of a validated animated spec.
    public init(spec: IndicatorSpec) {
        self.spec = spec
    }

    /// Every frame of one cycle, in order. Frames that show the same moment
    /// are merged, and so are neighbours whose drawings come out equal (a
    /// slow fade whose colours round alike).
    public func frames() -> [AnimationFrame] {
        drawnFrames().map(\.frame)
    }

    /// Items of drawings that `drawnFrames()` keeps, in all, the items inside
    /// a clip counted (a few hundred bytes each): a few hundred frames near
    /// the animation limits would otherwise hold megabytes of drawings while
    /// they are encoded.
    public static let keptDrawingItemLimit = 1024

    /// `frames()`, each with where its drawing differs from the frame
    /// before's (`Drawing.changedBounds(since:)`; the first frame's is the
    /// whole canvas), found once while merging, and with the drawing itself
    /// (made once, to merge equal neighbours) while the drawings kept so far
    /// hold at most `keptDrawingItemLimit` items; a frame after that has
    /// none, and `drawing(of:)` makes it again. The first frame always has its drawing.
    public func drawnFrames() -> [(frame: AnimationFrame, drawing: Drawing?, changed: Rect)] {
        let layout = IndicatorLayout.layout(for: spec)
        var moments: [AnimationFrame] = []
        for offset in 0..<spec.pages {
            for frame in frames(onPage: (spec.current + offset) % spec.pages, layout: layout) {
                Self.append(frame, to: &moments)
            }
        }
        var frames: [(frame: AnimationFrame, drawing: Drawing?, changed: Rect)] = []
        frames.reserveCapacity(moments.count)
        var lastDrawing: Drawing?
        var keptItems = 0
        for frame in moments {
            let drawing = drawing(of: frame)
            defer { lastDrawing = drawing }
            let changed: Rect
            if let lastDrawing {
                guard let box = drawing.changedBounds(since: lastDrawing) else {
                    frames[frames.count - 1].frame.delay += frame.delay
                    continue
                }
                changed = box
            } else {
                changed = Rect(x: 0, y: 0, width: drawing.size.width, height: drawing.size.height)
            }
            // The first frames' drawings, up to the first that does not fit.
            let items = Self.itemCount(drawing.items)
            let keeps = frames.isEmpty || (frames[frames.count - 1].drawing != nil && keptItems + items <= Self.keptDrawingItemLimit)
            keptItems += keeps ? items : 0
            frames.append((frame, keeps ? drawing : nil, changed))
        }
        return frames
    }

    /// How many frames the cycle has with frames that show the same moment
    /// merged, worked out without drawing any: what `ImageLimits` counts.
    /// `frames()` gives as many, or fewer when drawings come out equal.
    public var frameCount: Int {
        let layout = IndicatorLayout.layout(for: spec)
        // A page's frames differ from another's only by the effect its move is drawn with.
        var countByEffect: [Effect: Int] = [:]
        var count = 0
        for page in 0..<spec.pages {
            let effect = layout.effect(from: page, to: (page + 1) % spec.pages, asked: spec.effect)
            if let known = countByEffect[effect] {
                count += known
            } else {
                let pageCount = frames(onPage: page, layout: layout).count
                countByEffect[effect] = pageCount
                count += pageCount
            }
        }
        // Each page's last frame (the next page at rest) is merged with the next page's first.
        return count - (spec.pages - 1)
    }

    /// How many items `items` hold, counting those inside clips.
    static func itemCount(_ items: [DrawItem]) -> Int {
        items.reduce(0) { count, item in
            if case .clipped(_, let inside) = item {
                return count + 1 + itemCount(inside)
            }
            return count + 1
        }
    }

    /// What `frame` shows.
    public func drawing(of frame: AnimationFrame) -> Drawing {
        IndicatorLayout.drawing(for: spec, at: frame.moment)
    }

    /// The frames of the dwell on `page`, equal neighbours merged: the
    /// page at rest (the timer filling from 0 to 1 over the rest), then the
    /// move to the next page, whose last frame shows that page at rest.
    private func frames(onPage page: Int, layout: any RowLayout) -> [AnimationFrame] {
        var frames: [AnimationFrame] = []
        for sample in samples(onPage: page, layout: layout, changeWindow: nil) {
            Self.append(sample.frame, to: &frames)
        }
        return frames
    }

    /// The frames of the dwell on `page`, not merged, each with how far the
    /// change to the next page has gone at its start: 0 at rest, the eased
    /// progress of the move (the indicator's, and a carousel's slides'), 1
    /// from the frame that shows the next page on.
    ///
    /// `changeWindow`: for a carousel whose slides change gradually, the
    /// milliseconds they take (its `transition`), sampled at `fps` like a
    /// move even where the indicator cuts (`effect=none`, or a wrap that its
    /// style cuts): the indicator then shows the page it leaves until the
    /// last sample, which shows the next. Nil: the indicator's own frames.
    func samples(onPage page: Int, layout: any RowLayout, changeWindow: Int?) -> [(frame: AnimationFrame, change: Double)] {
        let next = (page + 1) % spec.pages
        let effect = layout.effect(from: page, to: next, asked: spec.effect)
        // A cut (`none`, or a move too short for two frames) is one frame, the
        // next page, at the end of the dwell.
        let cuts = effect == .none && changeWindow == nil
        let moveLength = cuts ? Self.minimumDelay : max(changeWindow ?? spec.transition, Self.minimumDelay)
        let moveFrames = cuts ? 1 : frameCount(over: moveLength)
        let restLength = spec.dwell - moveLength
        var samples: [(frame: AnimationFrame, change: Double)] = []
        // The timer fills only when it has two frames or more to do it in.
        var fill = 0.0
        if layout.isTimer {
            let fillFrames = frameCount(over: restLength)
            for (index, delay) in Self.delays(over: restLength, frames: fillFrames).enumerated() {
                let moment = Moment.rest(page: page, fill: fillFrames > 1 ? Double(index) / Double(fillFrames - 1) : 0)
                samples.append((AnimationFrame(moment: moment, delay: delay), 0))
            }
            fill = fillFrames > 1 ? 1 : 0
        } else if restLength > 0 {
            samples.append((AnimationFrame(moment: .rest(page: page, fill: 0), delay: restLength), 0))
        }
        for (index, delay) in Self.delays(over: moveLength, frames: moveFrames).enumerated() {
            let progress = moveFrames > 1 ? Double(index) / Double(moveFrames - 1) : 1
            let moment = effect == .none && progress < 1
                ? Moment.rest(page: page, fill: fill)
                : moment(from: page, to: next, progress: progress, effect: effect, fill: fill, isTimer: layout.isTimer)
            samples.append((AnimationFrame(moment: moment, delay: delay), Easing.easeInOut(progress)))
        }
        return samples
    }

    /// The moment `progress` (not eased, 0…1) of the way through the move
    /// from `page` to `next`: the ends are the pages at rest, and a move that
    /// changes nothing (one page, no timer) is the page at rest throughout.
    private func moment(from page: Int, to next: Int, progress: Double, effect: Effect, fill: Double, isTimer: Bool) -> Moment {
        if progress <= 0 { return .rest(page: page, fill: fill) }
        if progress >= 1 || (page == next && !isTimer) { return .rest(page: next, fill: 0) }
        return .move(Move(from: page, to: next, progress: Easing.easeInOut(progress), effect: effect, fill: fill))
    }

    /// How many frames `length` ms of motion take at `fps`: two at least
    /// (its two ends) when 20 ms frames fit, and none shorter than 20 ms;
    /// one when only one fits; none for no time.
    private func frameCount(over length: Int) -> Int {
        guard length >= 2 * Self.minimumDelay else { return length > 0 ? 1 : 0 }
        let asked = (length * spec.fps + 500) / 1000
        return min(max(asked, 2), length / Self.minimumDelay)
    }

    /// `length` ms (a multiple of 10) split into `frames` delays, each a
    /// multiple of 10, as even as can be, adding up to `length` exactly.
    private static func delays(over length: Int, frames: Int) -> [Int] {
        guard frames > 0 else { return [] }
        let ticks = length / tick
        return (0..<frames).map { index in
            ((index + 1) * ticks / frames - index * ticks / frames) * tick
        }
    }

    /// Appends `frame`, or lengthens the last frame when it shows the same moment.
    private static func append(_ frame: AnimationFrame, to frames: inout [AnimationFrame]) {
        if let last = frames.indices.last, frames[last].moment == frame.moment {
            frames[last].delay += frame.delay
        } else {
            frames.append(frame)
        }
    }
}
