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
}
