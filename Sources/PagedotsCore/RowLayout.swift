/// One style's geometry, laid out left to right in row coordinates (see
/// `DirectionTransform`). `IndicatorLayout.layout(for:)` picks the type for a
/// spec's style with one exhaustive `switch`.
protocol RowLayout {
    /// The row with its padding: `width` along the row, `height` across it.
    var rowSize: Size { get }
    /// What to paint, mapped to the canvas by `transform`.
    func items(in transform: DirectionTransform) -> [DrawItem]
}
