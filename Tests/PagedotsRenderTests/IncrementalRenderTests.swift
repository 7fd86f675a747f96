import Testing
import PagedotsCore
import PagedotsRender

/// Animation frames drawn over the frame before, repainting only where the
/// drawings differ (`Drawing.changedBounds(since:)` and
/// `RasterRenderer.render(_:scale:over:changed:)`), come out as the frames
/// drawn whole.
struct IncrementalRenderTests {
    static let queries: [String] = Style.allCases.flatMap { style in
        Effect.allCases.map { "pages=4&current=1&style=\(style.rawValue)&effect=\($0.rawValue)" }
    } + [
        "pages=5&current=0&style=pill&scale=2",
        "pages=9&current=7&style=scroll&visible=5&dwell=1000&scale=3",
        "pages=3&style=bar&labels=One,Two,Three&direction=ttb&effect=worm&scale=2",
        "pages=5&current=4&style=pill&colors=red,green,blue&fill=outline&shape=rounded&direction=rtl&scale=2",
        "pages=3&style=progress&transition=3000&effect=worm&scale=3",
        "pages=6&current=2&shape=star&fill=outline&stroke=2&effect=fade&scale=2&bg=ffffff",
        "pages=12&current=8&style=fraction&direction=btt&colors=red,green,blue&effect=fade&scale=2",
        "pages=10&current=9&style=fraction&transition=600&scale=2",
    ]

    @Test(arguments: queries)
    func everyFrameDrawnOverTheOneBeforeIsTheFrameDrawnWhole(query: String) throws {
        let spec = try IndicatorQuery.parse(query: (query + "&format=gif")[...]).spec
        let timeline = AnimationTimeline(spec: spec)
        let renderer = RasterRenderer(), wholeRenderer = RasterRenderer()
        let frames = timeline.frames()
        var drawing = timeline.drawing(of: frames[0])
        var image = renderer.render(drawing, scale: spec.scale)
        var partial = 0
        for frame in frames.dropFirst() {
            let next = timeline.drawing(of: frame)
            let changed = try #require(next.changedBounds(since: drawing), "merged frames differ")
            renderer.render(next, scale: spec.scale, over: &image, changed: changed)
            if changed != Rect(x: 0, y: 0, width: next.size.width, height: next.size.height) {
                partial += 1
            }
            let whole = wholeRenderer.render(next, scale: spec.scale)
            #expect(TestImages.largestDifference(image, whole) ?? .max <= 1, "\(frame.moment)")
            drawing = next
        }
        // The point: most frames repaint less than the canvas.
        #expect(partial * 2 >= frames.count - 1 || spec.style == .fraction)
    }

    @Test func identicalDrawingsHaveNoChange() {
        let drawing = IndicatorLayout.drawing(for: IndicatorSpec(pages: 5))
        #expect(drawing.changedBounds(since: drawing) == nil)
    }

    @Test func anotherBackgroundChangesTheWholeCanvas() {
        let drawing = IndicatorLayout.drawing(for: IndicatorSpec(pages: 5))
        var dark = drawing
        dark.background = RGBA(red: 0, green: 0, blue: 0, alpha: 255)
        #expect(dark.changedBounds(since: drawing) == Rect(x: 0, y: 0, width: drawing.size.width, height: drawing.size.height))
    }

    @Test func aMovedItemChangesWhereItWasAndWhereItIs() {
        let black = RGBA(red: 0, green: 0, blue: 0, alpha: 255)
        let square = { (x: Double) in
            DrawItem.fill(Path([.move(Point(x: x, y: 2)), .line(Point(x: x + 4, y: 2)), .line(Point(x: x + 4, y: 6)), .close]), black)
        }
        let still = DrawItem.fill(Path([.move(Point(x: 40, y: 0)), .line(Point(x: 44, y: 4)), .close]), black)
        let before = Drawing(size: Size(width: 50, height: 10), background: .transparent, items: [square(10), still])
        let after = Drawing(size: Size(width: 50, height: 10), background: .transparent, items: [square(20), still])
        #expect(after.changedBounds(since: before) == Rect(x: 10, y: 2, width: 14, height: 4))
        // An item more: its bounds too; a stroke grows by twice its width.
        let stroked = DrawItem.stroke(Path([.move(Point(x: 30, y: 5)), .line(Point(x: 32, y: 5))]), lineWidth: 1, black)
        let more = Drawing(size: before.size, background: .transparent, items: before.items + [stroked])
        #expect(more.changedBounds(since: before) == Rect(x: 28, y: 3, width: 6, height: 4))
    }
}
