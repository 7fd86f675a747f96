import Testing
import PagedotsCore
import TestSupport
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

    @Test(arguments: 0..<20)
    func pathDataReadsBackAsThePathRoundedToHundredths(seed: UInt64) throws {
        // Random paths of moves, lines (some along an axis), curves (some
        // smooth, some straight) and closes, each read back by a reader of
        // SVG's path grammar: the same points, in hundredths.
        var random = SplitMix64(seed: seed)
        func coordinate() -> Double { Double(Int.random(in: -2000...2000, using: &random)) / 100 }
        var elements: [PathElement] = []
        var current = p(0, 0)
        var lastControl: Point?
        for index in 0..<40 {
            let next = p(coordinate(), coordinate())
            switch index == 0 ? 0 : Int.random(in: 0..<7, using: &random) {
            case 0:
                elements.append(.move(next))
                lastControl = nil
                current = next
                continue
            case 1: elements.append(.line(p(next.x, current.y)))
            case 2: elements.append(.line(p(current.x, next.y)))
            case 3: elements.append(.line(next))
            case 4:
                // Smooth: the first control point mirrors the last one.
                let mirrored = lastControl.map { p(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                let second = p(coordinate(), coordinate())
                elements.append(.curve(mirrored, second, next))
                lastControl = second
                current = next
                continue
            case 5: elements.append(.curve(p(coordinate(), coordinate()), p(coordinate(), coordinate()), next))
            default: elements.append(.close)
            }
            lastControl = nil
            if case .curve(_, let second, let end) = elements.last {
                lastControl = second
                current = end
            } else if case .line(let end) = elements.last {
                current = end
            }
        }
        let text = data(elements)
        #expect(try PathReader.points(text) == PathReader.points(of: elements), "\(text)")
    }
}

/// Reads path data back into absolute points in hundredths: every segment's
/// end (and a curve's control points, a smooth curve's mirrored one
/// included), and a marker for each close, so that two spellings of one
/// outline read the same.
enum PathReader {
    struct Failure: Error {}

    /// The points of `elements` as the writer rounds them; a straight curve
    /// reads as a line, and a subpath that is only a move (closed or not) as nothing.
    static func points(of path: [PathElement]) -> [[Int]] {
        func isMove(_ index: Int) -> Bool {
            if index < path.count, case .move = path[index] { true } else { false }
        }
        func isClose(_ index: Int) -> Bool {
            if index < path.count, case .close = path[index] { true } else { false }
        }
        var elements: [PathElement] = []
        var index = 0
        while index < path.count {
            let next = isMove(index) && isClose(index + 1) ? index + 2 : index + 1
            if isMove(index), next == path.count || isMove(next) {
                index = next
                continue
            }
            elements.append(path[index])
            index += 1
        }
        var points: [[Int]] = []
        var start: [Int] = [0, 0], current: [Int] = [0, 0]
        func units(_ point: Point) -> [Int] { [SVGNumber.units(point.x), SVGNumber.units(point.y)] }
        for element in elements {
            switch element {
            case .move(let point):
                current = units(point)
                start = current
                points.append(current)
            case .line(let point):
                current = units(point)
                points.append(current)
            case .curve(let c1, let c2, let point):
                let (a, b, end) = (units(c1), units(c2), units(point))
                // The writer turns a curve whose controls lie on its chord into a line.
                let d = [end[0] - current[0], end[1] - current[1]]
                let onChord = [a, b].allSatisfy { c in
                    let o = [c[0] - current[0], c[1] - current[1]]
                    let along = o[0] * d[0] + o[1] * d[1]
                    return o[0] * d[1] == o[1] * d[0] && along >= 0 && along <= d[0] * d[0] + d[1] * d[1]
                }
                points += onChord && d != [0, 0] ? [end] : [a, b, end]
                current = end
            case .close:
                points.append([Int.min])
                current = start
            }
        }
        return points
    }

    /// The points that `text` spells.
    static func points(_ text: String) throws -> [[Int]] {
        var tokens: [String] = []
        var number = ""
        func flush() {
            if !number.isEmpty { tokens.append(number) }
            number = ""
        }
        for character in text {
            if character.isLetter {
                flush()
                tokens.append(String(character))
            } else if character == " " {
                flush()
            } else if character == "-" {
                flush()
                number = "-"
            } else if character == ".", number.contains(".") {
                flush()
                number = "."
            } else {
                number.append(character)
            }
        }
        flush()
        var points: [[Int]] = []
        var current = [0, 0], start = [0, 0]
        var lastControl: [Int]?
        var command: Character = " "
        var index = 0
        func read() throws -> Int {
            guard index < tokens.count, let value = Double(tokens[index]) else { throw Failure() }
            index += 1
            return Int((value * 100).rounded())
        }
        while index < tokens.count {
            if let letter = tokens[index].first, letter.isLetter {
                command = letter
                index += 1
                if letter == "z" || letter == "Z" {
                    points.append([Int.min])
                    current = start
                    lastControl = nil
                    continue
                }
            } else if command == "M" {
                command = "L"
            } else if command == "m" {
                command = "l"
            }
            let relative = command.isLowercase
            func point() throws -> [Int] {
                let (x, y) = (try read(), try read())
                return relative ? [current[0] + x, current[1] + y] : [x, y]
            }
            switch command.uppercased() {
            case "M":
                current = try point()
                start = current
                points.append(current)
                lastControl = nil
            case "L":
                current = try point()
                points.append(current)
                lastControl = nil
            case "H":
                let x = try read()
                current = [relative ? current[0] + x : x, current[1]]
                points.append(current)
                lastControl = nil
            case "V":
                let y = try read()
                current = [current[0], relative ? current[1] + y : y]
                points.append(current)
                lastControl = nil
            case "C", "S":
                let first = command.uppercased() == "C" ? try point()
                    : lastControl.map { [2 * current[0] - $0[0], 2 * current[1] - $0[1]] } ?? current
                let second = try point(), end = try point()
                points += [first, second, end]
                current = end
                lastControl = second
            default:
                throw Failure()
            }
        }
        return points
    }
}
