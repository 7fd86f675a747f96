import Testing
import PagedotsCore
import PagedotsRender

/// Pixel facts that goldens alone would not pin down: sizes, straight-alpha
/// colours, crisp edges, text that stays in its box, reuse between calls.
struct RasterRendererTests {
    let renderer = RasterRenderer()

    @Test(arguments: [1, 2, 3, 4])
    func pixelSizeIsPointsTimesScaleRoundedHalfUp(scale: Int) {
        let drawing = Drawing(size: Size(width: 15.5, height: 10.25), background: .transparent, items: [])
        let image = renderer.render(drawing, scale: scale)
        let expected = [1: (16, 10), 2: (31, 21), 3: (47, 31), 4: (62, 41)][scale]
        #expect(image.width == expected?.0 && image.height == expected?.1)
        #expect(image.pixels.count == image.width * image.height * 4)
    }

    @Test(arguments: [1, 2, 3])
    func coloursAreStraightAlpha(scale: Int) {
        let spec = spec(pages: 5) { $0.current = 2; $0.scale = scale }
        let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: scale)
        #expect(image.width == 80 * scale && image.height == 16 * scale)
        // Dot centres: x = p + s/2 + i·(s+g), y = p + s/2, in points.
        for index in 0..<5 {
            let centre = TestImages.pixel(image, (8 + index * 16) * scale, 8 * scale)
            if index == 2 {
                #expect(centre == [0x00, 0x7A, 0xFF, 0xFF])
            } else {
                // #007AFF at alpha 77 in its own colour: premultiplied, green is 37, which divides back to 123.
                #expect(centre == [0x00, 0x7A, 0xFF, 77], "dot \(index): \(centre)")
            }
        }
        #expect(TestImages.pixel(image, 0, 0) == [0, 0, 0, 0])
        #expect(TestImages.pixel(image, 16 * scale, 8 * scale) == [0, 0, 0, 0], "the gap between two dots")
    }

    @Test func integerGeometryIsCrispAtOneX() {
        // Squares and a rectangle on whole points: every pixel fully in or out.
        let spec = spec(pages: 4) { $0.current = 1; $0.style = .pill; $0.shape = .square; $0.size = 7; $0.spacing = 5 }
        let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: 1)
        let alphas = Set(stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] })
        #expect(alphas == [0, 77, 255])
        // Round dots: the rows just outside each dot are empty, the middle row is solid across.
        let dots = renderer.render(IndicatorLayout.drawing(for: LayoutSpecs.defaultDots), scale: 1)
        for x in 0..<dots.width {
            #expect(TestImages.pixel(dots, x, 3)[3] == 0 && TestImages.pixel(dots, x, 12)[3] == 0)
        }
        #expect((4..<12).allSatisfy { TestImages.pixel(dots, $0, 7)[3] > 0 } && TestImages.pixel(dots, 3, 7)[3] == 0)
    }

    @Test func backgroundIsPaintedUnderEverything() {
        let spec = spec(pages: 2) { $0.background = RGBA(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x80) }
        let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: 2)
        #expect(TestImages.pixel(image, 0, 0) == [0x12, 0x34, 0x56, 0x80])
    }

    @Test func reusingARendererGivesTheSameImages() {
        let first = IndicatorLayout.drawing(for: LayoutSpecs.defaultDots)
        let other = IndicatorLayout.drawing(for: spec(pages: 3) { $0.style = .bar; $0.labels = ["a", "b", "c"] })
        let before = renderer.render(first, scale: 2)
        _ = renderer.render(other, scale: 2)
        _ = renderer.render(first, scale: 3)
        #expect(renderer.render(first, scale: 2) == before)
        #expect(RasterRenderer().render(first, scale: 2) == before)
    }

    @Test func titlesAreDrawnAndStayInsideTheirSegments() {
        let spec = spec(pages: 3) {
            $0.current = 1; $0.style = .bar; $0.scale = 2
            $0.labels = ["A very long first title indeed", "Second", "Third title that does not fit either"]
        }
        let drawing = IndicatorLayout.drawing(for: spec)
        let image = renderer.render(drawing, scale: 2)
        // Segments are 64 points long and 8 apart, from x = 4: the gaps (and
        // the padding) above the line hold no ink.
        let gaps = [0..<4, 68..<76, 140..<148, 212..<216].flatMap { $0.map { $0 * 2 } + $0.map { $0 * 2 + 1 } }
        for x in gaps {
            for y in 0..<(24 * 2) {
                #expect(TestImages.pixel(image, x, y)[3] == 0, "ink at (\(x), \(y))")
            }
        }
        for segment in 0..<3 {
            let xs = (4 + segment * 72) * 2..<(68 + segment * 72) * 2
            #expect(xs.contains { x in (8..<40).contains { TestImages.pixel(image, x, $0)[3] == 255 } }, "title \(segment) drawn")
        }
    }

    @Test func emptyOrMissingTitlesDrawNothing() {
        let spec = spec(pages: 2) { $0.style = .bar; $0.labels = ["", "B"] }
        let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: 1)
        #expect((4..<68).allSatisfy { x in (4..<20).allSatisfy { TestImages.pixel(image, x, $0)[3] == 0 } })
    }
}

/// Specs shared by the renderer tests.
enum LayoutSpecs {
    /// `pages=5&current=2`: 80 × 16 points.
    static let defaultDots = spec(pages: 5) { $0.current = 2 }
}
