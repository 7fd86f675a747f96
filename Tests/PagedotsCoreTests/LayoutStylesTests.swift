import Testing
@testable import PagedotsCore

/// The geometry that docs/styles.md gives for outline, scroll, progress and bar.
struct LayoutStylesTests {
    @Test func outlineRingsLieInsideTheDotsWithoutChangingTheSize() {
        // The common "filled capsule, hollow rings" look.
        var spec = LayoutDotsTests.spec(pages: 4, current: 1, style: .pill, size: 7, spacing: 5)
        spec.fill = .outline
        let drawing = IndicatorLayout.drawing(for: spec)
        var solid = spec
        solid.fill = .solid
        #expect(drawing.size == IndicatorLayout.drawing(for: solid).size)
        let marks = drawing.marks
        #expect(marks.map(\.color) == [spec.inactive, spec.color, spec.inactive, spec.inactive])
        #expect(marks[1].bounds == Rect(x: 16, y: 4, width: 14, height: 7))
        #expect(roughly(marks.map(\.bounds.width), [7, 14, 7, 7]))
        // Rings 5 points apart, edge to edge.
        #expect(marks[3].bounds.x - (marks[2].bounds.x + marks[2].bounds.width) == 5)
        // A ring is the dot's outline and, inside it, one `stroke` smaller.
        guard case .fill(let ring, _) = drawing.items[0] else {
            Issue.record("a round ring is a filled path")
            return
        }
        #expect(ring.subpaths.map(\.bounds) == [Rect(x: 4, y: 4, width: 7, height: 7), Rect(x: 5, y: 5, width: 5, height: 5)])
    }

    @Test func starAndHeartRingsAreStrokesClippedToTheShape() {
        for shape in [Shape.star, .heart] {
            var spec = LayoutDotsTests.spec(pages: 2, current: 1, size: 12)
            spec.shape = shape
            spec.fill = .outline
            spec.stroke = 1.5
            let drawing = IndicatorLayout.drawing(for: spec)
            // The line is centred on the outline and clipped to it: all of its `stroke` width lies inside.
            guard case .clipped(let clip, let inner) = drawing.items[0], case .stroke(let line, 3, spec.inactive) = inner.first else {
                Issue.record("\(shape): an outline star or heart is a clipped stroke")
                continue
            }
            #expect(clip == line)
            #expect(abs(clip.bounds.width - 12) < 1e-9)
        }
    }

    @Test func scrollShowsAWindowThatKeepsTheCurrentDotCentred() {
        var spec = LayoutDotsTests.spec(pages: 20, current: 10, style: .scroll)
        let sizes = Set([20, 200, 1000].map { pages in
            spec.pages = pages
            return IndicatorLayout.fittedSize(of: spec)
        })
        // 7 visible dots whatever the number of pages: 2·4 + 7·8 + 6·8.
        #expect(sizes == [Size(width: 112, height: 16)])
        spec.pages = 20
        let marks = IndicatorLayout.drawing(for: spec).marks
        #expect(marks.count == 7)
        #expect(marks[3].color == spec.color)
        // Pages lie beyond both edges: ⅓ then ⅔ of the size at each end.
        let (small, medium) = (8.0 / 3, 16.0 / 3)
        #expect(roughly(marks.map(\.bounds.width), [small, medium, 8, 8, 8, medium, small]))
        // Shrunk dots stay centred in their slots.
        let centres: [Double] = [8, 24, 40, 56, 72, 88, 104]
        #expect(marks.map(\.bounds.midX) == centres)
        #expect(marks.allSatisfy { $0.bounds.midY == 8 })
    }

