/// `style=progress`, the iOS 17 timer look: the current indicator is a track
/// `3·size` long in `inactive` (a ring with `fill=outline`), filled from its
/// start by `progress` in `color`; the start follows the direction, like the
/// pages (docs/styles.md).
struct ProgressLayout: RowLayout {
    let row: SlotRow

    init(spec: IndicatorSpec) {
        row = SlotRow(spec: spec, currentLength: 3 * spec.size)
    }

    var rowSize: Size { row.rowSize }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        let painter = IndicatorPainter(spec: row.spec)
        var items: [DrawItem] = []
        items.reserveCapacity(row.shown + 1)
        for slot in row.slots {
            let box = transform.rect(slot.box)
            items.append(painter.inactive(in: box))
            guard slot.isCurrent else { continue }
            let fraction = min(max(row.spec.progress, 0), 1)
            if fraction > 0 {
                var filled = slot.box
                filled.width *= fraction
                items.append(.clipped(painter.outline(in: box), [.fill(ShapePath.path(for: .square, in: transform.rect(filled)), row.spec.color)]))
            }
        }
        return items
    }
}
