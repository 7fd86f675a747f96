/// The outlines of the indicator shapes, in the canvas's coordinates.
///
/// A shape is always built upright in its final box: `direction` moves and
/// stretches the boxes, it never rotates a star or a heart.
enum ShapePath {
    /// The Bézier constant for a quarter circle.
    static let kappa = 0.5522847498307936

    /// `shape` filling `rect`. In a square box it is the plain shape. A
    /// longer box (the pill's capsule, the progress track) takes the shape's
    /// long form: a capsule for circle (and for star and heart, which do not
    /// stretch well), a rectangle with corners of ¼ its thickness for
    /// rounded, a rectangle for square, a long diamond for diamond.
    static func path(for shape: Shape, in rect: Rect) -> Path {
        let short = min(rect.width, rect.height)
        let isSquare = rect.width == rect.height
        switch shape {
        case .circle:
            return isSquare ? ellipse(in: rect) : roundedRect(rect, radius: short / 2)
        case .rounded:
            return roundedRect(rect, radius: short / 4)
        case .square:
            var square = polygon(in: rect, [(0, 0), (1, 0), (1, 1), (0, 1)])
            square.primitive = .roundedRect(rect, radius: 0)
            return square
        case .diamond:
            return polygon(in: rect, [(0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5)])
        case .star:
            return isSquare ? polygon(in: rect, starPoints) : roundedRect(rect, radius: short / 2)
        case .heart:
            return isSquare ? heart(in: rect) : roundedRect(rect, radius: short / 2)
        }
    }

    /// The ring between `shape`'s outline in `rect` and the same outline
    /// moved `width` inwards: one path, the inner outline running the other
    /// way, so that a non-zero fill leaves the middle empty. The whole shape
    /// when the ring would fill it; nil for the star and the heart, whose
    /// inner outline is no simple shape (draw those as a clipped stroke).
    /// Where the outline is a circle or a rounded rectangle, the inner one is
    /// exactly the outline moved `width` inwards (the corner radius less
    /// `width`, square once that is spent), so the path remembers it is a
    /// `PathPrimitive.ring`; a diamond's ring does not.
    static func ring(for shape: Shape, in rect: Rect, width: Double) -> Path? {
        let short = min(rect.width, rect.height)
        let outline = path(for: shape, in: rect)
        guard 2 * width < short else { return outline }
        let isSquare = rect.width == rect.height
        let inner: Path
        switch shape {
        case .circle, .star, .heart:
            if isSquare, shape != .circle { return nil }
            let insetRect = rect.insetBy(width)
            inner = isSquare ? ellipse(in: insetRect) : roundedRect(insetRect, radius: short / 2 - width)
        case .rounded:
            inner = roundedRect(rect.insetBy(width), radius: max(short / 4 - width, 0))
        case .square:
            inner = path(for: .square, in: rect.insetBy(width))
        case .diamond:
            // Each side moves `width` along its normal: the half-diagonals
            // shrink by `width` times the side's length over the other half-diagonal.
            let (a, b) = (rect.width / 2, rect.height / 2)
            let side = (a * a + b * b).squareRoot()
            let (innerA, innerB) = (a - width * side / b, b - width * side / a)
            // Sides moved past the centre leave no hole: the ring is the whole diamond.
            guard innerA > 0, innerB > 0 else { return outline }
            inner = path(for: .diamond, in: Rect(x: rect.midX - innerA, y: rect.midY - innerB, width: 2 * innerA, height: 2 * innerB))
        }
        return Path(outline.elements + reversed(inner).elements, primitive: outline.primitive.map { .ring($0, width: width) })
    }

    /// A closed outline (one subpath) traced the other way round.
    static func reversed(_ path: Path) -> Path {
        var start = Point(x: 0, y: 0), current = start
        var segments: [(from: Point, element: PathElement)] = []
        for element in path.elements {
            switch element {
            case .move(let point):
                start = point
                current = point
            case .line(let point), .curve(_, _, let point):
                segments.append((current, element))
                current = point
            case .close:
                break
            }
        }
        var elements: [PathElement] = [.move(start)]
        if current != start { elements.append(.line(current)) }
        for (from, element) in segments.reversed() {
            if case .curve(let c1, let c2, _) = element {
                elements.append(.curve(c2, c1, from))
            } else {
                elements.append(.line(from))
            }
        }
        elements.append(.close)
        return Path(elements)
    }

    /// An ellipse inscribed in `rect`, as four cubic Béziers, clockwise from the right.
    static func ellipse(in rect: Rect) -> Path {
        let rx = rect.width / 2, ry = rect.height / 2
        let cx = rect.midX, cy = rect.midY
        let ox = rx * kappa, oy = ry * kappa
        return Path([
            .move(Point(x: cx + rx, y: cy)),
            .curve(Point(x: cx + rx, y: cy + oy), Point(x: cx + ox, y: cy + ry), Point(x: cx, y: cy + ry)),
            .curve(Point(x: cx - ox, y: cy + ry), Point(x: cx - rx, y: cy + oy), Point(x: cx - rx, y: cy)),
            .curve(Point(x: cx - rx, y: cy - oy), Point(x: cx - ox, y: cy - ry), Point(x: cx, y: cy - ry)),
            .curve(Point(x: cx + ox, y: cy - ry), Point(x: cx + rx, y: cy - oy), Point(x: cx + rx, y: cy)),
            .close,
        ], primitive: .ellipse(rect))
    }