    @Test func scrollStopsSlidingAtTheEndsAndDoesNotShrinkThere() {
        var spec = LayoutDotsTests.spec(pages: 20, current: 1, style: .scroll)
        let (small, medium) = (8.0 / 3, 16.0 / 3)
        var marks = IndicatorLayout.drawing(for: spec).marks
        #expect(marks.map(\.color) == [spec.inactive, spec.color] + Array(repeating: spec.inactive, count: 5))
        #expect(roughly(marks.map(\.bounds.width), [8, 8, 8, 8, 8, medium, small]))
        spec.current = 19
        marks = IndicatorLayout.drawing(for: spec).marks
        #expect(marks.last?.color == spec.color)
        #expect(roughly(marks.map(\.bounds.width), [small, medium, 8, 8, 8, 8, 8]))
    }

    @Test func scrollWithFewPagesIsAPlainRow() {
        var spec = LayoutDotsTests.spec(pages: 4, current: 3, style: .scroll)
        spec.visible = 9
        #expect(IndicatorLayout.fittedSize(of: spec) == Size(width: 64, height: 16))
        #expect(IndicatorLayout.drawing(for: spec).marks.allSatisfy { $0.bounds.width == 8 })
        spec.visible = 3
        spec.pages = 10
        spec.current = 5
        let marks = IndicatorLayout.drawing(for: spec).marks
        let small = 8.0 / 3
        #expect(roughly(marks.map(\.bounds.width), [small, 8, small]))
    }

    @Test(arguments: Direction.allCases)
    func progressFillsTheTrackFromItsStart(direction: Direction) {
        var spec = LayoutDotsTests.spec(pages: 3, current: 1, style: .progress, direction: direction)
        spec.progress = 0.25
        // The track is 3·size long: 2p + (n+2)·s + (n−1)·g.
        let fitted = IndicatorLayout.fittedSize(of: spec)
        #expect(max(fitted.width, fitted.height) == 8 + 5 * 8 + 2 * 8)
        let marks = IndicatorLayout.drawing(for: spec).marks
        #expect(marks.count == 4)
        let track = marks[1], filled = marks[2]
        #expect(track.color == spec.inactive && filled.color == spec.color)
        let along: (Rect) -> Double = { direction.isVertical ? $0.height : $0.width }
        #expect(along(track.bounds) == 24 && along(filled.bounds) == 6)
        let (t, f) = (track.bounds, filled.bounds)
        switch direction {
        case .ltr: #expect(f.x == t.x)
        case .rtl: #expect(f.x + f.width == t.x + t.width)
        case .ttb: #expect(f.y == t.y)
        case .btt: #expect(f.y + f.height == t.y + t.height)
        }
    }

    @Test func progressAtZeroDrawsOnlyTheTrack() {
        var spec = LayoutDotsTests.spec(pages: 2, style: .progress)
        spec.progress = 0
        #expect(IndicatorLayout.drawing(for: spec).marks.map(\.color) == [spec.inactive, spec.inactive])
    }

    @Test func barWithoutLabelsIsATrackAndAThickerLine() {
        let spec = LayoutDotsTests.spec(pages: 4, current: 2, style: .bar)
        // Segments 8·s long; line s/4 thick under the current one, track s/8.
        #expect(IndicatorLayout.fittedSize(of: spec) == Size(width: 8 + 4 * 64 + 3 * 8, height: 8 + 2))
        let marks = IndicatorLayout.drawing(for: spec).marks
        #expect(marks.count == 2)
        #expect(marks[0] == Mark(bounds: Rect(x: 4, y: 5, width: 280, height: 1), color: spec.inactive, kind: .filled))
        #expect(marks[1] == Mark(bounds: Rect(x: 4 + 2 * 72, y: 4, width: 64, height: 2), color: spec.color, kind: .filled))
    }

