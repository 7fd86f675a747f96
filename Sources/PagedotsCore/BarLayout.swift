/// `style=bar`: a segmented control's underline. One segment per page; a
/// thin track in `inactive` runs under all of them and a thicker line in
/// `color` marks the current one. With `labels`, every segment shows its
/// title; all sizes are formulas of the parameters, never of measured text.
///
/// In a row (`ltr`, `rtl`) segments are `8·size` long and the titles sit
/// above the line; in a column (`ttb`, `btt`) segments are `3·size` tall, one
/// line of text, the line runs down the left side and the titles stand to
/// its right, since text is never turned. Titles keep a gap of twice the
/// line's thickness from it.
struct BarLayout: RowLayout {
    let spec: IndicatorSpec
    let isColumn: Bool
    /// A segment's length along the row.
    let segmentLength: Double
    /// The current segment's line, across the row: `size/4` rounded, at least 1.
    let lineThickness: Double
    /// The track under all segments: `size/8` rounded, at least 1.
    let trackThickness: Double
    /// A title's box across the row: `2·size` tall above the line in a row,
    /// `8·size` wide beside it in a column; 0 without labels.
    let labelDepth: Double
    /// Between the titles and the line: twice the line's thickness; 0 without labels.
    let labelGap: Double

    init(spec: IndicatorSpec) {
        self.spec = spec
        isColumn = spec.direction.isVertical
        segmentLength = (isColumn ? 3 : 8) * spec.size
        lineThickness = max(1, (spec.size / 4).rounded())
        trackThickness = spec.hairline
        let hasLabels = !(spec.labels ?? []).isEmpty
        labelDepth = hasLabels ? (isColumn ? 8 : 2) * spec.size : 0
        labelGap = hasLabels ? 2 * lineThickness : 0
    }

    /// The font size of the titles, in points.
    var fontSize: Double { spec.textFontSize }

    var rowSize: Size {
        let count = Double(max(spec.pages, 1))
        return Size(
            width: 2 * spec.padding + count * segmentLength + (count - 1) * spec.spacing,
            height: 2 * spec.padding + lineThickness + labelGap + labelDepth
        )
    }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        items(lines: [MovingMark(box: line(under: spec.current), opacity: 1, arrival: 0)], titled: spec.current, in: transform)
    }

    /// The line moves by the effect from one segment to the next; the
    /// current title's weight and colour pass to the next title at the
    /// move's midpoint (text does not cross-fade).
    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        let marks = MovingMark.marks(from: line(under: move.from), to: line(under: move.to), progress: move.progress, effect: move.effect)
        return items(lines: marks, titled: move.progress < 0.5 ? move.from : move.to, in: transform)
    }

    // Across the row: the title then the line in a row, the line then the title in a column.
    private var lineStart: Double { isColumn ? spec.padding : spec.padding + labelDepth + labelGap }
    private var labelStart: Double { isColumn ? spec.padding + lineThickness + labelGap : spec.padding }

    private func segmentStart(_ page: Int) -> Double { spec.padding + Double(page) * (segmentLength + spec.spacing) }

    /// The current line's box under `page`'s segment.
    private func line(under page: Int) -> Rect {
        Rect(x: segmentStart(page), y: lineStart, width: segmentLength, height: lineThickness)
    }

    /// The track, `lines` in `color` (each as opaque as given) over it, and
    /// the titles, `current`'s in `color` and semibold.
    private func items(lines: [MovingMark], titled current: Int, in transform: DirectionTransform) -> [DrawItem] {
        let p = spec.padding
        // The track and the line share their outer edge (bottom in a row, left in a column).
        let trackStart = isColumn ? lineStart : lineStart + lineThickness - trackThickness
        let track = Rect(x: p, y: trackStart, width: rowSize.width - 2 * p, height: trackThickness)
        var items: [DrawItem] = [.fill(linePath(transform.rect(track)), spec.inactive)]
        for line in lines {
            items.append(.fill(linePath(transform.rect(line.box)), spec.color.fading(to: line.opacity)))
        }
        for (page, title) in (spec.labels ?? []).prefix(spec.pages).enumerated() where !title.text.isEmpty {
            let box = Rect(x: segmentStart(page), y: labelStart, width: segmentLength, height: labelDepth)
            let isCurrent = page == current
            var readable = spec.inactive
            readable.alpha = 255
            items.append(.text(TextRun(
                text: title.text, box: transform.rect(box), fontSize: fontSize,
                weight: isCurrent ? .semibold : .regular, color: isCurrent ? spec.color : readable
            )))
        }
        return items
    }

    /// A line's outline, with round ends (`shape` does not apply to bar).
    private func linePath(_ box: Rect) -> Path {
        ShapePath.roundedRect(box, radius: min(box.width, box.height) / 2)
    }
}
