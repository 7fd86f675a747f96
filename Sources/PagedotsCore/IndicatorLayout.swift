/// Turns a validated spec into a drawing: the geometry of every style.
public enum IndicatorLayout {
    /// The smallest canvas, in points and after `direction`, that holds the
    /// indicator and its padding: the size used when `width`/`height` are absent.
    public static func fittedSize(of spec: IndicatorSpec) -> Size {
        let n = Double(spec.pages)
        let length = 2 * spec.padding + n * spec.size + (n - 1) * spec.spacing
            + (spec.style == .pill ? spec.size : 0)
        let thickness = 2 * spec.padding + spec.size
        return spec.direction.isVertical
            ? Size(width: thickness, height: length)
            : Size(width: length, height: thickness)
    }

    /// The image to draw for `spec`.
    public static func drawing(for spec: IndicatorSpec) -> Drawing {
        // Placeholder until the geometry lands: dots, left to right.
        let size = fittedSize(of: spec)
        var items: [DrawItem] = []
        for index in 0..<spec.pages {
            let centre = Point(
                x: spec.padding + spec.size / 2 + Double(index) * (spec.size + spec.spacing),
                y: spec.padding + spec.size / 2
            )
            let rect = Rect(x: centre.x - spec.size / 2, y: centre.y - spec.size / 2, width: spec.size, height: spec.size)
            items.append(.fill(PathBuilder.ellipse(in: rect), index == spec.current ? spec.color : spec.inactive))
        }
        return Drawing(size: size, background: spec.background, items: items)
    }
}

/// Paths for the basic outlines.
public enum PathBuilder {
    /// The Bézier constant for a quarter circle.
    static let kappa = 0.5522847498307936

    /// An ellipse inscribed in `rect`, as four cubic Béziers, clockwise from the right.
    public static func ellipse(in rect: Rect) -> Path {
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
        ])
    }
}
