import PagedotsCore

/// A path's `d` attribute as short as SVG's grammar allows for the same
/// outline: every coordinate rounded to 1/100 point (as the PNG draws it),
/// then each segment written absolute or relative (differences of rounded
/// coordinates are exact), lines along an axis as `H`/`V`, a curve whose
/// first control point mirrors the previous one's last as `S`, straight
/// curves as lines, a command letter left out where it repeats, and numbers
/// separated only where they would otherwise run together. Which form each
/// segment takes is chosen for the shortest whole: a form that costs a byte
/// more can let the next segments leave out their command letters.
struct SVGPathData {
    /// A point in whole hundredths of a point.
    private struct Position: Equatable {
        var x: Int
        var y: Int

        static func - (a: Position, b: Position) -> Position { Position(x: a.x - b.x, y: a.y - b.y) }
    }

    /// One way to write a segment: a command letter and its numbers.
    private struct Form {
        var command: Character
        var numbers: [String]

        init(_ command: Character, _ units: [Int]) {
            self.command = command
            numbers = units.map { SVGNumber.text(units: $0, decimals: SVGNumber.pathDecimals) }
        }
    }

    /// The ways to write each segment, in order.
    private var steps: [[Form]] = []
    private var current = Position(x: 0, y: 0)
    private var subpathStart = Position(x: 0, y: 0)
    /// The second control point of the segment just added, when it was a curve.
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
        return data.shortestText()
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
            steps.append([Form("M", [to.x, to.y]), Form("m", [to.x - current.x, to.y - current.y])])
            current = to
            subpathStart = to
            lastControl = nil
        case .line(let point):
            let to = Self.position(point), delta = to - current
            var forms: [Form] = []
            if delta.y == 0 { forms += [Form("H", [to.x]), Form("h", [delta.x])] }
            if delta.x == 0 { forms += [Form("V", [to.y]), Form("v", [delta.y])] }
            forms += [Form("L", [to.x, to.y]), Form("l", [delta.x, delta.y])]
            steps.append(forms)
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
                steps.append([Form("S", [second.x, second.y, to.x, to.y]), Form("s", [d2.x, d2.y, end.x, end.y])])
            } else {
                steps.append([Form("C", [first.x, first.y, second.x, second.y, to.x, to.y]),
                              Form("c", [d1.x, d1.y, d2.x, d2.y, end.x, end.y])])
            }
            current = to
            lastControl = second
        case .close:
            steps.append([Form("z", [])])
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

    /// What the text written so far leaves for the next segment: the command
    /// that repeats if its letter is left out, and whether the last number
    /// has a point (then a number starting with a point needs no separator).
    private struct Tail: Equatable {
        var command: Character?
        var numberHasPoint: Bool?

        /// The command a segment may leave its letter out for: after M (m) it is L (l); none after z.
        var repeating: Character? {
            switch command {
            case "M": "L"
            case "m": "l"
            case "z": nil
            default: command
            }
        }
    }

    /// `form` written after `tail`, and the tail it leaves.
    private static func write(_ form: Form, after tail: Tail) -> (text: String, tail: Tail) {
        var text = ""
        var previous: String?
        if form.command == tail.repeating, !form.numbers.isEmpty {
            // Only whether it has a point matters to the separator.
            previous = tail.numberHasPoint.map { $0 ? "." : "0" }
        } else {
            text.append(form.command)
        }
        for number in form.numbers {
            SVGNumber.append(number, after: previous, to: &text)
            previous = number
        }
        return (text, Tail(command: form.command, numberHasPoint: form.numbers.last.map { $0.contains(".") }))
    }

    /// The shortest text for the steps: for each step and each tail it can
    /// leave, the cheapest way to get there (the first of equals), then the
    /// cheapest at the end, traced back.
    private func shortestText() -> String {
        struct Best {
            var tail: Tail
            var bytes: Int
            var from: Int
            var text: String
        }
        var layers: [[Best]] = [[Best(tail: Tail(), bytes: 0, from: 0, text: "")]]
        for forms in steps {
            var layer: [Best] = []
            for (from, best) in layers[layers.count - 1].enumerated() {
                for form in forms {
                    let (text, tail) = Self.write(form, after: best.tail)
                    let candidate = Best(tail: tail, bytes: best.bytes + text.count, from: from, text: text)
                    if let index = layer.firstIndex(where: { $0.tail == tail }) {
                        if candidate.bytes < layer[index].bytes { layer[index] = candidate }
                    } else {
                        layer.append(candidate)
                    }
                }
            }
            layers.append(layer)
        }
        let last = layers[layers.count - 1]
        guard var index = last.indices.min(by: { last[$0].bytes < last[$1].bytes }) else { return "" }
        var pieces: [String] = []
        for layer in layers.dropFirst().reversed() {
            pieces.append(layer[index].text)
            index = layer[index].from
        }
        return pieces.reversed().joined()
    }
}
