/// `style=pill`: as `dots`, but the current indicator is a capsule `2·size`
/// long, and the indicators after it are shifted by `size` (docs/styles.md).
struct PillLayout: SlotRowLayout {
    let row: SlotRow

    init(spec: IndicatorSpec) {
        row = SlotRow(spec: spec, currentLength: 2 * spec.size)
    }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        row.plainItems(in: transform)
    }
}