    @Test func barTitlesSitAboveTheLineInTheirSegments() {
        var spec = LayoutDotsTests.spec(pages: 3, current: 1, style: .bar)
        spec.labels = ["Home", "Search", "Profile"]
        // Titles 2·s tall, a gap of twice the line, the line.
        #expect(IndicatorLayout.fittedSize(of: spec) == Size(width: 8 + 3 * 64 + 2 * 8, height: 8 + 16 + 4 + 2))
        let marks = IndicatorLayout.drawing(for: spec).marks
        let titles = marks.filter { if case .text = $0.kind { true } else { false } }
        #expect(titles.map(\.kind) == [
            .text("Home", .regular, fontSize: 12), .text("Search", .semibold, fontSize: 12), .text("Profile", .regular, fontSize: 12),
        ])
        #expect(titles.map(\.bounds) == (0..<3).map { Rect(x: 4 + Double($0) * 72, y: 4, width: 64, height: 16) })
        // The others are readable: the inactive colour at full opacity.
        var readable = spec.inactive
        readable.alpha = 255
        #expect(titles.map(\.color) == [readable, spec.color, readable])
        #expect(marks[1].bounds == Rect(x: 76, y: 24, width: 64, height: 2))
    }

    @Test(arguments: [Direction.ttb, .btt])
    func barColumnPutsTheLineLeftAndTitlesBesideIt(direction: Direction) {
        var spec = LayoutDotsTests.spec(pages: 3, current: 0, style: .bar, direction: direction)
        spec.labels = ["A", "B", "C"]
        // Rows 3·s tall; line, gap, then an 8·s wide title box.
        #expect(IndicatorLayout.fittedSize(of: spec) == Size(width: 8 + 2 + 4 + 64, height: 8 + 3 * 24 + 2 * 8))
        let marks = IndicatorLayout.drawing(for: spec).marks
        let firstRowY = direction == .ttb ? 4.0 : 4 + 2 * 32
        #expect(marks[1].bounds == Rect(x: 4, y: firstRowY, width: 2, height: 24))
        #expect(marks[2].bounds == Rect(x: 10, y: firstRowY, width: 64, height: 24))
    }

    @Test func shapesFitTheirBoxesAndStayUpright() {
        for shape in Shape.allCases {
            for direction in Direction.allCases {
                var spec = LayoutDotsTests.spec(pages: 3, current: 1, style: .pill, direction: direction, size: 12)
                spec.shape = shape
                let drawing = IndicatorLayout.drawing(for: spec)
                for mark in drawing.marks {
                    #expect(mark.bounds.x >= 4 && mark.bounds.y >= 4, "\(shape) \(direction)")
                    #expect(mark.bounds.x + mark.bounds.width <= drawing.size.width - 4 + 1e-9)
                    #expect(mark.bounds.y + mark.bounds.height <= drawing.size.height - 4 + 1e-9)
                }
                // The inactive dots are the same upright shape in every direction.
                var ltr = spec
                ltr.direction = .ltr
                let inactive = drawing.items[0], ltrInactive = IndicatorLayout.drawing(for: ltr).items[0]
                #expect(inactive.outlineCoordinates.count == ltrInactive.outlineCoordinates.count)
                let difference = zip(inactive.outlineCoordinates, ltrInactive.outlineCoordinates).map { abs($0 - $1) }.max() ?? 0
                #expect(difference < 1e-9, "\(shape) \(direction)")
            }
        }
    }
}

/// Whether two lists of lengths agree to within rounding error.
func roughly(_ lengths: [Double], _ expected: [Double]) -> Bool {
    lengths.count == expected.count && zip(lengths, expected).allSatisfy { abs($0 - $1) < 1e-9 }
}

extension DrawItem {
    /// The coordinates of a filled outline, relative to its box's corner.
    var outlineCoordinates: [Double] {
        guard case .fill(let path, _) = self else { return [] }
        let box = path.bounds
        return path.elements.flatMap { element -> [Point] in
            switch element {
            case .move(let p), .line(let p): [p]
            case .curve(let c1, let c2, let p): [c1, c2, p]
            case .close: []
            }
        }.flatMap { [$0.x - box.x, $0.y - box.y] }
    }
}
