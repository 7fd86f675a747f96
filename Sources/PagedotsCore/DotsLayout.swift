/// `style=dots`: one indicator per page, all the same size (docs/styles.md).
struct DotsLayout: SlotRowLayout {
    let row: SlotRow

    init(spec: IndicatorSpec) {
        row = SlotRow(spec: spec, currentLength: spec.size)
    }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        row.plainItems(in: transform)
    }
}
