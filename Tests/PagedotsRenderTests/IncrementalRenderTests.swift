import Testing
import PagedotsCore
import PagedotsPixels
@testable import PagedotsRender

/// Animation frames drawn over the frame before, repainting only where the
/// drawings differ (`Drawing.changedBounds(since:)`, `AnimationFrames` and
/// `RasterRenderer.render(_:scale:over:changed:)`), come out exactly as the
/// frames drawn whole.
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
        // Past AnimationTimeline.keptDrawingItemLimit: most drawings are made again when drawn.
        "pages=40&current=3&fps=50",
    ]

    @Test(arguments: queries)
    func everyFrameDrawnOverTheOneBeforeIsTheFrameDrawnWhole(query: String) throws {
        let spec = try IndicatorQuery.parse(query: (query + "&format=gif")[...]).spec
        let frames = AnimationFrames(spec: spec, renderer: RasterRenderer())
        let wholeRenderer = RasterRenderer()
        var partial = 0
        for (index, frame) in frames.frames.enumerated() {
            let drawing = frames.drawing(at: index)
            let canvas = Rect(x: 0, y: 0, width: drawing.size.width, height: drawing.size.height)
            // The timeline's box is the drawings' own; the first frame is drawn whole (in regions).
            if index > 0 {
                #expect(frame.changed == (try #require(drawing.changedBounds(since: frames.drawing(at: index - 1)), "merged frames differ")))
            } else {
                #expect(frame.changed == canvas)
            }
            if frame.changed != canvas {
                partial += 1
            }
            let image = RGBAImage(width: frames.width, height: frames.height, pixels: frames.frame(at: index).pixels)
            let whole = wholeRenderer.render(drawing, scale: spec.scale)
            #expect(image == whole, "\(frame.frame.moment): \(TestImages.largestDifference(image, whole) ?? .max)")
        }
        // The point: most frames repaint less than the canvas.
        #expect(partial * 2 >= frames.count - 1 || spec.style == .fraction)
    }

    @Test(arguments: queries)
    func regionsCopiedFromEarlierFramesAreThePixelsDrawnAgain(query: String) throws {
        let spec = try IndicatorQuery.parse(query: (query + "&format=gif")[...]).spec
        let forgetful = RasterRenderer(budget: CacheBudget(allowances: [.regions: 0]))
        let remembered = AnimationFrames(spec: spec, renderer: RasterRenderer())
        let drawnAgain = AnimationFrames(spec: spec, renderer: forgetful)
        for index in 0 ..< remembered.count {
            #expect(remembered.frame(at: index).pixels == drawnAgain.frame(at: index).pixels, "\(remembered.frames[index].frame.moment)")
        }
    }

    /// Every pixel outside a frame's changed box is the frame before's.
    @Test(arguments: queries)
    func aFramesChangedBoxHoldsEveryPixelThatChanged(query: String) throws {
        let spec = try IndicatorQuery.parse(query: (query + "&format=gif")[...]).spec
        let frames = AnimationFrames(spec: spec, renderer: RasterRenderer())
        var before = frames.frame(at: 0).pixels
        #expect(frames.changedBox(at: 0) == nil)
        for index in 1 ..< frames.count {
            let pixels = frames.frame(at: index).pixels
            let box = try #require(frames.changedBox(at: index))
            #expect(frames.changedBox(at: index - 1) == nil, "only the last frame asked for")
            let changedOutside = (0 ..< frames.width * frames.height).first { pixel in
                let (x, y) = (pixel % frames.width, pixel / frames.width)
                let inside = box.x ..< box.x + box.width ~= x && box.y ..< box.y + box.height ~= y
                return !inside && pixels[4 * pixel ..< 4 * pixel + 4] != before[4 * pixel ..< 4 * pixel + 4]
            }
            #expect(changedOutside == nil, "frame \(index): pixel \(changedOutside ?? 0) changed outside \(box)")
            before = pixels
        }
    }

    /// An encoder may ask again on a later pass, or skip frames: each frame
    /// comes out as when every frame is asked for once, in order.
    @Test func framesAskedInAnyOrderAreTheFramesAskedInOrder() throws {
        let spec = try IndicatorQuery.parse(query: "pages=5&current=0&style=pill&scale=2&format=gif"[...]).spec
        let inOrder = AnimationFrames(spec: spec, renderer: RasterRenderer())
        let ordered = (0 ..< inOrder.count).map { inOrder.frame(at: $0) }
        let asked = AnimationFrames(spec: spec, renderer: RasterRenderer())
        #expect(asked.count == 36)
        for index in [0, 0, 5, 5, 6, 30, 2, 35, 34, 0, 20, 21] {
            let frame = asked.frame(at: index)
            #expect(frame.pixels == ordered[index].pixels && frame.delayMilliseconds == ordered[index].delayMilliseconds, "frame \(index)")
        }
    }

    /// A drawing drawn in regions, a second time from regions remembered
    /// (dots copied elsewhere, a dot cut by the canvas's edge, text, a
    /// translucent background), is the drawing drawn whole, and so is the
    /// drawing drawn whole next on the same canvas.
    @Test func aDrawingDrawnInRegionsIsTheDrawingDrawnWhole() throws {
        var drawings = try ["pages=5&style=pill", "pages=6&current=2&size=7.25&spacing=5.5&shape=heart"].map { query in
            IndicatorLayout.drawing(for: try IndicatorQuery.parse(query: query[...]).spec)
        }
        var cut = drawings[0]
        cut.size.width -= 6
        var titled = drawings[1]
        titled.background = RGBA(red: 255, green: 255, blue: 255, alpha: 128)
        titled.items.append(.text(TextRun(text: "7", box: Rect(x: 0, y: 0, width: 10, height: 12), fontSize: 9, weight: .semibold, color: RGBA(red: 0, green: 0, blue: 0, alpha: 255))))
        drawings += [cut, titled]
        let renderer = RasterRenderer()
        for scale in [1, 2, 3] {
            for drawing in drawings {
                let whole = RasterRenderer().render(drawing, scale: scale)
                #expect(renderer.renderInRegions(drawing, scale: scale) == whole)
                #expect(renderer.renderInRegions(drawing, scale: scale) == whole, "remembered")
                // The canvas the regions were drawn on is not taken for clear.
                #expect(renderer.render(drawing, scale: scale) == whole, "whole after regions")
            }
        }
    }

    /// An item drawn over others remembered (a capsule over dots drawn
    /// before, alone or under another capsule: copied, not drawn again) is
    /// drawn over the same pixels: the drawing comes out as drawn whole.
    @Test func anItemOverRegionsRememberedIsDrawnAsOverTheItemsDrawn() throws {
        let still = IndicatorLayout.drawing(for: try IndicatorQuery.parse(query: "pages=5&style=pill&color=FF0000C0"[...]).spec)
        // The capsule first, then the dots, each a path of points.
        let capsule = still.items[0], dots = Array(still.items.dropFirst())
        func moved(_ item: DrawItem, by offset: Double) -> DrawItem {
            guard case .fill(let path, let color) = item else { return item }
            return .fill(Path(path.elements.map { element in
                func move(_ point: Point) -> Point { Point(x: point.x + offset, y: point.y) }
                switch element {
                case .move(let p): return .move(move(p))
                case .line(let p): return .line(move(p))
                case .curve(let c1, let c2, let p): return .curve(move(c1), move(c2), move(p))
                case .close: return .close
                }
            }), color)
        }
        // The dots remembered at rest, then the capsule over one, over two, over one again elsewhere.
        var drawings = [Drawing(size: still.size, background: still.background, items: dots + [capsule])]
        for offset in [22.37, 32.5, 54.37] {
            drawings.append(Drawing(size: still.size, background: still.background, items: dots + [moved(capsule, by: offset)]))
        }
        let renderer = RasterRenderer()
        for scale in [1, 2, 3] {
            for drawing in drawings {
                #expect(renderer.renderInRegions(drawing, scale: scale) == renderer.render(drawing, scale: scale))
            }
        }
    }

    /// Items whose pixels cannot meet are drawn apart; an item that meets
    /// two groups joins them, and a group that grows to meet another takes it in.
    @Test func itemsAreGroupedByThePixelsTheyCanTouch() {
        let bounds: [Rect?] = [
            Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 10, y: 0, width: 4, height: 4), Rect(x: 20, y: 0, width: 4, height: 4),
            Rect(x: 3, y: 1, width: 8, height: 2), Rect(x: 30, y: 0, width: 4, height: 4), nil,
        ]
        let box = (x: 0, y: 0, width: 100, height: 10)
        // The groups, in no particular order: by their first item.
        func groups(_ indices: [Int]) -> [[Int]] {
            RasterRenderer.groups(of: indices, bounds: bounds, box: box, scale: 2, width: 100, height: 10).map(\.items).sorted { $0[0] < $1[0] }
        }
        // At 2x with a pixel of margin: 0 is pixels 0 to 9 (the canvas starts at 0), 1 is 19 to 29, 2 is 39 to 49.
        #expect(groups([0, 1, 2]) == [[0], [1], [2]])
        #expect(RasterRenderer.groups(of: [1], bounds: bounds, box: box, scale: 2, width: 100, height: 10).map(\.box.x) == [19])
        // 3 spans 0 and 1.
        #expect(groups([0, 1, 2, 3, 4]) == [[0, 1, 3], [2], [4]])
        // An item of unknown bounds takes the whole box.
        #expect(groups([0, 2, 5]) == [[0, 2, 5]])
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
