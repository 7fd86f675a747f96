/// Paints one indicator in its canvas box with the spec's shape, colours and fill.
struct IndicatorPainter {
    let spec: IndicatorSpec

    /// The outline of an indicator filling `rect`.
    func outline(in rect: Rect) -> Path {
        ShapePath.path(for: spec.shape, in: rect)
    }

    /// The current page's indicator: always filled with `color` (made
    /// `opacity` times as opaque, as a cross-fade draws it).
    func current(in rect: Rect, opacity: Double = 1) -> DrawItem {
        .fill(outline(in: rect), spec.color.fading(to: opacity))
    }

    /// Another page's indicator in `inactive`: filled, or with `fill=outline`
    /// a ring `stroke` wide whose outer edge is the filled indicator's edge.
    /// The ring is filled between two outlines where the inner one is a
    /// simple shape; for a star or a heart it is a line of twice `stroke`
    /// centred on the outline and clipped to it.
    func inactive(in rect: Rect) -> DrawItem {
        let outline = outline(in: rect)
        switch spec.fill {
        case .solid:
            return .fill(outline, spec.inactive)
        case .outline:
            if let ring = ShapePath.ring(for: spec.shape, in: rect, width: spec.stroke) {
                return .fill(ring, spec.inactive)
            }
            return .clipped(outline, [.stroke(outline, lineWidth: 2 * spec.stroke, spec.inactive)])
        }
    }

    /// Adds to `items` the current colour's marks part way through `move`,
    /// from the box `from` to the box `to` (row coordinates; `inPlace` where
    /// they are now, when that moves) as its effect places them, each
    /// painted by `paint` (by default as the current indicator).
    func addCurrentMarks(
        from: Rect, to: Rect, inPlace: (from: Rect, to: Rect)? = nil, during move: Move, in transform: DirectionTransform,
        to items: inout [DrawItem], paint: ((MovingMark) -> [DrawItem])? = nil
    ) {
        for mark in MovingMark.marks(from: from, to: to, inPlace: inPlace, progress: move.progress, effect: move.effect) {
            if let paint {
                items += paint(mark)
            } else {
                items.append(current(in: transform.rect(mark.box), opacity: mark.opacity))
            }
        }
    }
}
