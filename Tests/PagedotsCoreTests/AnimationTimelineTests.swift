import Testing
@testable import PagedotsCore

/// The order and timing of an animation's frames (docs/styles.md, "Animation").
@Suite struct AnimationTimelineTests {
    /// The timeline of `query` as a GIF.
    static func timeline(_ query: String) throws -> AnimationTimeline {
        AnimationTimeline(spec: try parsedSpec(query + "&format=gif"))
    }

    /// The still image that the first frame must be: the PNG of the same
    /// parameters, with the timer empty.
    static func still(_ query: String) throws -> Drawing {
        IndicatorLayout.drawing(for: try parsedSpec(query + "&format=png&progress=0"))
    }

    static let queries: [String] = Style.allCases.flatMap { style in
        Effect.allCases.map { "pages=4&current=1&style=\(style.rawValue)&effect=\($0.rawValue)" }
    } + [
        "pages=9&current=7&style=scroll&visible=5&dwell=1000",
        "pages=3&style=bar&labels=One,Two,Three&direction=ttb&effect=worm",
        "pages=5&current=4&style=pill&colors=red,green,blue&fill=outline&shape=rounded&direction=rtl",
        "pages=3&style=progress&transition=3000&effect=worm",
        "pages=3&style=progress&transition=2990&fps=1",
        "pages=6&current=2&style=dots&dwell=100&transition=100&fps=50&width=200&height=40&scale=3",
        "pages=2&style=pill&theme=dark&effect=fade&transition=10",
        "pages=12&current=8&style=fraction&direction=btt&colors=red,green,blue&effect=fade",
        "pages=10&current=9&style=fraction&transition=600&scale=2",
    ]

    @Test(arguments: queries)
    func aCycleLastsPagesTimesDwellInFramesOfWholeCentiseconds(query: String) throws {
        let timeline = try Self.timeline(query)
        let frames = timeline.frames()
        #expect(frames.reduce(0) { $0 + $1.delay } == timeline.spec.pages * timeline.spec.dwell)
        #expect(frames.allSatisfy { $0.delay >= 20 && $0.delay.isMultiple(of: 10) })
        #expect(frames.count == timeline.frameCount)
    }

    @Test(arguments: queries)
    func theFirstFrameIsTheStillAndTheLastShowsCurrentAgain(query: String) throws {
        let timeline = try Self.timeline(query)
        let frames = timeline.frames()
        let still = try Self.still(query)
        #expect(timeline.drawing(of: try #require(frames.first)) == still)
        #expect(timeline.drawing(of: try #require(frames.last)) == still)
        #expect(frames.last?.moment == .rest(page: timeline.spec.current, fill: 0))
    }

    @Test(arguments: queries)
    func neighbouringFramesLookDifferent(query: String) throws {
        let timeline = try Self.timeline(query)
        let drawings = timeline.frames().map(timeline.drawing(of:))
        #expect(zip(drawings, drawings.dropFirst()).allSatisfy { $0 != $1 })
    }

    /// Past the limit, drawings are not kept (an animation near the limits
    /// would hold megabytes of them); a frame without one is drawn from its moment.
    @Test(arguments: ["pages=40&current=3&fps=50", "pages=285&style=scroll"])
    func drawingsAreKeptUpToTheirItemLimit(query: String) throws {
        let timeline = try Self.timeline(query)
        let frames = timeline.drawnFrames()
        let kept = frames.compactMap(\.drawing)
        #expect(frames[0].drawing != nil)
        #expect(kept.count > 1 && kept.count < frames.count)
        // Items inside the scroll's clip count too.
        #expect(kept.reduce(0) { $0 + AnimationTimeline.itemCount($1.items) } <= AnimationTimeline.keptDrawingItemLimit)
        #expect(kept.count * 4 < frames.count)
        // Kept ones are those of the first frames, and equal what the moment draws.
        #expect(frames.prefix(kept.count).allSatisfy { $0.drawing == timeline.drawing(of: $0.frame) })
        #expect(try Self.timeline("pages=5&current=0&style=pill").drawnFrames().allSatisfy { $0.drawing != nil })
    }

    @Test func everyPageIsShownInOrderFromCurrent() throws {
        let frames = try Self.timeline("pages=4&current=2&effect=none").frames()
        #expect(frames.map(\.moment) == [2, 3, 0, 1, 2].map { .rest(page: $0, fill: 0) })
        // A cut is the next page in the last 20 ms of the dwell.
        #expect(frames.map(\.delay) == [2980, 3000, 3000, 3000, 20])
    }

    @Test func aMoveTakesTheLastTransitionOfEachDwellAtFps() throws {
        // 300 ms at 25 fps: 8 frames, the leaving page (merged with the rest) and the reached one at the ends.
        let frames = try Self.timeline("pages=2&dwell=1000").frames()
        #expect(frames.map(\.delay) == [700 + 30, 40, 40, 40, 30, 40, 40, 40 + 700 + 30, 40, 40, 40, 30, 40, 40, 40])
        let progress = frames.compactMap { frame -> Double? in
            if case .move(let move) = frame.moment { return move.progress }
            return nil
        }
        #expect(progress.count == 12)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 || $0 > 0.9 })
        #expect(progress.allSatisfy { $0 > 0 && $0 < 1 })
    }

