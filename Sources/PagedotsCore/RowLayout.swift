/// One style's geometry, laid out left to right in row coordinates (see
/// `DirectionTransform`). `IndicatorLayout.layout(for:)` picks the type for a
/// spec's style with one exhaustive `switch`; each type draws its still
/// image and its part of an animation (docs/styles.md, "Animation").
protocol RowLayout {
    /// The row with its padding: `width` along the row, `height` across it.
    /// The same for every page, so that every frame of an animation has one size.
    var rowSize: Size { get }
    /// What to paint, mapped to the canvas by `transform`.
    func items(in transform: DirectionTransform) -> [DrawItem]
    /// What to paint part way through `move`. The layout is made from the
    /// spec as it moves (`IndicatorSpec.moving`): `current` is the page the
    /// move leaves, and the colours are mixed.
    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem]
    /// The effect this style draws a move from `page` to `next` with: the
    /// one asked for, or `.none` where the style cuts instead.
    func effect(from page: Int, to next: Int, asked: Effect) -> Effect
    /// Whether the current indicator is a timer that fills while its page
    /// rests (its `progress` then drawn from 0 to 1).
    var isTimer: Bool { get }
}

extension RowLayout {
    func effect(from page: Int, to next: Int, asked: Effect) -> Effect { asked }
    var isTimer: Bool { false }
}
