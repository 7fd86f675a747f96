import Testing
@testable import PagedotsCore

/// The geometry of docs/styles.md, exactly: sizes and indicator positions of `dots` and
/// `pill` in every direction.
struct LayoutDotsTests {
    /// The spec's default colours and lengths (s 8, g 8, p 4) unless changed.
    static func spec(pages: Int, current: Int = 0, style: Style = .dots, direction: Direction = .ltr,
                     size: Double = 8, spacing: Double = 8, padding: Double = 4, scale: Int = 1) -> IndicatorSpec {
        var spec = IndicatorSpec(pages: pages)
        spec.current = current
        spec.style = style
        spec.direction = direction
        spec.size = size
        spec.spacing = spacing
        spec.padding = padding
        spec.scale = scale
        return spec
    }

    @Test func fittedSizesFollowTheSpecFormulas() {
        // dots: 2p + n·s + (n−1)·g by 2p + s; pill adds s.
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 5)) == Size(width: 80, height: 16))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 5, style: .pill)) == Size(width: 88, height: 16))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 1)) == Size(width: 16, height: 16))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 3, size: 7, spacing: 5, padding: 0)) == Size(width: 31, height: 7))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 1000, size: 2, spacing: 0, padding: 0)) == Size(width: 2000, height: 2))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 5, style: .pill, direction: .ttb)) == Size(width: 16, height: 88))
        #expect(IndicatorLayout.fittedSize(of: Self.spec(pages: 5, direction: .btt)) == Size(width: 16, height: 80))
    }

    @Test(arguments: Direction.allCases, [1, 2, 3])
    func dotCentresFollowTheSpecInEveryDirection(direction: Direction, scale: Int) {
        let (n, s, g, p) = (6, 10.0, 6.0, 3.0)
        let spec = Self.spec(pages: n, current: 4, direction: direction, size: s, spacing: g, padding: p, scale: scale)
        let drawing = IndicatorLayout.drawing(for: spec)
        let marks = drawing.marks
        let length = 2 * p + Double(n) * s + Double(n - 1) * g
        #expect(marks.count == n)
        for (i, mark) in marks.enumerated() {
            let along = p + s / 2 + Double(i) * (s + g)
            let expected = Self.place(along: along, across: p + s / 2, length: length, direction: direction)
            #expect(mark.bounds.midX == expected.x && mark.bounds.midY == expected.y, "dot \(i)")
            #expect(mark.bounds.width == s && mark.bounds.height == s)
            #expect(mark.color == (i == 4 ? spec.color : spec.inactive))
        }
    }

    @Test(arguments: Direction.allCases)
    func pillCapsuleIsTwiceAsLongAndShiftsTheRest(direction: Direction) {
        let (n, s, g, p) = (5, 8.0, 8.0, 4.0)
        let spec = Self.spec(pages: n, current: 2, style: .pill, direction: direction)
        let marks = IndicatorLayout.drawing(for: spec).marks
        let length = 2 * p + Double(n + 1) * s + Double(n - 1) * g
        #expect(marks.count == n)
        for (i, mark) in marks.enumerated() {
            let isCapsule = i == 2
            let along = p + s / 2 + Double(i) * (s + g) + (i > 2 ? s : 0) + (isCapsule ? s / 2 : 0)
            let expected = Self.place(along: along, across: p + s / 2, length: length, direction: direction)
            #expect(mark.bounds.midX == expected.x && mark.bounds.midY == expected.y, "indicator \(i)")
            let long = isCapsule ? 2 * s : s
            let expectedSize = direction.isVertical ? Size(width: s, height: long) : Size(width: long, height: s)
            #expect(Size(width: mark.bounds.width, height: mark.bounds.height) == expectedSize)
        }
    }

    @Test func defaultDotsFallOnWholePoints() {
        for style in [Style.dots, .pill] {
            for mark in IndicatorLayout.drawing(for: Self.spec(pages: 5, current: 1, style: style)).marks {
                let edges = [mark.bounds.x, mark.bounds.y, mark.bounds.width, mark.bounds.height]
                #expect(edges.allSatisfy { $0 == $0.rounded() }, "\(mark.bounds)")
            }
        }
    }

    @Test func fixedCanvasCentresTheIndicatorOnWholePixels() {
        var spec = Self.spec(pages: 5)
        spec.width = 100
        spec.height = 30
        var drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.size == Size(width: 100, height: 30))
        #expect(drawing.marks[0].bounds.x == 14 && drawing.marks[0].bounds.y == 11)
        // 1 point left over: at 1x the odd pixel goes right, at 2x it splits evenly.
        spec.width = 81
        spec.height = 16
        drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.marks[0].bounds.x == 4)
        spec.scale = 2
        drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.marks[0].bounds.x == 4.5)
    }

    @Test func fixedCanvasIsTheFinalSizeAfterDirection() {
        var spec = Self.spec(pages: 3, direction: .ttb)
        spec.width = 20
        spec.height = 60
        let drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.size == Size(width: 20, height: 60))
        // Fitted 16 × 48, centred: 2 points to the left, 6 above.
        #expect(drawing.marks[0].bounds == Rect(x: 6, y: 10, width: 8, height: 8))
    }

    @Test func backgroundAndColoursComeFromTheSpec() {
        var spec = Self.spec(pages: 3, current: 1)
        spec.color = RGBA(red: 255, green: 0, blue: 0)
        spec.inactive = RGBA(red: 0, green: 128, blue: 0, alpha: 200)
        spec.background = RGBA(red: 1, green: 2, blue: 3)
        let drawing = IndicatorLayout.drawing(for: spec)
        #expect(drawing.background == spec.background)
        #expect(drawing.marks.map(\.color) == [spec.inactive, spec.color, spec.inactive])
    }

    /// Where a point of the `ltr` row lands after `direction`.
    static func place(along: Double, across: Double, length: Double, direction: Direction) -> Point {
        switch direction {
        case .ltr: Point(x: along, y: across)
        case .rtl: Point(x: length - along, y: across)
        case .ttb: Point(x: across, y: along)
        case .btt: Point(x: across, y: length - along)
        }
    }
}

