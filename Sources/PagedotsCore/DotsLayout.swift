/// `style=dots`: one indicator per page, all the same size (docs/styles.md).
struct DotsLayout: RowLayout {
    let row: SlotRow

    init(spec: IndicatorSpec) {
        row = SlotRow(spec: spec, currentLength: spec.size)
    }

    var rowSize: Size { row.rowSize }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        row.plainItems(in: transform)
    }

    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        row.movingItems(move, in: transform)
    }
}