    /// A rectangle with quarter-circle corners of `radius` (at most half the
    /// short side), clockwise from the top edge; a full-radius one is a capsule.
    static func roundedRect(_ rect: Rect, radius: Double) -> Path {
        let r = min(radius, rect.width / 2, rect.height / 2)
        let (left, top, right, bottom) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        let o = r * (1 - kappa)
        var elements: [PathElement] = []
        // A move, four edges, four corners and a close: room made once (an animation builds many).
        elements.reserveCapacity(10)
        elements.append(.move(Point(x: left + r, y: top)))
        var current = Point(x: left + r, y: top)
        /// A straight edge to `start` (left out when it has no length), then a corner to `end`.
        func corner(from start: Point, _ c1: Point, _ c2: Point, to end: Point) {
            if start != current { elements.append(.line(start)) }
            elements.append(.curve(c1, c2, end))
            current = end
        }
        corner(from: Point(x: right - r, y: top),
               Point(x: right - o, y: top), Point(x: right, y: top + o), to: Point(x: right, y: top + r))
        corner(from: Point(x: right, y: bottom - r),
               Point(x: right, y: bottom - o), Point(x: right - o, y: bottom), to: Point(x: right - r, y: bottom))
        corner(from: Point(x: left + r, y: bottom),
               Point(x: left + o, y: bottom), Point(x: left, y: bottom - o), to: Point(x: left, y: bottom - r))
        corner(from: Point(x: left, y: top + r),
               Point(x: left, y: top + o), Point(x: left + o, y: top), to: Point(x: left + r, y: top))
        elements.append(.close)
        return Path(elements, primitive: .roundedRect(rect, radius: r))
    }

    /// A closed polygon through `points` given as fractions of `rect`.
    static func polygon(in rect: Rect, _ points: [(Double, Double)]) -> Path {
        var elements = points.enumerated().map { index, point in
            let mapped = Point(x: rect.x + point.0 * rect.width, y: rect.y + point.1 * rect.height)
            return index == 0 ? PathElement.move(mapped) : .line(mapped)
        }
        elements.append(.close)
        return Path(elements)
    }

    /// The inner radius of the star as a fraction of the outer one: fuller
    /// than a geometric pentagram (0.38), so a small star still reads as one.
    static let starInnerRatio = 0.5

    /// Unit vectors every 36° clockwise from straight up (y down): the
    /// directions of a five-pointed star's tips (even) and notches (odd).
    /// Written out because PagedotsCore uses no C maths library.
    static let starDirections: [(Double, Double)] = [
        (0, -1), (0.5877852522924731, -0.8090169943749475),
        (0.9510565162951535, -0.3090169943749474), (0.9510565162951535, 0.3090169943749474),
        (0.5877852522924731, 0.8090169943749475), (0, 1),
        (-0.5877852522924731, 0.8090169943749475), (-0.9510565162951535, 0.3090169943749474),
        (-0.9510565162951535, -0.3090169943749474), (-0.5877852522924731, -0.8090169943749475),
    ]

    /// A five-pointed star, point up, as fractions of its box: its widest
    /// span (the side tips) touches the box's sides and its outline is
    /// centred vertically, so no tip leaves the box.
    static let starPoints: [(Double, Double)] = {
        let sideTipX = starDirections[2].0
        let lowTipY = starDirections[4].1
        let outer = 0.5 / sideTipX
        let centreY = (1 - outer * (1 + lowTipY)) / 2 + outer
        return starDirections.enumerated().map { index, direction in
            let radius = index.isMultiple(of: 2) ? outer : outer * starInnerRatio
            return (0.5 + radius * direction.0, centreY + radius * direction.1)
        }
    }()

    /// A heart filling `rect`: two round lobes touching the top and sides,
    /// a point at the bottom centre. Cubic Béziers in fractions of the box.
    static func heart(in rect: Rect) -> Path {
        func at(_ x: Double, _ y: Double) -> Point {
            Point(x: rect.x + x * rect.width, y: rect.y + y * rect.height)
        }
        return Path([
            .move(at(0.5, 0.2)),
            .curve(at(0.56, 0.07), at(0.66, 0), at(0.77, 0)),
            .curve(at(0.9, 0), at(1, 0.1), at(1, 0.3)),
            .curve(at(1, 0.58), at(0.72, 0.78), at(0.5, 1)),
            .curve(at(0.28, 0.78), at(0, 0.58), at(0, 0.3)),
            .curve(at(0, 0.1), at(0.1, 0), at(0.23, 0)),
            .curve(at(0.34, 0), at(0.44, 0.07), at(0.5, 0.2)),
            .close,
        ])
    }
}
