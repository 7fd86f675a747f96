import Testing
import PagedotsCore
@testable import PagedotsRender

/// Path data as short as the grammar allows, drawing the same outline.
struct SVGPathDataTests {
    func data(_ elements: [PathElement]) -> String {
        SVGPathData.data(for: Path(elements))
    }

    func p(_ x: Double, _ y: Double) -> Point {
        Point(x: x, y: y)
    }

    @Test func linesAlongAnAxisAreHAndV() {
        #expect(data([.move(p(0, 0)), .line(p(10, 0)), .line(p(10, 5)), .line(p(0, 5)), .close]) == "M0 0H10V5H0z")
    }

    @Test func eachSegmentIsAbsoluteOrRelativeWhicheverIsShorter() {
        #expect(data([.move(p(100.25, 100.25)), .line(p(101.5, 101.75)), .line(p(3, 4))]) == "M100.25 100.25l1.25 1.5L3 4")
    }

    @Test func numbersAreSeparatedOnlyWhereTheyWouldRunTogether() {
        // No space before a minus sign, nor before a point after a number that has one.
        #expect(data([.move(p(0.5, 0.5)), .line(p(1.5, 0.25))]) == "M.5.5l1-.25")
    }

    @Test func aRepeatedCommandIsLeftOut() {
        // After a move, further points are lines.
        #expect(data([.move(p(0, 0)), .line(p(1, 2)), .line(p(3, 5))]) == "M0 0 1 2 3 5")
    }

    @Test func curvesThatMirrorThePreviousControlPointAreS() {
        // The circle as the PNG draws it: four quarter curves, the last three smooth.
        let dot = IndicatorLayout.drawing(for: spec(pages: 1)).items
        guard case .fill(let circle, _)? = dot.first else {
            Issue.record("a dot is a filled path")
            return
        }
        #expect(SVGPathData.data(for: circle) == "M12 8c0 2.21-1.79 4-4 4S4 10.21 4 8 5.79 4 8 4s4 1.79 4 4z")
    }

    @Test func straightCurvesAreLines() {
        #expect(data([.move(p(10, 10)), .curve(p(11, 10), p(12, 10), p(13, 10)), .curve(p(13, 11), p(13, 12), p(14, 14))]) == "M10 10h3c0 1 0 2 1 4")
    }

    @Test func subpathsThatAreOnlyAPointAreLeftOut() {
        #expect(data([.move(p(0, 0)), .line(p(1, 1)), .close, .move(p(5, 5)), .close, .move(p(7, 7))]) == "M0 0 1 1z")
    }

    @Test func coordinatesAreRoundedToHundredthsLikeThePNGs() {
        #expect(data([.move(p(0.004, 1.0051)), .line(p(2.3333, -0.006))]) == "M0 1.01 2.33-.01")
    }
}
