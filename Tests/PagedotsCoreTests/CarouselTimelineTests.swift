import Testing
@testable import PagedotsCore

@Suite("Carousel timeline: the slides change with the indicator, in step")
struct CarouselTimelineTests {
    static let queries: [String] = SlideChange.allCases.flatMap { change in
        ["style=pill", "style=dots&effect=worm", "effect=none", "style=progress", "style=scroll&pages=3", "transition=0", "transition=3000"]
            .map { "current=1&change=\(change.rawValue)&" + $0.replacingOccurrences(of: "&pages=3", with: "") }
    }

    static func frames(_ query: String, slides count: Int = 3) throws -> [CarouselFrame] {
        try CarouselTimeline(spec: parsedCarousel(query, source: slides(count)).spec).frames()
    }

    @Test("delays add up to pages × dwell, none under 20 ms; first frame slide current at rest, the last shows it again", arguments: queries)
    func timing(query: String) throws {
        let frames = try Self.frames(query)
        #expect(frames.reduce(0) { $0 + $1.delay } == 3 * 3000)
        #expect(frames.allSatisfy { $0.delay >= 20 && $0.delay % 10 == 0 })
        #expect(frames.first?.slides == .slide(1))
        #expect(frames.first?.indicator == .rest(page: 1, fill: 0))
        #expect(frames.last?.slides == .slide(1))
        if case .rest(let page, _)? = frames.last?.indicator { #expect(page == 1) } else { Issue.record("last frame not at rest") }
        for (before, after) in zip(frames, frames.dropFirst()) {
            #expect(before.slides != after.slides || before.indicator != after.indicator)
        }
    }

    @Test("the slides show in order from current, each arriving with the indicator", arguments: queries)
    func order(query: String) throws {
        let frames = try Self.frames(query)
        var shown: [Int] = []
        for frame in frames {
            guard case .slide(let index) = frame.slides, shown.last != index else { continue }
            shown.append(index)
            // The slide arrives on the frame on which the indicator reaches its page.
            if case .rest(let page, _) = frame.indicator { #expect(page == index, "\(query)") }
        }
        #expect(shown == [1, 2, 0, 1])
    }

    @Test("fade and push: the transition sampled at fps, the slides' progress the indicator's move's")
    func changesFollowTheMove() throws {
        let frames = try Self.frames("change=fade&style=pill&transition=400&fps=25")
        let changing = frames.filter { if case .change = $0.slides { true } else { false } }
        // 400 ms at 25 fps is 10 samples: 8 inside the move on each of the 3 pages.
        #expect(changing.count == 3 * 8)
        for frame in changing {
            guard case .change(_, _, let progress) = frame.slides, case .move(let move) = frame.indicator else {
                Issue.record("a changing slide without a moving indicator: \(frame)")
                continue
            }
            #expect(move.progress == progress)
        }
    }

    @Test("slideSteps: a change shows at most that many in-between pictures, the indicator's frames and the timing unchanged",
          arguments: ["change=fade", "change=push&style=pill", "change=fade&effect=none"])
    func fewerSteps(query: String) throws {
        let spec = try parsedCarousel(query, source: slides(3)).spec
        let natural = CarouselTimeline(spec: spec)
        #expect(natural.slideSteps >= 6)
        for steps in [3, 2, 1] {
            var lighter = spec
            lighter.slideSteps = steps
            let timeline = CarouselTimeline(spec: lighter)
            #expect(timeline.slideSteps == steps)
            let frames = timeline.frames()
            #expect(frames.reduce(0) { $0 + $1.delay } == 3 * 3000)
            // The indicator moves as without the lever: the same moments, in order.
            #expect(frames.map(\.indicator).reduce(into: [Moment]()) { if $0.last != $1 { $0.append($1) } }
                == natural.frames().map(\.indicator).reduce(into: [Moment]()) { if $0.last != $1 { $0.append($1) } })
            // Every in-between picture is one of the levels, k/(steps+1).
            for frame in frames {
                if case .change(_, _, let progress) = frame.slides {
                    #expect(((progress * Double(steps + 1)) - (progress * Double(steps + 1)).rounded()).magnitude < 1e-9)
                }
            }
        }
        #expect(CarouselTimeline.step(0.49, steps: 1) == 0.5 && CarouselTimeline.step(0.2, steps: 1) == 0 && CarouselTimeline.step(0.99, steps: 1) == 0.5)
        #expect(CarouselTimeline(spec: try parsedCarousel("change=cut", source: slides(3)).spec).slideSteps == 0)
    }

    @Test("cut: no frame between two slides; effect=none with fade: the slides change while the indicator waits")
    func cutsAndWaits() throws {
        let cut = try Self.frames("change=cut&style=pill")
        #expect(!cut.contains { if case .change = $0.slides { true } else { false } })
        let fade = try Self.frames("change=fade&effect=none&transition=300")
        let changing = fade.filter { if case .change = $0.slides { true } else { false } }
        #expect(!changing.isEmpty)
        #expect(changing.allSatisfy { if case .rest = $0.indicator { true } else { false } })
    }

    @Test("Frames whose indicators draw alike and whose slides are the same are merged")
    func drawnFramesMerge() throws {
        let spec = try parsedCarousel("change=cut&style=pill").spec
        let timeline = CarouselTimeline(spec: spec)
        let drawn = timeline.drawnFrames()
        #expect(drawn.first?.indicatorChanged == true)
        #expect(drawn.reduce(0) { $0 + $1.frame.delay } == 9000)
        #expect(drawn.count <= timeline.frames().count)
    }

    @Test("a carousel made elsewhere keeps its frames and delays, split where the indicator moves")
    func imported() throws {
        // Frame 4 starts 10 ms before the indicator's second move frame (3230 ms: 3500 − 300 + 30).
        let delays = [500, 1000, 500, 1220, 1780, 1000, 1000]
        let source = CarouselSource.animation(width: 400, height: 200, delays: delays, loopCount: 0)
        let spec = try parsedCarousel("pages=2&style=pill&current=1", source: source).spec
        let frames = CarouselTimeline(spec: spec).frames()
        #expect(frames.reduce(0) { $0 + $1.delay } == 7000)
        #expect(frames.allSatisfy { $0.delay >= 20 })
        #expect(frames.first?.slides == .sourceFrame(0))
        #expect(frames.first?.indicator == .rest(page: 1, fill: 0))
        var time = 0
        var sourceStarts: [Int: Int] = [:]
        var indicatorStarts: [Int] = []
        var lastMoment: Moment?
        for frame in frames {
            guard case .sourceFrame(let index) = frame.slides else {
                Issue.record("not a source frame: \(frame)")
                continue
            }
            if sourceStarts[index] == nil { sourceStarts[index] = time }
            if frame.indicator != lastMoment { indicatorStarts.append(time) }
            lastMoment = frame.indicator
            time += frame.delay
        }
        #expect(sourceStarts.keys.sorted() == Array(delays.indices))
        #expect([0, 1, 2, 3, 5, 6].map { sourceStarts[$0] } == [0, 500, 1500, 2000, 5000, 6000])
        // Too close to the indicator's frame to be a frame of its own: it starts with it.
        #expect(sourceStarts[4] == 3230)
        // The indicator's frames keep their times.
        var expected: [Int] = []
        time = 0
        for frame in AnimationTimeline(spec: spec.indicator).frames() {
            expected.append(time)
            time += frame.delay
        }
        #expect(indicatorStarts == expected)
    }
}
