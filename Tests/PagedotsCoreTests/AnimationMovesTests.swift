import Testing
@testable import PagedotsCore

/// How each style draws a move part way, by effect (docs/styles.md, "Animation").
@Suite struct AnimationMovesTests {
    /// The drawing of `query` (a GIF) part way through the move from `from` to `to`.
    static func drawing(_ query: String, from: Int, to: Int, progress: Double, fill: Double = 0) throws -> Drawing {
        let spec = try parsedSpec(query + "&format=gif")
        let move = Move(from: from, to: to, progress: progress, effect: spec.effect, fill: fill)
        return IndicatorLayout.drawing(for: spec, at: .move(move))
    }

    /// The marks of `query`'s still image with `page` current.
    static func still(_ query: String, page: Int) throws -> [Mark] {
        IndicatorLayout.drawing(for: try parsedSpec(query + "&format=gif"), at: .rest(page: page, fill: 0)).marks
    }

    /// The marks in `color`.
    static func marks(_ drawing: Drawing, in color: RGBA) -> [Mark] {
        drawing.marks.filter { $0.color == color }
    }

    static let blue = RGBA.systemBlue

    @Test func dotsSlideTheCurrentColourAcross() throws {
        let query = "pages=3&effect=slide"
        let mark = try #require(Self.marks(try Self.drawing(query, from: 0, to: 1, progress: 0.5), in: Self.blue).first)
        // Halfway between the dots at 4 and 20.
        #expect(mark.bounds == Rect(x: 12, y: 4, width: 8, height: 8))
        let drawing = try Self.drawing(query, from: 0, to: 1, progress: 0.25)
        #expect(drawing.marks.filter { $0.color != Self.blue }.map(\.bounds.x) == [4, 20, 36])
        #expect(Self.marks(drawing, in: Self.blue).map(\.bounds.x) == [8])
    }

    @Test func theWormStretchesThenItsTailFollows() throws {
        let query = "pages=3&effect=worm"
        func mark(_ progress: Double) throws -> Rect {
            try #require(Self.marks(try Self.drawing(query, from: 0, to: 1, progress: progress), in: Self.blue).first).bounds
        }
        // From 4…12 to 20…28: the front reaches 28 halfway, then the back follows.
        #expect(try mark(0.25) == Rect(x: 4, y: 4, width: 16, height: 8))
        #expect(try mark(0.5) == Rect(x: 4, y: 4, width: 24, height: 8))
        #expect(try mark(0.75) == Rect(x: 12, y: 4, width: 16, height: 8))
        // Backwards (the move from the last page to the first) the front is the left edge.
        let back = try #require(Self.marks(try Self.drawing(query, from: 2, to: 0, progress: 0.25), in: Self.blue).first)
        #expect(back.bounds == Rect(x: 20, y: 4, width: 24, height: 8))
    }

    @Test func aFadeCrossesTheColoursInPlace() throws {
        let drawing = try Self.drawing("pages=3&effect=fade", from: 1, to: 2, progress: 0.25)
        // Three inactive dots, then the leaving and the reached page's colour, as opaque as the fade has got.
        let current = drawing.marks.dropFirst(3)
        #expect(current.map(\.bounds.x) == [20, 36])
        #expect(current.map(\.color.alpha) == [191, 64])
    }

    @Test func aFadeChangesThePillsCapsuleInPlace() throws {
        let drawing = try Self.drawing("pages=3&style=pill&effect=fade", from: 0, to: 1, progress: 0.5)
        // Over the three slots: the leaving page's colour half faded out on its
        // slot (12 long, halfway from 2s to s), the reached one's half in on its own.
        let marks = drawing.marks.dropFirst(3)
        #expect(marks.map(\.bounds) == [Rect(x: 4, y: 4, width: 12, height: 8), Rect(x: 24, y: 4, width: 12, height: 8)])
        #expect(marks.map(\.color.alpha) == [128, 128])
    }

    @Test func thePillsCapsuleGlidesWhileTheDotsMakeRoom() throws {
        let drawing = try Self.drawing("pages=3&style=pill", from: 0, to: 1, progress: 0.5)
        let capsule = try #require(Self.marks(drawing, in: Self.blue).first)
        // From 4…20 to 20…36 (s + g on): halfway at 12…28, 2s long throughout.
        #expect(capsule.bounds == Rect(x: 12, y: 4, width: 16, height: 8))
        // The leaving page's slot shrinks and the reached one's grows, each by half of s.
        let slots = drawing.marks.filter { $0.color != Self.blue }.map(\.bounds)
        #expect(slots.map(\.width) == [12, 12, 8])
        #expect(slots.map(\.x) == [4, 24, 44])
    }

    @Test func theBarsLineGlidesAndTheTitleChangesHalfway() throws {
        let query = "pages=2&style=bar&labels=A,B"
        let early = try Self.drawing(query, from: 0, to: 1, progress: 0.4)
        let line = try #require(Self.marks(early, in: Self.blue).first { if case .filled = $0.kind { true } else { false } })
        // Segments 64 long, 8 apart: 40 % of the way from 4 to 76.
        #expect(abs(line.bounds.x - 32.8) < 1e-9)
        func semibold(_ drawing: Drawing) -> String? {
            drawing.marks.compactMap { if case .text(let text, .semibold, _) = $0.kind { text } else { nil } }.first
        }
        #expect(semibold(early) == "A")
        #expect(semibold(try Self.drawing(query, from: 0, to: 1, progress: 0.6)) == "B")
    }

