import Testing
@testable import PagedotsCore

/// `style=fraction` as docs/styles.md gives it: the canvas from `pages`
/// alone, the text centred in it, two runs laid out as one line, a stacked
/// fraction in a column, and never mirrored.
struct LayoutFractionTests {
    /// DejaVu Sans's advances in font units (2048 to the em), as the docs write them.
    static let (boldDigit, regularDigit, separator) = (1425, 1303, 2 * 409 + 690)

    static func fraction(pages: Int, current: Int = 0, direction: Direction = .ltr) -> IndicatorSpec {
        var spec = LayoutDotsTests.spec(pages: pages, current: current, style: .fraction, direction: direction)
        spec.inactive = RGBA(red: 0x8E, green: 0x8E, blue: 0x93, alpha: 0x80)
        return spec
    }

    /// `units` at the default font size, 1.5·8 points.
    static func points(_ units: Int) -> Double {
        12 * Double(units) / 2048
    }

    /// The text runs of a drawing, in order.
    static func runs(_ drawing: Drawing) -> [TextRun] {
        drawing.items.compactMap { item in
            if case .text(let run) = item { run } else { nil }
        }
    }

    /// Where the text of `run` starts and ends: its box is exactly as wide
    /// as it, `units` long (the test fails when it is not).
    static func span(of run: TextRun, units: Int) -> (left: Double, right: Double) {
        #expect(abs(run.box.width - points(units)) < 1e-9, "\(run.text)")
        return (run.box.x, run.box.x + run.box.width)
    }

    @Test func canvasFollowsTheFormula() {
        // 2p + ⌈1.5s · (k·1425 + 1508 + k·1303) / 2048⌉ by 2p + 2s, k the digits of pages.
        let rows: [(pages: Int, width: Double)] = [(1, 33), (7, 33), (9, 33), (10, 49), (12, 49), (100, 65), (999, 65), (1000, 81)]
        for (pages, width) in rows {
            #expect(IndicatorLayout.fittedSize(of: Self.fraction(pages: pages)) == Size(width: width, height: 24), "pages=\(pages)")
        }
        // A column: 2p + ⌈1.5s · k·1425 / 2048⌉ by 2p + 4s + max(1, round(s/8)).
        #expect(IndicatorLayout.fittedSize(of: Self.fraction(pages: 12, direction: .ttb)) == Size(width: 25, height: 41))
        #expect(IndicatorLayout.fittedSize(of: Self.fraction(pages: 1000, direction: .btt)) == Size(width: 42, height: 41))
        var large = Self.fraction(pages: 7, direction: .ttb)
        large.size = 20
        #expect(IndicatorLayout.fittedSize(of: large) == Size(width: 8 + 21, height: 8 + 80 + 3))
    }

    @Test(arguments: [1, 7, 12, 100, 1000])
    func everyPageHasOneCanvasAndItsTextCentredInIt(pages: Int) throws {
        let digits = String(pages).count
        let canvas = IndicatorLayout.fittedSize(of: Self.fraction(pages: pages))
        var readable = Self.fraction(pages: pages).inactive
        readable.alpha = 255
        for current in 0..<pages {
            let spec = Self.fraction(pages: pages, current: current)
            let drawing = IndicatorLayout.drawing(for: spec)
            #expect(drawing.size == canvas)
            let runs = Self.runs(drawing)
            try #require(runs.count == 2 && drawing.items.count == 2)
            #expect(runs.map(\.text) == ["\(current + 1)", "\u{2009}/\u{2009}\(pages)"])
            #expect(runs.map(\.weight) == [.semibold, .regular])
            #expect(runs.map(\.color) == [spec.color, readable])
            #expect(runs.allSatisfy { $0.fontSize == 12 && $0.box.y == 4 && $0.box.height == 16 })
            // One line: the rest starts where the current number ends.
            let number = Self.span(of: runs[0], units: String(current + 1).count * Self.boldDigit)
            let rest = Self.span(of: runs[1], units: Self.separator + digits * Self.regularDigit)
            #expect(abs(number.right - rest.left) < 1e-9)
            // Centred, inside the padding.
            #expect(abs(number.left - (canvas.width - rest.right)) < 1e-9)
            #expect(number.left >= 4 - 1e-9)
        }
    }

