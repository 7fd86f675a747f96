/// What a carousel frame shows of the slides.
public enum SlideView: Hashable, Sendable {
    /// Slide `index` (0-based, in the order sent), whole.
    case slide(Int)
    /// Part way from one slide to the next: `progress` (eased, strictly
    /// between 0 and 1) is the indicator's move's, so both arrive together.
    case change(from: Int, to: Int, progress: Double)
    /// Frame `index` of a carousel GIF made elsewhere, as browsers show it.
    case sourceFrame(Int)
}

/// One frame of a carousel: its slides, its indicator, and how long it shows.
public struct CarouselFrame: Hashable, Sendable {
    public var slides: SlideView
    public var indicator: Moment
    /// Milliseconds: a multiple of 10, at least 20.
    public var delay: Int

    public init(slides: SlideView, indicator: Moment, delay: Int) {
        self.slides = slides
        self.indicator = indicator
        self.delay = delay
    }
}

/// The frames of a carousel's cycle (docs/carousel.md, "Timing").
///
/// Slides: the indicator's own timeline (`AnimationTimeline`), each page's
/// dwell at rest and then its move; with `change=fade` or `push`, the move's
/// window (`transition`) is sampled at `fps` even where the indicator cuts,
/// and the slides change with the indicator's eased progress, so both
/// arrive together; with `cut`, the slide changes when the indicator
/// arrives. So the first frame is the still of slide `current`, the last
/// shows `current` again, and the delays add up to `pages × dwell`.
///
/// A carousel made elsewhere: its frames and delays are kept, and split
/// where the indicator's frames change (a piece shorter than 20 ms joins
/// the frame before it; the indicator's own frames are never moved).
public struct CarouselTimeline: Sendable {
    public let spec: CarouselSpec
    /// The indicator's timeline.
    public let indicator: AnimationTimeline

    public init(spec: CarouselSpec) {
        self.spec = spec
        indicator = AnimationTimeline(spec: spec.indicator)
    }

    /// Every frame of one cycle, in order; neighbours that show the same
    /// slides and the same indicator moment are one longer frame.
    public func frames() -> [CarouselFrame] {
        switch spec.source {
        case .slides: slideFrames()
        case .animation(_, _, let delays, _): splitFrames(of: delays)
        }
    }

    /// `frames()` with neighbours whose indicators are drawn alike merged too,
    /// each with whether its indicator's drawing differs from the frame
    /// before's (true for the first frame).
    public func drawnFrames() -> [(frame: CarouselFrame, indicatorChanged: Bool)] {
        var result: [(frame: CarouselFrame, indicatorChanged: Bool)] = []
        var lastDrawing: Drawing?
        for frame in frames() {
            let drawing = IndicatorLayout.drawing(for: spec.indicator, at: frame.indicator)
            defer { lastDrawing = drawing }
            let changed = lastDrawing.map { drawing.changedBounds(since: $0) != nil } ?? true
            if let last = result.indices.last, !changed, result[last].frame.slides == frame.slides {
                result[last].frame.delay += frame.delay
            } else {
                result.append((frame, changed))
            }
        }
        return result
    }

    private func slideFrames() -> [CarouselFrame] {
        let indicatorSpec = spec.indicator
        let layout = IndicatorLayout.layout(for: indicatorSpec)
        let change = spec.composition.change
        let window = change == .cut ? nil : spec.transition
        var frames: [CarouselFrame] = []
        for offset in 0..<indicatorSpec.pages {
            let page = (indicatorSpec.current + offset) % indicatorSpec.pages
            let next = (page + 1) % indicatorSpec.pages
            for sample in indicator.samples(onPage: page, layout: layout, changeWindow: window) {
                let progress = Self.step(sample.change, steps: spec.slideSteps)
                let slides: SlideView = if progress >= 1 {
                    .slide(next)
                } else if progress <= 0 || change == .cut {
                    .slide(page)
                } else {
                    .change(from: page, to: next, progress: progress)
                }
                Self.append(CarouselFrame(slides: slides, indicator: sample.frame.moment, delay: sample.frame.delay), to: &frames)
            }
        }
        return frames
    }

    /// How many in-between pictures of the slides one change shows at
    /// most, at `fps` (`slideSteps` lowers it): 0 with `cut`, or a carousel GIF.
    public var slideSteps: Int {
        guard case .slides = spec.source, spec.composition.change != .cut else { return 0 }
        let layout = IndicatorLayout.layout(for: spec.indicator)
        let pages = spec.indicator.pages
        return (0..<pages).map { page in
            Set(indicator.samples(onPage: page, layout: layout, changeWindow: spec.transition).map {
                Self.step($0.change, steps: spec.slideSteps)
            }.filter { $0 > 0 && $0 < 1 }).count
        }.max() ?? 0
    }

    /// A change's progress (strictly between 0 and 1: part way) at most
    /// `steps` levels, `1/(steps+1)` apart, the nearest taken; the ends and
    /// every progress without `steps` as they are.
    static func step(_ progress: Double, steps: Int?) -> Double {
        guard let steps, progress > 0, progress < 1 else { return progress }
        let levels = Double(steps + 1)
        return min(max((progress * levels).rounded(), 0), Double(steps)) / levels
    }

    /// The frames of a carousel GIF whose frames last `delays` ms, split where the indicator's frames change.
    private func splitFrames(of delays: [Int]) -> [CarouselFrame] {
        let moments = indicator.frames()
        let total = delays.reduce(0, +)
        // Where each frame starts, in ms from the cycle's start.
        let momentStarts = Self.starts(of: moments.map(\.delay))
        let sourceStarts = Self.starts(of: delays)
        var cuts: [(time: Int, moment: Int?, source: Int?)] = []
        var (m, s) = (0, 0)
        while m < moments.count || s < delays.count {
            let momentTime = m < moments.count ? momentStarts[m] : Int.max
            let sourceTime = s < delays.count ? sourceStarts[s] : Int.max
            let time = min(momentTime, sourceTime)
            cuts.append((time, momentTime == time ? m : nil, sourceTime == time ? s : nil))
            if momentTime == time { m += 1 }
            if sourceTime == time { s += 1 }
        }
        var frames: [CarouselFrame] = []
        var (moment, source) = (0, 0)
        var start = 0
        for (index, cut) in cuts.enumerated() {
            moment = cut.moment ?? moment
            source = cut.source ?? source
            let end = index + 1 < cuts.count ? cuts[index + 1].time : total
            // A source frame's start too close to the indicator's (or the cycle's end) joins the frame before.
            let nextIndicator = momentStarts.first { $0 > cut.time } ?? total
            if cut.moment == nil, !frames.isEmpty,
               cut.time - start < AnimationTimeline.minimumDelay || nextIndicator - cut.time < AnimationTimeline.minimumDelay {
                frames[frames.count - 1].delay += end - cut.time
                continue
            }
            start = cut.time
            Self.append(CarouselFrame(slides: .sourceFrame(source), indicator: moments[moment].moment, delay: end - cut.time), to: &frames)
        }
        return frames
    }

    /// Where frames of `delays` start: 0, then the running sums.
    private static func starts(of delays: [Int]) -> [Int] {
        var time = 0
        return delays.map { delay in
            defer { time += delay }
            return time
        }
    }

    /// Appends `frame`, or lengthens the last frame when it shows the same.
    private static func append(_ frame: CarouselFrame, to frames: inout [CarouselFrame]) {
        if let last = frames.indices.last, frames[last].slides == frame.slides, frames[last].indicator == frame.indicator {
            frames[last].delay += frame.delay
        } else {
            frames.append(frame)
        }
    }
}
