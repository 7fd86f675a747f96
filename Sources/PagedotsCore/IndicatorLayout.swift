/// Turns a validated spec into a drawing: the geometry of every style
/// (docs/styles.md gives it as formulas).
public enum IndicatorLayout {
    /// The smallest canvas, in points and after `direction`, that holds the
    /// indicator and its padding: the size used when `width`/`height` are absent.
    public static func fittedSize(of spec: IndicatorSpec) -> Size {
        canvasSize(ofRow: layout(for: spec).rowSize, direction: spec.direction)
    }

    /// The image to draw for `spec`: the fitted canvas, or the one that
    /// `width`/`height` fix with the indicator centred in it.
    public static func drawing(for spec: IndicatorSpec) -> Drawing {
        drawing(for: spec) { layout, transform in layout.items(in: transform) }
    }

    /// One frame of `spec`'s animation: a page at rest is exactly the still
    /// image with that page current; a move is drawn by the style's layout
    /// (docs/styles.md, "Animation"). Every frame has the still's canvas.
    public static func drawing(for spec: IndicatorSpec, at moment: Moment) -> Drawing {
        switch moment {
        case .rest(let page, let fill):
            return drawing(for: spec.resting(on: page, fill: fill))
        case .move(let move):
            return drawing(for: spec.moving(move)) { layout, transform in layout.items(during: move, in: transform) }
        }
    }

    /// The canvas of `spec` with the items that `items` gives for its
    /// layout, mapped by the transform that centres the row on the canvas.
    private static func drawing(for spec: IndicatorSpec, items: (any RowLayout, DirectionTransform) -> [DrawItem]) -> Drawing {
        let layout = layout(for: spec)
        let row = layout.rowSize
        let fitted = canvasSize(ofRow: row, direction: spec.direction)
        let canvas = Size(width: spec.width ?? fitted.width, height: spec.height ?? fitted.height)
        let origin = Point(
            x: centringOffset(free: canvas.width - fitted.width, scale: spec.scale),
            y: centringOffset(free: canvas.height - fitted.height, scale: spec.scale)
        )
        let transform = DirectionTransform(direction: spec.direction, rowLength: row.width, origin: origin)
        return Drawing(size: canvas, background: spec.background, items: items(layout, transform))
    }

    /// A row's size on the canvas: as it is, or transposed for a vertical direction.
    private static func canvasSize(ofRow row: Size, direction: Direction) -> Size {
        direction.isVertical ? Size(width: row.height, height: row.width) : row
    }

    /// The layout of `spec`'s style: the one place that tells styles apart
    /// (a new style adds its case here and a `RowLayout` type).
    static func layout(for spec: IndicatorSpec) -> any RowLayout {
        switch spec.style {
        case .dots: DotsLayout(spec: spec)
        case .pill: PillLayout(spec: spec)
        case .scroll: ScrollLayout(spec: spec)
        case .progress: ProgressLayout(spec: spec)
        case .bar: BarLayout(spec: spec)
        case .fraction: FractionLayout(spec: spec)
        }
    }

    /// Half of `free`, rounded down to whole pixels at `scale`, so that an
    /// indicator whose edges fall on pixels still does when centred: an odd
    /// pixel left over goes to the right or bottom.
    static func centringOffset(free: Double, scale: Int) -> Double {
        let pixels = Double(max(scale, 1))
        return (free / 2 * pixels).rounded(.down) / pixels
    }
}
