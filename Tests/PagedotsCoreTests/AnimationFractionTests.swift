import Testing
@testable import PagedotsCore

/// How a fraction moves from one page to the next (docs/styles.md,
/// "fraction"): digits roll like an odometer, the rest glides, a fade
/// cross-fades the texts, worm is slide.
@Suite struct AnimationFractionTests {
    /// The drawing of `query` (a fraction GIF) part way through the move from `from` to `to`.
    static func drawing(_ query: String, from: Int, to: Int, progress: Double) throws -> Drawing {
        try AnimationMovesTests.drawing(query + "&style=fraction", from: from, to: to, progress: progress)
    }

    /// The still of `query` (a fraction) with `page` current.
    static func still(_ query: String, page: Int) throws -> Drawing {
        IndicatorLayout.drawing(for: try parsedSpec(query + "&style=fraction&format=gif"), at: .rest(page: page, fill: 0))
    }

    /// The text runs of `items`, in order.
    static func runs(_ items: [DrawItem]) -> [TextRun] {
        items.compactMap { item in
            if case .text(let run) = item { run } else { nil }
        }
    }

    /// The rolling number of a slide: its clip and its digits' texts and tops.
    static func rolling(_ drawing: Drawing) throws -> (clip: Rect, digits: [String], tops: [Double]) {
        guard case .clipped(let clip, let items) = try #require(drawing.items.first) else {
            Issue.record("a rolling number is clipped to its line")
            return (Rect(x: 0, y: 0, width: 0, height: 0), [], [])
        }
        let runs = Self.runs(items)
        #expect(runs.allSatisfy { $0.weight == .semibold && $0.color == .systemBlue })
        return (clip.bounds, runs.map(\.text), runs.map(\.box.y))
    }

    @Test func aSlideRollsTheNumberUpLikeAnOdometer() throws {
        // 3 → 4 of 7, halfway: 3 half out above its line (16 tall, from 4), 4 half in from below.
        let drawing = try Self.drawing("pages=7", from: 2, to: 3, progress: 0.5)
        let rolling = try Self.rolling(drawing)
        #expect(rolling.clip == Rect(x: 0, y: 4, width: 33, height: 16))
        #expect(rolling.digits == ["3", "4"] && rolling.tops == [-4, 12])
        // The digits stand where the still draws its number; the rest does not move.
        let still = Self.runs(try Self.still("pages=7", page: 2).items)
        #expect(Self.runs(drawing.items.dropFirst().map { $0 }) == [still[1]])
        let digits = try #require(drawing.items.first.flatMap { item -> [TextRun]? in
            if case .clipped(_, let inner) = item { Self.runs(inner) } else { nil }
        })
        #expect(digits.allSatisfy { abs($0.box.x - still[0].box.x) < 1e-9 && $0.box.width == still[0].box.width })
    }

    @Test func digitsThatStayStandStill() throws {
        // 12 → 13, a quarter of the way: the tens stay, the units roll.
        let rolling = try Self.rolling(try Self.drawing("pages=20", from: 11, to: 12, progress: 0.25))
        #expect(rolling.digits == ["2", "3", "1"] && rolling.tops == [0, 16, 4])
    }

    @Test func theWrapRollsTheTensOut() throws {
        // 12 → 1: the units roll from 2 to 1, the tens roll out with nothing after them.
        let drawing = try Self.drawing("pages=12", from: 11, to: 0, progress: 0.5)
        let rolling = try Self.rolling(drawing)
        #expect(rolling.digits == ["2", "1", "1"] && rolling.tops == [-4, 12, -4])
        // The number's right end glides between the two stills', and the rest with it.
        let (before, after) = (Self.runs(try Self.still("pages=12", page: 11).items), Self.runs(try Self.still("pages=12", page: 0).items))
        let rest = try #require(Self.runs(drawing.items).last)
        #expect(abs(rest.box.x - (before[1].box.x + after[1].box.x) / 2) < 1e-9)
        #expect(before[1].box.x != after[1].box.x)
    }

    @Test func aFadeCrossesTheTextsInPlace() throws {
        // Same width: the two numbers fade, the rest stays as it is.
        let drawing = try Self.drawing("pages=7&effect=fade", from: 2, to: 3, progress: 0.25)
        let runs = Self.runs(drawing.items)
        #expect(runs.map(\.text) == ["3", "4", "\u{2009}/\u{2009}7"])
        #expect(runs.map(\.color.alpha) == [191, 64, 255])
        let (before, after) = (Self.runs(try Self.still("pages=7", page: 2).items), Self.runs(try Self.still("pages=7", page: 3).items))
        #expect(runs.map(\.box) == [before[0].box, after[0].box, before[1].box])
        // A wider number moves the rest: it fades from one place to the other.
        let wider = Self.runs(try Self.drawing("pages=12&effect=fade", from: 8, to: 9, progress: 0.25).items)
        #expect(wider.map(\.text) == ["9", "10", "\u{2009}/\u{2009}12", "\u{2009}/\u{2009}12"])
        #expect(wider.map(\.color.alpha) == [191, 64, 191, 64])
    }

    @Test func wormRollsAsSlide() throws {
        let worm = try AnimationTimelineTests.timeline("pages=12&current=8&style=fraction&effect=worm")
        let slide = try AnimationTimelineTests.timeline("pages=12&current=8&style=fraction&effect=slide")
        let frames = worm.frames()
        #expect(frames.allSatisfy { if case .move(let move) = $0.moment { move.effect == .slide } else { true } })
        #expect(frames.map(worm.drawing(of:)) == slide.frames().map(slide.drawing(of:)))
        #expect(frames.map(\.delay) == slide.frames().map(\.delay))
    }

    @Test func aCutShowsOneStillOrTheOther() throws {
        let early = try Self.drawing("pages=7&effect=none", from: 2, to: 3, progress: 0.4)
        let late = try Self.drawing("pages=7&effect=none", from: 2, to: 3, progress: 0.6)
        #expect(Self.runs(early.items) == Self.runs(try Self.still("pages=7", page: 2).items))
        #expect(Self.runs(late.items) == Self.runs(try Self.still("pages=7", page: 3).items))
    }

    @Test func aColumnRollsItsTopNumberOverAStillRule() throws {
        let drawing = try Self.drawing("pages=12&direction=ttb", from: 8, to: 9, progress: 0.5)
        let rolling = try Self.rolling(drawing)
        // The column is 25 wide; the top line runs from 4 to 20.
        #expect(rolling.clip == Rect(x: 0, y: 4, width: 25, height: 16))
        #expect(rolling.digits == ["9", "0", "1"] && rolling.tops == [-4, 12, 12])
        let still = try Self.still("pages=12&direction=ttb", page: 8)
        #expect(Array(drawing.items.dropFirst()) == Array(still.items.dropFirst()))
    }

    @Test func perPageColoursMixAsTheNumberRolls() throws {
        let drawing = try Self.drawing("pages=2&colors=ff0000,0000ff&inactive=808080", from: 0, to: 1, progress: 0.5)
        guard case .clipped(_, let inner) = try #require(drawing.items.first) else {
            Issue.record("a rolling number is clipped to its line")
            return
        }
        #expect(Self.runs(inner).allSatisfy { $0.color == RGBA(red: 128, green: 0, blue: 128) })
        #expect(Self.runs(drawing.items).last?.color == RGBA(red: 128, green: 128, blue: 128))
    }
}
