/// `style=fraction`: the page as text, `3 / 7`. The current number
/// (`current + 1`) is semibold in `color`; the rest (a thin space, a slash, a
/// thin space and `pages`) regular in `inactive` made opaque; at `1.5·size`
/// points, on a line `2·size` tall (as bar's titles), `padding` around it
/// (docs/styles.md, "fraction").
///
/// The canvas depends on `pages` only: it has room for the widest current
/// number, so every page of one row (every frame of its animation) has one
/// size, and each page's text is centred in it. Sizes come from
/// `FractionMetrics`, never from the text layout engine, so they are known
/// while parsing.
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
        fontSize = spec.textFontSize
        lineHeight = 2 * spec.size
        ruleThickness = isColumn ? spec.hairline : 0
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
        still(spec.current, at: transform.origin)
    }

    /// Worm draws as slide: text does not stretch, and rolling digits are
    /// what a moving page number looks like.
    func effect(from page: Int, to next: Int, asked: Effect) -> Effect {
        asked == .worm ? .slide : asked
    }

    /// A slide rolls the current number like an odometer: every digit that
    /// changes moves up out of its line as the new one comes up into it
    /// (digits that stay the same stand still), while the number's right end,
    /// and the rest after it, glide from where one page puts them to where
    /// the next does; the rolling digits are clipped to their line. A fade
    /// cross-fades the two pages' texts in place (the rest stays when it
    /// does not move).
    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        let corner = transform.origin
        let (fromEnd, toEnd) = (numberEnd(move.from), numberEnd(move.to))
        switch move.effect {
        case .slide, .worm:
            let end = mix(fromEnd, toEnd, move.progress)
            return [rolling(from: move.from, to: move.to, endingAt: end, progress: move.progress, at: corner)]
                + rest(after: end, at: corner)
        case .fade:
            let (leaving, coming) = (1 - move.progress, move.progress)
            let numbers = [number(move.from, endingAt: fromEnd, opacity: leaving, at: corner),
                           number(move.to, endingAt: toEnd, opacity: coming, at: corner)]
            guard !isColumn, fromEnd != toEnd else { return numbers + rest(after: fromEnd, at: corner) }
            return numbers + rest(after: fromEnd, opacity: leaving, at: corner) + rest(after: toEnd, opacity: coming, at: corner)
        case .none:
            return still(move.progress < 0.5 ? move.from : move.to, at: corner)
        }
    }

    /// `page`'s fraction at rest, from `corner`, its top-left corner on the canvas.
    private func still(_ page: Int, at corner: Point) -> [DrawItem] {
        let end = numberEnd(page)
        return [number(page, endingAt: end, at: corner)] + rest(after: end, at: corner)
    }

    /// The advance of `page`'s current number, `page + 1`, semibold.
    private func numberWidth(_ page: Int) -> Double {
        FractionMetrics.points(FractionMetrics.units(ofNumber: page + 1, weight: .semibold), fontSize: fontSize)
    }

    /// The advance of a row's rest (separator and `pages`, regular).
    private var restWidth: Double {
        FractionMetrics.points(FractionMetrics.separatorUnits + FractionMetrics.units(ofNumber: pages, weight: .regular), fontSize: fontSize)
    }

    /// Where `page`'s current number ends, from the fraction's top-left
    /// corner: the whole text is centred in its room in a row, the number
    /// alone in a column.
    private func numberEnd(_ page: Int) -> Double {
        let width = numberWidth(page)
        return spec.padding + (textWidth - width - (isColumn ? 0 : restWidth)) / 2 + width
    }

    /// `page`'s current number, its right end at `end` (from the corner), `opacity` times as opaque as `color`.
    private func number(_ page: Int, endingAt end: Double, opacity: Double = 1, at corner: Point) -> DrawItem {
        let width = numberWidth(page)
        return run(String(page + 1), weight: .semibold, color: spec.color.fading(to: opacity), left: end - width, width: width,
                   top: spec.padding, at: corner)
    }

    /// The rest of the fraction, `opacity` times as opaque as `inactive` made
    /// opaque: in a row the separator and `pages` from `numberEnd`; in a
    /// column the rule and, under it, `pages` centred.
    private func rest(after numberEnd: Double, opacity: Double = 1, at corner: Point) -> [DrawItem] {
        let color = RGBA(red: spec.inactive.red, green: spec.inactive.green, blue: spec.inactive.blue).fading(to: opacity)
        let total = String(pages)
        guard isColumn else {
            return [run(Self.separator + total, weight: .regular, color: color, left: numberEnd, width: restWidth, top: spec.padding, at: corner)]
        }
        let width = FractionMetrics.points(FractionMetrics.units(ofNumber: pages, weight: .regular), fontSize: fontSize)
        let rule = Rect(x: corner.x + spec.padding, y: corner.y + spec.padding + lineHeight, width: textWidth, height: ruleThickness)
        return [
            .fill(ShapePath.path(for: .square, in: rule), color),
            run(total, weight: .regular, color: color, left: spec.padding + (textWidth - width) / 2, width: width,
                top: spec.padding + lineHeight + ruleThickness, at: corner),
        ]
    }

    /// The current number part way (`progress`) from `from`'s to `to`'s,
    /// digits right-aligned at `end`, each changing digit rolling up (the
    /// figures are tabular, so digit by digit is where the number draws them),
    /// clipped to the number's line.
    private func rolling(from: Int, to: Int, endingAt end: Double, progress: Double, at corner: Point) -> DrawItem {
        let leaving = Array(String(from + 1).reversed()), coming = Array(String(to + 1).reversed())
        let digit = FractionMetrics.points(FractionMetrics.digitUnits(.semibold), fontSize: fontSize)
        let top = spec.padding
        var runs: [DrawItem] = []
        for place in 0..<max(leaving.count, coming.count) {
            let left = end - Double(place + 1) * digit
            let old = place < leaving.count ? leaving[place] : nil, new = place < coming.count ? coming[place] : nil
            let steps: [(Character?, Double)] = old == new ? [(old, 0)] : [(old, -progress), (new, 1 - progress)]
            for case let (figure?, offset) in steps {
                runs.append(run(String(figure), weight: .semibold, color: spec.color, left: left, width: digit,
                                top: top + offset * lineHeight, at: corner))
            }
        }
        let line = Rect(x: corner.x, y: corner.y + top, width: uprightSize.width, height: lineHeight)
        return .clipped(ShapePath.path(for: .square, in: line), runs)
    }

    /// `text`, whose advance is `width` (by `FractionMetrics`), on the line
    /// from `top` with its left end at `left`, both from `corner`, the
    /// fraction's top-left corner on the canvas: its box is exactly the
    /// text's advance wide, so the text fills it.
    private func run(_ text: String, weight: FontWeight, color: RGBA, left: Double, width: Double, top: Double, at corner: Point) -> DrawItem {
        let box = Rect(x: corner.x + left, y: corner.y + top, width: width, height: lineHeight)
        return .text(TextRun(text: text, box: box, fontSize: fontSize, weight: weight, color: color))
    }
}
