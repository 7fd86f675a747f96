/// The rows of separate indicators: `dots`, `pill`, `scroll` and `progress`.
///
/// Every indicator sits in a slot `size` thick and `size` long, slots
/// `spacing` apart, except the current one's, which is `size` long for dots
/// and scroll, `2·size` for pill (the capsule) and `3·size` for progress (the
/// track). `scroll` shows only a window of the pages and shrinks the dots at
/// an edge of the window that has more pages beyond it.
struct DotRow: RowLayout {
    let spec: IndicatorSpec
    /// How many indicators the row shows.
    let shown: Int
    /// The page of the first indicator shown.
    let firstPage: Int
    /// The current indicator's length along the row.
    let currentLength: Double

    init(spec: IndicatorSpec) {
        self.spec = spec
        let pages = max(spec.pages, 1)
        switch spec.style {
        case .scroll:
            shown = min(pages, max(spec.visible, 1))
            firstPage = min(max(spec.current - (shown - 1) / 2, 0), pages - shown)
        case .dots, .pill, .progress, .bar:
            shown = pages
            firstPage = 0
        }
        switch spec.style {
        case .pill: currentLength = 2 * spec.size
        case .progress: currentLength = 3 * spec.size
        case .dots, .scroll, .bar: currentLength = spec.size
        }
    }

    var rowSize: Size {
        let count = Double(shown)
        return Size(
            width: 2 * spec.padding + count * spec.size + (currentLength - spec.size) + (count - 1) * spec.spacing,
            height: 2 * spec.padding + spec.size
        )
    }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        let painter = IndicatorPainter(spec: spec)
        var items: [DrawItem] = []
        items.reserveCapacity(shown + 1)
        var start = spec.padding
        for slot in 0..<shown {
            let isCurrent = firstPage + slot == spec.current
            let length = isCurrent ? currentLength : spec.size
            let slotBox = Rect(x: start, y: spec.padding, width: length, height: spec.size)
            if isCurrent, spec.style == .progress {
                items += progressTrack(in: slotBox, transform: transform, painter: painter)
            } else {
                let box = transform.rect(shrunk(slotBox, by: scrollFactor(slot: slot)))
                items.append(isCurrent ? painter.current(in: box) : painter.inactive(in: box))
            }
            start += length + spec.spacing
        }
        return items
    }

    /// `box` scaled by `factor` about its centre.
    private func shrunk(_ box: Rect, by factor: Double) -> Rect {
        guard factor != 1 else { return box }
        let width = box.width * factor, height = box.height * factor
        return Rect(x: box.midX - width / 2, y: box.midY - height / 2, width: width, height: height)
    }

    /// How much `scroll` shrinks the dot in `slot`: ⅓ at an edge of the
    /// window with more pages beyond it, ⅔ next to that, otherwise (and
    /// always for the current page) full size.
    private func scrollFactor(slot: Int) -> Double {
        guard spec.style == .scroll, firstPage + slot != spec.current else { return 1 }
        let edgeSizes = [1.0 / 3, 2.0 / 3]
        var factor = 1.0
        if firstPage > 0, slot < edgeSizes.count {
            factor = min(factor, edgeSizes[slot])
        }
        let fromEnd = shown - 1 - slot
        if firstPage + shown < spec.pages, fromEnd < edgeSizes.count {
            factor = min(factor, edgeSizes[fromEnd])
        }
        return factor
    }

    /// The `progress` style's current indicator: a track in `inactive`
    /// (a ring with `fill=outline`), filled from its start by `progress` in
    /// `color`. The start follows the direction, like the pages.
    private func progressTrack(in slotBox: Rect, transform: DirectionTransform, painter: IndicatorPainter) -> [DrawItem] {
        let track = transform.rect(slotBox)
        var items = [painter.inactive(in: track)]
        let fraction = min(max(spec.progress, 0), 1)
        if fraction > 0 {
            var filled = slotBox
            filled.width *= fraction
            let fillBox = transform.rect(filled)
            items.append(.clipped(painter.outline(in: track), [.fill(ShapePath.path(for: .square, in: fillBox), spec.color)]))
        }
        return items
    }
}
