/// A style laid out on a `SlotRow` (`dots`, `pill`, `scroll`, `progress`):
/// its size is the row's, and by default a move is the row's own.
protocol SlotRowLayout: RowLayout {
    var row: SlotRow { get }
}

extension SlotRowLayout {
    var rowSize: Size { row.rowSize }

    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        row.movingItems(move, in: transform)
    }
}
