/// Paints one indicator in its canvas box with the spec's shape, colours and fill.
struct IndicatorPainter {
    let spec: IndicatorSpec

    /// The outline of an indicator filling `rect`.
    func outline(in rect: Rect) -> Path {
        ShapePath.path(for: spec.shape, in: rect)
    }

    /// The current page's indicator: always filled with `color`.
    func current(in rect: Rect) -> DrawItem {
        .fill(outline(in: rect), spec.color)
    }

    /// Another page's indicator in `inactive`: filled, or with `fill=outline`
    /// a ring whose outer edge is the filled indicator's edge (a line of
    /// twice `stroke` centred on the outline, clipped to it: the stroke lies inside).
    func inactive(in rect: Rect) -> DrawItem {
        let outline = outline(in: rect)
        switch spec.fill {
        case .solid:
            return .fill(outline, spec.inactive)
        case .outline:
            return .clipped(outline, [.stroke(outline, lineWidth: 2 * spec.stroke, spec.inactive)])
        }
    }
}