    @Test func theScrollWindowGlidesUnderTheCentredDot() throws {
        let query = "pages=12&style=scroll"
        // 4 → 5 moves the window from pages 1…7 to 2…8; the current colour stays in the middle.
        let drawing = try Self.drawing(query, from: 4, to: 5, progress: 0.5)
        guard case .clipped(_, let items) = try #require(drawing.items.first), drawing.items.count == 1 else {
            Issue.record("a gliding window is clipped to the row")
            return
        }
        let marks = items.flatMap(\.marks)
        let current = try #require(marks.last)
        #expect(current.color == Self.blue && current.bounds == Rect(x: 52, y: 4, width: 8, height: 8))
        // Eight dots part way: page 1 shrinking out on the left, page 8 growing in on the right.
        let dots = marks.dropLast()
        #expect(dots.count == 8)
        #expect(dots.first.map { $0.bounds.width < 8 / 3 } == true)
        #expect(dots.last.map { $0.bounds.width > 0 && $0.bounds.width < 8 / 3 } == true)
        // Pages 2…7 are half a slot (8) right of where the next window shows them.
        let after = try Self.still(query, page: 5).map(\.bounds.midX)
        #expect(roughly(dots.dropFirst().prefix(6).map(\.bounds.midX), after.prefix(6).map { $0 + 8 }))
    }

    @Test func aScrollFadeColoursTheDotsAsTheyShrinkAndGrow() throws {
        // 2 → 3 moves the window from pages 0…4 to 1…5: page 2 shrinks from
        // the full size to ⅔ (the edge's second dot), page 3 grows from ⅔.
        let drawing = try Self.drawing("pages=12&style=scroll&visible=5&effect=fade", from: 2, to: 3, progress: 0.5)
        guard case .clipped(_, let items) = try #require(drawing.items.first) else {
            Issue.record("a gliding window is clipped to the row")
            return
        }
        let marks = items.flatMap(\.marks)
        // Pages 0…5 as inactive dots, then the two fading marks of the current colour.
        let (dots, fades) = (Array(marks.prefix(6)), Array(marks.suffix(2)))
        #expect(marks.count == 8)
        #expect(fades.map(\.color.alpha) == [128, 128])
        // Each mark covers its dot exactly (no ring of colour around a smaller dot): ⅚ of 8 wide.
        #expect(fades.map(\.bounds) == [dots[2].bounds, dots[3].bounds])
        let fiveSixths: Double = 8 * 5 / 6
        #expect(roughly(fades.map(\.bounds.width), [fiveSixths, fiveSixths]))
    }

    @Test func theTimersFillTravelsToTheNextTrackAndEmptiesNeverShowingInTheGap() throws {
        let drawing = try Self.drawing("pages=3&style=progress", from: 0, to: 1, progress: 0.5, fill: 1)
        // From the full track 4…28 to an empty fill at the next track's start
        // (4 + s + g = 20): 12…24 halfway. It shows only inside the two tracks
        // as they are now (4…20 and 28…44), not in the gap between them.
        let shown = Self.marks(drawing, in: Self.blue).filter { $0.bounds.width > 0 }
        #expect(shown.map(\.bounds) == [Rect(x: 12, y: 4, width: 8, height: 8)])
        // The tracks pass their length on: 3s → 2s and s → 2s halfway.
        #expect(drawing.marks.filter { $0.color != Self.blue }.map(\.bounds.width) == [16, 16, 8])
    }

    @Test func perPageColoursMixDuringTheMove() throws {
        let drawing = try Self.drawing("pages=2&colors=ff0000,0000ff", from: 0, to: 1, progress: 0.5)
        let current = try #require(drawing.marks.last)
        #expect(current.color == RGBA(red: 128, green: 0, blue: 128))
        #expect(drawing.marks.first?.color == RGBA(red: 128, green: 0, blue: 128, alpha: 77))
    }

    /// Every style, effect, direction, fill and canvas: a move keeps the
    /// still's canvas and draws nothing outside it.
    @Test(arguments: Style.allCases, Effect.allCases.filter { $0 != .none })
    func aMoveStaysOnTheCanvas(style: Style, effect: Effect) throws {
        for direction in Direction.allCases {
            for extra in ["", "&fill=outline&shape=star", "&width=400&height=200", "&colors=red,green,blue"] {
                let query = "pages=5&current=1&style=\(style.rawValue)&effect=\(effect.rawValue)&direction=\(direction.rawValue)"
                    + (style == .bar ? "&labels=a,b,c,d,e" : "") + extra
                let spec = try parsedSpec(query + "&format=gif")
                let timeline = AnimationTimeline(spec: spec)
                let frames = timeline.frames()
                let first = timeline.drawing(of: frames[0])
                let moving = frames.filter { if case .move = $0.moment { true } else { false } }
                #expect(!moving.isEmpty, "\(query)")
                for frame in moving {
                    let drawing = timeline.drawing(of: frame)
                    #expect(drawing.size == first.size, "\(query)")
                    let canvas = Rect(x: 0, y: 0, width: drawing.size.width, height: drawing.size.height)
                    #expect(drawing.marks.allSatisfy { canvas.holds($0.bounds) }, "\(query): \(frame)")
                }
            }
        }
    }
}

extension Rect {
    /// Whether `other` lies inside this box (within a rounding error).
    func holds(_ other: Rect) -> Bool {
        other.x >= x - 1e-9 && other.y >= y - 1e-9
            && other.x + other.width <= x + width + 1e-9 && other.y + other.height <= y + height + 1e-9
    }
}
