import PagedotsCore

/// A path's `d` attribute as short as SVG's grammar allows for the same
/// outline: every coordinate rounded to 1/100 point (as the PNG draws it),
/// then each segment written absolute or relative, whichever is shorter
/// (differences of rounded coordinates are exact), lines along an axis as
/// `H`/`V`, a curve whose first control point mirrors the previous one's
/// last as `S`, a command letter left out where it repeats, and numbers
/// separated only where they would otherwise run together.
struct SVGPathData {
    /// A point in whole hundredths of a point.
    private struct Position: Equatable {
        var x: Int
        var y: Int

        static func - (a: Position, b: Position) -> Position { Position(x: a.x - b.x, y: a.y - b.y) }
    }

    private var text = ""
    /// The last command letter written (or implied), and the last number.
    private var lastCommand: Character?
    private var lastNumber: String?
    private var current = Position(x: 0, y: 0)
    private var subpathStart = Position(x: 0, y: 0)
    /// The second control point of the segment just written, when it was a curve.
    private var lastControl: Position?

    /// The `d` attribute's value for `path`.
    static func data(for path: Path) -> String {
        var data = SVGPathData()
        let elements = path.elements
        var index = 0
        while index < elements.count {
            // A subpath that is only a point (a move, closed or not) draws nothing.
            if case .move = elements[index] {
                var next = index + 1
                if next < elements.count, case .close = elements[next] { next += 1 }
                if next == elements.count || Self.isMove(elements[next]) {
                    index = next
                    continue
                }
            }
            data.add(elements[index])
            index += 1
        }
        return data.text
    }

    private static func isMove(_ element: PathElement) -> Bool {
        if case .move = element { true } else { false }
    }

    private static func position(_ point: Point) -> Position {
        Position(x: SVGNumber.units(point.x), y: SVGNumber.units(point.y))
    }

    private mutating func add(_ element: PathElement) {
        switch element {
        case .move(let point):
            let to = Self.position(point)
            write(choosing: ("M", [to.x, to.y]), ("m", [to.x - current.x, to.y - current.y]))
            current = to
            subpathStart = to
            lastControl = nil
        case .line(let point):
            let to = Self.position(point), delta = to - current
            var candidates: [(Character, [Int])] = []
            if delta.y == 0 { candidates += [("H", [to.x]), ("h", [delta.x])] }
            if delta.x == 0 { candidates += [("V", [to.y]), ("v", [delta.y])] }
            candidates += [("L", [to.x, to.y]), ("l", [delta.x, delta.y])]
            write(choosing: candidates)
            current = to
            lastControl = nil
        case .curve(let c1, let c2, let point):
            let first = Self.position(c1), second = Self.position(c2), to = Self.position(point)
            if Self.isStraight(from: current, first, second, to) {
                add(.line(point))
                return
            }
            let (d1, d2, end) = (first - current, second - current, to - current)
            // S's first control point is the mirror of the last curve's second, or the current point after no curve.
            let mirrored = lastControl.map { Position(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            if first == mirrored {
                write(choosing: ("S", [second.x, second.y, to.x, to.y]), ("s", [d2.x, d2.y, end.x, end.y]))
            } else {
                write(choosing: ("C", [first.x, first.y, second.x, second.y, to.x, to.y]),
                      ("c", [d1.x, d1.y, d2.x, d2.y, end.x, end.y]))
            }
            current = to
            lastControl = second
        case .close:
            text.append("z")
            lastCommand = "z"
            lastNumber = nil
            current = subpathStart
            lastControl = nil
        }
    }

    /// Whether the curve from `start` is a straight line: its control points
    /// on the segment between its ends, so that it traces that segment.
    private static func isStraight(from start: Position, _ c1: Position, _ c2: Position, _ end: Position) -> Bool {
        let segment = end - start
        let length = segment.x * segment.x + segment.y * segment.y
        guard length > 0 else { return false }
        return [c1, c2].allSatisfy { control in
            let offset = control - start
            let along = offset.x * segment.x + offset.y * segment.y
            return offset.x * segment.y == offset.y * segment.x && along >= 0 && along <= length
        }
    }

    private mutating func write(choosing candidates: (Character, [Int])...) {
        write(choosing: candidates)
    }

    /// Writes the shortest of `candidates` (the first of equals), each a
    /// command letter and its numbers in hundredths.
    private mutating func write(choosing candidates: [(Character, [Int])]) {
        var best: (text: String, command: Character, last: String?)?
        for (command, units) in candidates {
            let numbers = units.map { SVGNumber.text(units: $0, decimals: SVGNumber.pathDecimals) }
            // After M (m) the command that repeats unwritten is L (l).
            let implied: Character? = switch lastCommand {
            case "M": "L"
            case "m": "l"
            case "z": nil
            default: lastCommand
            }
            var piece = ""
            var previous: String?
            if command == implied {
                previous = lastNumber
            } else {
                piece.append(command)
            }
            for number in numbers {
                SVGNumber.append(number, after: previous, to: &piece)
                previous = number
            }
            if best.map({ piece.count < $0.text.count }) ?? true {
                best = (piece, command, numbers.last)
            }
        }
        guard let best else { return }
        text += best.text
        lastCommand = best.command
        lastNumber = best.last
    }
}
