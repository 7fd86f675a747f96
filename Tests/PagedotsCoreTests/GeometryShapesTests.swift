import Testing
@testable import PagedotsCore

/// The outlines of the shapes: inside their box, touching it where they should.
struct GeometryShapesTests {
    let box = Rect(x: 10, y: 20, width: 8, height: 8)

    @Test func everyShapeFillsItsBoxWithoutLeavingIt() {
        for shape in Shape.allCases {
            let bounds = ShapePath.path(for: shape, in: box).bounds
            #expect(bounds.x >= box.x - 1e-9 && bounds.y >= box.y - 1e-9, "\(shape)")
            #expect(bounds.x + bounds.width <= box.x + box.width + 1e-9, "\(shape)")
            #expect(bounds.y + bounds.height <= box.y + box.height + 1e-9, "\(shape)")
            // As wide as the box; only the star is a little shorter than it is wide.
            #expect(abs(bounds.width - box.width) < 1e-9, "\(shape)")
            #expect(bounds.height >= box.height * 0.95, "\(shape)")
        }
    }

    @Test func theStarPointsUpAndIsCentred() {
        let points = ShapePath.polygon(in: box, ShapePath.starPoints).elements.compactMap { element -> Point? in
            if case .move(let p) = element { return p }
            if case .line(let p) = element { return p }
            return nil
        }
        #expect(points.count == 10)
        let top = points.min { $0.y < $1.y }
        #expect(top.map { abs($0.x - box.midX) < 1e-9 } == true)
        let bounds = ShapePath.polygon(in: box, ShapePath.starPoints).bounds
        #expect(abs(bounds.midY - box.midY) < 1e-9)
    }

    @Test func longBoxesTakeEachShapesLongForm() {
        let long = Rect(x: 0, y: 0, width: 24, height: 8)
        // A capsule (circle, star, heart) has straight top and bottom edges between round ends.
        for shape in [Shape.circle, .star, .heart] {
            let path = ShapePath.path(for: shape, in: long)
            #expect(path.bounds == long)
            #expect(path.elements.contains(.line(Point(x: 20, y: 0))), "\(shape)")
        }
        #expect(ShapePath.path(for: .square, in: long).elements.contains(.line(Point(x: 24, y: 8))))
        #expect(ShapePath.path(for: .diamond, in: long).elements.contains(.line(Point(x: 24, y: 4))))
        // Rounded: corners of a quarter of the thickness.
        #expect(ShapePath.path(for: .rounded, in: long).elements.contains(.line(Point(x: 22, y: 0))))
    }

    @Test func aSquareRoundedRectOfFullRadiusIsACircleWithoutStraightEdges() {
        let path = ShapePath.roundedRect(box, radius: 4)
        #expect(path.bounds == box)
        #expect(!path.elements.contains { if case .line = $0 { true } else { false } })
    }

    @Test func ringsAreTheOutlineAndAnInsetOneTracedBackwards() throws {
        let rounded = try #require(ShapePath.ring(for: .rounded, in: Rect(x: 0, y: 0, width: 24, height: 8), width: 1))
        let parts = rounded.subpaths
        #expect(parts.count == 2)
        #expect(parts.map(\.bounds) == [Rect(x: 0, y: 0, width: 24, height: 8), Rect(x: 1, y: 1, width: 22, height: 6)])
        // The inner corner radius is the outer one (8/4) less the width: its top edge starts 1 in from the corner.
        #expect(parts[1].elements.contains(.line(Point(x: 2, y: 1))))
        // A ring as wide as half the shape is the whole shape.
        #expect(ShapePath.ring(for: .square, in: box, width: 4) == ShapePath.path(for: .square, in: box))
        #expect(ShapePath.ring(for: .star, in: box, width: 1) == nil)
        #expect(ShapePath.ring(for: .heart, in: box, width: 1) == nil)
        #expect(ShapePath.ring(for: .star, in: Rect(x: 0, y: 0, width: 16, height: 8), width: 1) != nil, "a star's capsule")
    }

    @Test func aDiamondRingIsEquallyWideOnEverySide() throws {
        let long = Rect(x: 0, y: 0, width: 24, height: 8)
        let ring = try #require(ShapePath.ring(for: .diamond, in: long, width: 1.5))
        let inner = ring.subpaths[1].bounds
        let (a, b) = (12.0, 4.0), (innerA, innerB) = (inner.width / 2, inner.height / 2)
        #expect(inner.midX == 12 && inner.midY == 4)
        #expect(abs(innerA / a - innerB / b) < 1e-12, "the inner diamond has the same proportions")
        // The inner side x/innerA + y/innerB = 1 lies 1.5 from the outer side x/a + y/b = 1.
        let gap = (1 - innerA / a) * a * b / (a * a + b * b).squareRoot()
        #expect(abs(gap - 1.5) < 1e-9)
    }

    @Test func aDiamondRingWhoseSidesMeetIsTheWholeDiamond() {
        // A square diamond's sides meet at the centre at width 8/2/√2 ≈ 2.83, before half of the size.
        let diamond = ShapePath.path(for: .diamond, in: box)
        #expect(ShapePath.ring(for: .diamond, in: box, width: 2.8) != diamond)
        #expect(ShapePath.ring(for: .diamond, in: box, width: 2.9) == diamond)
        #expect(ShapePath.ring(for: .diamond, in: box, width: 3.9) == diamond)
    }

    @Test func reversingAPolygonKeepsItsCornersInTheOtherOrder() {
        let square = ShapePath.path(for: .square, in: box)
        let corners: [PathElement] = [
            .move(Point(x: 10, y: 20)), .line(Point(x: 10, y: 28)), .line(Point(x: 18, y: 28)), .line(Point(x: 18, y: 20)),
            .line(Point(x: 10, y: 20)), .close,
        ]
        #expect(ShapePath.reversed(square).elements == corners)
        #expect(ShapePath.reversed(ShapePath.ellipse(in: box)).bounds == box)
    }
}