    @Test func fpsSetsHowManyFramesAMoveTakes() throws {
        func moves(_ query: String) throws -> Int {
            try Self.timeline(query).frames().filter { if case .move = $0.moment { true } else { false } }.count
        }
        // 50 fps: 15 frames of 20 ms, 13 of them in between; 1 fps: the two ends only, a cut half-way.
        #expect(try moves("pages=2&fps=50") == 2 * 13)
        #expect(try moves("pages=2&fps=1") == 0)
        #expect(try Self.timeline("pages=2&fps=1").frames().map(\.delay) == [2850, 3000, 150])
        // A 30 ms transition leaves room for one frame: a cut.
        #expect(try moves("pages=2&transition=30") == 0)
    }

    @Test func aMoveTooShortForAFrameIsACut() throws {
        let cut = try Self.timeline("pages=3&effect=none").frames()
        #expect(try Self.timeline("pages=3&transition=0").frames() == cut)
        #expect(try Self.timeline("pages=3&transition=10&effect=worm").frames() == cut)
    }

    @Test func aTransitionAsLongAsDwellLeavesNoRest() throws {
        let timeline = try Self.timeline("pages=3&dwell=200&transition=200")
        let frames = timeline.frames()
        #expect(frames.first?.moment == .rest(page: 0, fill: 0))
        // 5 frames of 40 ms a move: the leaving page, 3 between, the next page (which starts the next move).
        #expect(frames.count == 3 * 4 + 1)
        #expect(frames.map(\.delay).reduce(0, +) == 600)
    }

    @Test func onePageIsOneFrame() throws {
        for style in Style.allCases where style != .progress {
            for effect in Effect.allCases {
                let frames = try Self.timeline("pages=1&style=\(style.rawValue)&effect=\(effect.rawValue)&dwell=700").frames()
                #expect(frames == [AnimationFrame(moment: .rest(page: 0, fill: 0), delay: 700)], "\(style) \(effect)")
            }
        }
    }

    @Test func theTimerFillsOverTheRestThenMoves() throws {
        let frames = try Self.timeline("pages=2&style=progress&dwell=1000&transition=200&fps=10").frames()
        // 800 ms at 10 fps: 8 frames filling from 0 to 1, the last one held into the move's first.
        let fills = frames.prefix(8).map(\.moment)
        #expect(fills == (0..<8).map { .rest(page: 0, fill: Double($0) / 7) })
        #expect(frames.prefix(8).map(\.delay) == [100, 100, 100, 100, 100, 100, 100, 100 + 100])
        #expect(frames[8].moment == .rest(page: 1, fill: 0))
        // With effect=none it fills over the whole dwell but the cut's 20 ms.
        let cut = try Self.timeline("pages=2&style=progress&dwell=1000&effect=none&fps=10").frames()
        #expect(cut.count == 2 * 10 + 1)
        #expect(cut[9].moment == .rest(page: 0, fill: 1))
    }

    @Test func aOnePageTimerFillsAndEmpties() throws {
        let frames = try Self.timeline("pages=1&style=progress&dwell=1000&fps=10").frames()
        #expect(frames.first?.moment == .rest(page: 0, fill: 0))
        #expect(frames.contains { $0.moment == .rest(page: 0, fill: 1) })
        #expect(frames.last?.moment == .rest(page: 0, fill: 0))
        #expect(frames.map(\.delay).reduce(0, +) == 1000)
    }

    @Test func scrollJumpsBackToTheStart() throws {
        let frames = try Self.timeline("pages=10&current=8&style=scroll").frames()
        // 8 → 9 glides; 9 → 0 is a cut; 0 → 1 … glide.
        let moves = frames.compactMap { frame -> Move? in
            if case .move(let move) = frame.moment { return move }
            return nil
        }
        #expect(!moves.contains { $0.from == 9 })
        #expect(moves.contains { $0.from == 8 && $0.to == 9 })
        #expect(frames.contains { $0.moment == .rest(page: 0, fill: 0) && $0.delay == 20 + 2700 + 30 })
        // When every page shows, the current dot travels back instead.
        let short = try Self.timeline("pages=5&current=4&style=scroll").frames()
        #expect(short.contains { if case .move(let move) = $0.moment { move.from == 4 && move.to == 0 } else { false } })
    }

    @Test func framesThatDrawAlikeAreMerged() throws {
        // A 10-second fade of a transparent colour: 250 frames a move, all drawn alike.
        let timeline = try Self.timeline("pages=2&color=transparent&inactive=transparent&effect=fade&dwell=20000&transition=10000")
        #expect(timeline.frameCount == 2 * 250 - 1)
        #expect(timeline.frames().map(\.delay) == [10000 + 40, 9920, 10000 + 40 + 40, 9920, 40])
    }

    @Test func easingIsUIKitsEaseInOut() {
        #expect(Easing.easeInOut(0) == 0 && Easing.easeInOut(1) == 1)
        #expect(abs(Easing.easeInOut(0.5) - 0.5) < 1e-12)
        // The curve (0.42, 0, 0.58, 1) at x = 0.25 (as CSS's ease-in-out computes it).
        #expect(abs(Easing.easeInOut(0.25) - 0.129) < 0.001)
        for x in stride(from: 0.05, to: 1, by: 0.05) {
            #expect(abs(Easing.easeInOut(1 - x) - (1 - Easing.easeInOut(x))) < 1e-9)
            #expect(Easing.easeInOut(x) < Easing.easeInOut(x + 0.01))
        }
    }
}