// MARK: - Reading drawings back

/// One painted thing of a drawing, as the tests see it.
struct Mark: Equatable {
    enum Kind: Equatable { case filled, ring(lineWidth: Double), text(String, FontWeight, fontSize: Double) }
    var bounds: Rect
    var color: RGBA
    var kind: Kind
}

extension Path {
    /// The box around every point and control point: exact for these
    /// shapes, whose control points never leave the outline's box.
    var bounds: Rect {
        var points: [Point] = []
        for element in elements {
            switch element {
            case .move(let p), .line(let p): points.append(p)
            case .curve(let c1, let c2, let p): points += [c1, c2, p]
            case .close: break
            }
        }
        let xs = points.map(\.x), ys = points.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}

extension Path {
    /// The path split at each move.
    var subpaths: [Path] {
        var result: [Path] = []
        for element in elements {
            if case .move = element { result.append(Path()) }
            if result.isEmpty { result.append(Path()) }
            result[result.count - 1].elements.append(element)
        }
        return result
    }
}

extension Drawing {
    /// The indicators, lines and titles in painting order; a clipped fill
    /// (progress) is reported as a fill of its clipped part.
    var marks: [Mark] {
        items.flatMap(\.marks)
    }
}

extension DrawItem {
    var marks: [Mark] {
        switch self {
        case .fill(let path, let color):
            return [Mark(bounds: path.bounds, color: color, kind: .filled)]
        case .stroke(let path, let lineWidth, let color):
            return [Mark(bounds: path.bounds, color: color, kind: .ring(lineWidth: lineWidth))]
        case .clipped(let clip, let items):
            return items.flatMap(\.marks).map { inner in
                var mark = inner
                let box = clip.bounds
                let minX = max(box.x, inner.bounds.x), minY = max(box.y, inner.bounds.y)
                let maxX = min(box.x + box.width, inner.bounds.x + inner.bounds.width)
                let maxY = min(box.y + box.height, inner.bounds.y + inner.bounds.height)
                mark.bounds = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
                return mark
            }
        case .text(let run):
            return [Mark(bounds: run.box, color: run.color, kind: .text(run.text, run.weight, fontSize: run.fontSize))]
        }
    }
}
