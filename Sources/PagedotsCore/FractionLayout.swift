/// `style=fraction`: the page as text, `3 / 7`. The current number
/// (`current + 1`) is semibold in `color`; the rest (a thin space, a slash, a
/// thin space and `pages`) regular in `inactive` made opaque; at `1.5·size`
/// points, on a line `2·size` tall (as bar's titles), `padding` around it
/// (docs/styles.md, "fraction").
///
/// The canvas depends on `pages` only: it has room for the widest current
/// number, so every page of one row has one size, and each page's text is
/// centred in it. Sizes come from `FractionMetrics`, never from the text
/// layout engine, so they are known while parsing.
///
/// A fraction reads left to right in every direction: `rtl` mirrors nothing.
/// In a column (`ttb`, `btt`) text is never turned, so the fraction stacks:
/// the current number over a rule over `pages`, each centred; the column is
/// as wide as the widest current number.
struct FractionLayout: RowLayout {
    let spec: IndicatorSpec
    let isColumn: Bool
    /// `pages`, at least 1.
    let pages: Int
    /// The text's font size: `1.5·size`.
    let fontSize: Double
    /// A line of text, from its top to its bottom: `2·size`.
    let lineHeight: Double
    /// The column's rule, between the numbers: `size/8` rounded, at least 1
    /// (as bar's track); 0 in a row.
    let ruleThickness: Double
    /// The room for the text along a line, rounded up to whole points: the
    /// widest page's text in a row, the widest current number in a column.
    let textWidth: Double

    /// Between the two numbers in a row: thin space, slash, thin space.
    static let separator = "\u{2009}/\u{2009}"

    init(spec: IndicatorSpec) {
        self.spec = spec
        isColumn = spec.direction.isVertical
        fontSize = 1.5 * spec.size
        lineHeight = 2 * spec.size
        ruleThickness = isColumn ? max(1, (spec.size / 8).rounded()) : 0
        pages = max(spec.pages, 1)
        // Current numbers run up to `pages`, so the widest has as many digits.
        let widestCurrent = FractionMetrics.units(ofNumber: pages, weight: .semibold)
        let units = isColumn
            ? widestCurrent
            : widestCurrent + FractionMetrics.separatorUnits + FractionMetrics.units(ofNumber: pages, weight: .regular)
        textWidth = FractionMetrics.points(units, fontSize: fontSize).rounded(.up)
    }

    /// The fraction on the canvas, upright: as wide as its text, as tall as
    /// its line (in a column, its two lines and the rule), with padding.
    private var uprightSize: Size {
        let lines = isColumn ? 2 * lineHeight + ruleThickness : lineHeight
        return Size(width: 2 * spec.padding + textWidth, height: 2 * spec.padding + lines)
    }

    /// In a column, the row runs down the canvas: the upright size transposed,
    /// which the layout transposes back.
    var rowSize: Size {
        let size = uprightSize
        return isColumn ? Size(width: size.height, height: size.width) : size
    }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        // Placed upright, from the fraction's top-left corner on the canvas:
        // neither mirrored nor transposed, whatever the direction.
        let origin = transform.origin
        let p = spec.padding
        let current = String(spec.current + 1), total = String(pages)
        let currentWidth = FractionMetrics.points(FractionMetrics.units(ofNumber: spec.current + 1, weight: .semibold), fontSize: fontSize)
        guard isColumn else {
            let restWidth = FractionMetrics.points(
                FractionMetrics.separatorUnits + FractionMetrics.units(ofNumber: pages, weight: .regular), fontSize: fontSize
            )
            let left = origin.x + p + (textWidth - currentWidth - restWidth) / 2
            let top = origin.y + p
            return [
                run(current, weight: .semibold, color: spec.color, left: left, width: currentWidth, top: top),
                run(Self.separator + total, weight: .regular, color: restColor, left: left + currentWidth, width: restWidth, top: top),
            ]
        }
        let pagesWidth = FractionMetrics.points(FractionMetrics.units(ofNumber: pages, weight: .regular), fontSize: fontSize)
        let left = origin.x + p
        let top = origin.y + p
        let rule = Rect(x: left, y: top + lineHeight, width: textWidth, height: ruleThickness)
        return [
            run(current, weight: .semibold, color: spec.color, left: left + (textWidth - currentWidth) / 2, width: currentWidth, top: top),
            .fill(ShapePath.path(for: .square, in: rule), restColor),
            run(total, weight: .regular, color: restColor, left: left + (textWidth - pagesWidth) / 2, width: pagesWidth,
                top: top + lineHeight + ruleThickness),
        ]
    }

    /// The rest of the fraction (slash, `pages`, the column's rule): `inactive` made opaque, so that it stays readable.
    private var restColor: RGBA {
        RGBA(red: spec.inactive.red, green: spec.inactive.green, blue: spec.inactive.blue)
    }

    /// `text`, whose advance is `width` (by `FractionMetrics`), on the line
    /// from `top` with its left end at `left`, canvas coordinates: its box
    /// is exactly the text's advance wide, so the text fills it.
    private func run(_ text: String, weight: FontWeight, color: RGBA, left: Double, width: Double, top: Double) -> DrawItem {
        let box = Rect(x: left, y: top, width: width, height: lineHeight)
        return .text(TextRun(text: text, box: box, fontSize: fontSize, weight: weight, color: color))
    }
}