    @Test func aFractionIsNeverMirrored() {
        for current in [0, 4, 11] {
            let ltr = IndicatorLayout.drawing(for: Self.fraction(pages: 12, current: current))
            #expect(IndicatorLayout.drawing(for: Self.fraction(pages: 12, current: current, direction: .rtl)) == ltr)
            let ttb = IndicatorLayout.drawing(for: Self.fraction(pages: 12, current: current, direction: .ttb))
            #expect(IndicatorLayout.drawing(for: Self.fraction(pages: 12, current: current, direction: .btt)) == ttb)
        }
    }

    @Test(arguments: [Direction.ttb, .btt])
    func aColumnStacksTheCurrentNumberOverARuleOverPages(direction: Direction) throws {
        let spec = Self.fraction(pages: 12, current: 2, direction: direction)
        let drawing = IndicatorLayout.drawing(for: spec)
        try #require(drawing.items.count == 3)
        var readable = spec.inactive
        readable.alpha = 255
        // The text's room: ⌈12 · 2·1425 / 2048⌉ = 17 points, from x = 4.
        let runs = Self.runs(drawing)
        #expect(runs.map(\.text) == ["3", "12"])
        #expect(runs.map(\.weight) == [.semibold, .regular])
        #expect(runs.map(\.color) == [spec.color, readable])
        #expect(roughly(runs.map(\.box.midX), [12.5, 12.5]))
        #expect(runs.map(\.box.y) == [4, 21] && runs.allSatisfy { $0.box.height == 16 })
        #expect(drawing.marks[1] == Mark(bounds: Rect(x: 4, y: 20, width: 17, height: 1), color: readable, kind: .filled))
    }

    @Test func aFixedCanvasCentresTheFraction() {
        var spec = Self.fraction(pages: 7, current: 2)
        spec.width = 63
        spec.height = 30
        let drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.size == Size(width: 63, height: 30))
        let runs = Self.runs(drawing)
        let left = Self.span(of: runs[0], units: Self.boldDigit).left
        let right = Self.span(of: runs[1], units: Self.separator + Self.regularDigit).right
        #expect(abs(left - (63 - right)) < 1e-9)
        #expect(runs.allSatisfy { $0.box.y == 7 })
    }

    @Test func directionIsOnlyRowOrColumnInTheKey() throws {
        #expect(try parsedSpec("pages=7&style=fraction&direction=rtl") == parsedSpec("pages=7&style=fraction"))
        #expect(try parsedSpec("pages=7&style=fraction&direction=btt") == parsedSpec("pages=7&style=fraction&direction=ttb"))
        #expect(try parsedSpec("pages=7&style=fraction&direction=ttb") != parsedSpec("pages=7&style=fraction"))
        #expect(try parsedSpec("pages=7&style=dots&direction=rtl") != parsedSpec("pages=7&style=dots"))
    }

    @Test func parametersForIndicatorsAreValidatedAndIgnored() throws {
        let plain = try parsedSpec("pages=7&style=fraction")
        #expect(try parsedSpec("pages=7&style=fraction&spacing=20&fill=outline&stroke=3&shape=star&visible=9&progress=1") == plain)
        #expect(try parsedSpec("pages=3&style=fraction&labels=a,b,c") == parsedSpec("pages=3&style=fraction"))
        #expect(throws: ParameterError.self) { try parsedSpec("pages=7&style=fraction&shape=hexagon") }
    }

    @Test func widthAndHeightAreCheckedAgainstTheFittedSize() throws {
        #expect(try parsedSpec("pages=7&style=fraction&width=33&height=24").width == nil)
        #expect(try parsedSpec("pages=7&style=fraction&width=40").width == 40)
        #expect(throws: ParameterError.self) { try parsedSpec("pages=7&style=fraction&width=32.5") }
        #expect(throws: ParameterError.self) { try parsedSpec("pages=7&style=fraction&direction=ttb&height=40") }
    }
}
