import Testing
import PagedotsCore
import PagedotsRender

/// `style=fraction`'s text as the renderer lays it out: the core sizes the
/// canvas from `FractionMetrics` without a text engine, so the engine must
/// measure every fraction's text exactly as those metrics say (a change of
/// font, or kerning between these characters, fails here), and the two runs
/// of different weight must come out as one line, inside the canvas.
struct FractionTextTests {
    let engine = TextLayoutEngine()

    /// `text`'s advance measured by the engine, in font units (2048 to the em).
    func measuredUnits(_ text: String, _ weight: FontWeight) -> Double {
        engine.advance(of: text, fontSize: Double(FractionMetrics.unitsPerEm), weight: weight)
    }

    @Test func theEngineMeasuresTheCoresMetrics() {
        for weight in [FontWeight.regular, .semibold] {
            for digit in 0...9 {
                #expect(abs(measuredUnits(String(digit), weight) - Double(FractionMetrics.digitUnits(weight))) < 1e-6, "\(digit) \(weight)")
            }
            #expect(abs(measuredUnits("\u{2009}", weight) - Double(FractionMetrics.thinSpaceUnits)) < 1e-6)
        }
        #expect(abs(measuredUnits("/", .regular) - Double(FractionMetrics.slashUnits)) < 1e-6)
    }

    @Test func everyFractionsTextMeasuresAsTheCoreSums() {
        // No kerning between digits, spaces and the slash: every text a fraction draws adds up.
        let currents = (1...1000).filter { number in
            abs(measuredUnits(String(number), .semibold) - Double(FractionMetrics.units(ofNumber: number, weight: .semibold))) >= 1e-6
        }
        let rests = (1...1000).filter { number in
            let expected = FractionMetrics.separatorUnits + FractionMetrics.units(ofNumber: number, weight: .regular)
            return abs(measuredUnits("\u{2009}/\u{2009}\(number)", .regular) - Double(expected)) >= 1e-6
        }
        #expect(currents.isEmpty, "current numbers measured otherwise: \(currents.prefix(5))…")
        #expect(rests.isEmpty, "rests measured otherwise, for pages: \(rests.prefix(5))…")
    }

    /// The laid-out runs of a fraction's drawing.
    func glyphRuns(_ spec: IndicatorSpec) -> (drawing: Drawing, runs: [GlyphRun]) {
        let drawing = IndicatorLayout.drawing(for: spec)
        let runs = drawing.items.compactMap { item -> GlyphRun? in
            if case .text(let run) = item { engine.glyphRun(for: run) } else { nil }
        }
        return (drawing, runs)
    }

    @Test(arguments: [(7, 2), (12, 11), (100, 11), (1000, 0), (1000, 999)])
    func theTwoWeightsAreOneLine(pages: Int, current: Int) throws {
        let (_, runs) = glyphRuns(spec(pages: pages) { $0.style = .fraction; $0.current = current })
        try #require(runs.count == 2)
        let (number, rest) = (runs[0], runs[1])
        // Every character drawn, the number bold, the rest regular, on one baseline.
        #expect(number.glyphs.count == String(current + 1).count && rest.glyphs.count == 1 + String(pages).count)
        #expect(number.glyphs.allSatisfy { $0.key.face.file.hasSuffix("/DejaVuSans-Bold.ttf") })
        #expect(rest.glyphs.allSatisfy { $0.key.face.file.hasSuffix("/DejaVuSans.ttf") })
        let baselines = Set((number.glyphs + rest.glyphs).map(\.origin.y))
        #expect(baselines.count == 1)
        // The rest's pen starts where the number's ends: its slash is a thin space after it.
        let numberEnd = try #require(number.glyphs.first).origin.x + number.advance
        let slash = try #require(rest.glyphs.first).origin.x
        let thinSpace = 12 * Double(FractionMetrics.thinSpaceUnits) / Double(FractionMetrics.unitsPerEm)
        #expect(abs(slash - (numberEnd + thinSpace)) < 1e-9)
    }

    @Test func noFractionIsCutShort() {
        // Each run's box is exactly its text's advance wide, at any size.
        for size in [2, 7.3, 8, 13.35, 64] {
            for pages in Array(stride(from: 1, through: 1000, by: 37)) + [1000] {
                let (_, runs) = glyphRuns(spec(pages: pages) { $0.style = .fraction; $0.current = pages - 1; $0.size = size })
                #expect(runs.map(\.glyphs.count) == [String(pages).count, 1 + String(pages).count], "size \(size), \(pages)")
            }
        }
    }

    @Test(arguments: [Direction.ltr, .ttb])
    func theInkStaysOnTheCanvasWithoutPadding(direction: Direction) throws {
        for pages in [1, 9, 10, 100, 1000] {
            // The widest current number of each row (all nines, or the last page).
            for current in Set([pages - 1, min(pages, 999) - 1, min(pages, 99) - 1, min(pages, 9) - 1]) {
                let (drawing, runs) = glyphRuns(spec(pages: pages) {
                    $0.style = .fraction; $0.current = current; $0.padding = 0; $0.direction = direction
                })
                for glyph in runs.flatMap(\.glyphs) {
                    for point in glyph.outline.elements.flatMap(\.points) {
                        let x = glyph.origin.x + point.x, y = glyph.origin.y + point.y
                        #expect(x >= 0 && x <= drawing.size.width && y >= 0 && y <= drawing.size.height, "\(pages) \(current)")
                    }
                }
            }
        }
    }
}

extension PathElement {
    /// The element's points, control points included.
    var points: [Point] {
        switch self {
        case .move(let p), .line(let p): [p]
        case .curve(let c1, let c2, let p): [c1, c2, p]
        case .close: []
        }
    }
}
