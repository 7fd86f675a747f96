/// `style=scroll`: a window of at most `visible` dots that keeps the current
/// one centred where it can, so its size does not grow with `pages`; a dot
/// at an edge of the window with more pages beyond it is shrunk (docs/styles.md).
struct ScrollLayout: RowLayout {
    let row: SlotRow

    /// How much the dots at a window's edge shrink: ⅓ at the edge, ⅔ next to it.
    static let edgeFactors = [1.0 / 3, 2.0 / 3]

    init(spec: IndicatorSpec) {
        let pages = max(spec.pages, 1)
        let shown = min(pages, max(spec.visible, 1))
        let firstPage = min(max(spec.current - (shown - 1) / 2, 0), pages - shown)
        row = SlotRow(spec: spec, shown: shown, firstPage: firstPage, currentLength: spec.size)
    }

    var rowSize: Size { row.rowSize }

    func items(in transform: DirectionTransform) -> [DrawItem] {
        row.plainItems(in: transform) { slot in
            let factor = shrinkFactor(of: slot)
            guard factor != 1 else { return slot.box }
            let box = slot.box, width = box.width * factor, height = box.height * factor
            return Rect(x: box.midX - width / 2, y: box.midY - height / 2, width: width, height: height)
        }
    }

    /// How much the dot in `slot` shrinks: by an edge factor at an end of
    /// the window with more pages beyond it, otherwise (and always for the
    /// current page) not at all.
    private func shrinkFactor(of slot: SlotRow.Slot) -> Double {
        guard !slot.isCurrent else { return 1 }
        var factor = 1.0
        if row.firstPage > 0, slot.index < Self.edgeFactors.count {
            factor = min(factor, Self.edgeFactors[slot.index])
        }
        let fromEnd = row.shown - 1 - slot.index
        if row.firstPage + row.shown < row.spec.pages, fromEnd < Self.edgeFactors.count {
            factor = min(factor, Self.edgeFactors[fromEnd])
        }
        return factor
    }
}
