/// `style=scroll`: a window of at most `visible` dots that keeps the current
/// one centred where it can, so its size does not grow with `pages`; a dot
/// at an edge of the window with more pages beyond it is shrunk (docs/styles.md).
struct ScrollLayout: SlotRowLayout {
    let row: SlotRow

    /// How much the dots at a window's edge shrink: ⅓ at the edge, ⅔ next to it.
    static let edgeFactors = [1.0 / 3, 2.0 / 3]

    init(spec: IndicatorSpec) {
        let pages = max(spec.pages, 1)
        let shown = min(pages, max(spec.visible, 1))
        row = SlotRow(spec: spec, shown: shown, firstPage: Self.firstPage(current: spec.current, pages: pages, shown: shown),
                      currentLength: spec.size)
    }

    /// The first page of the window that shows `current`: centred where it can be.
    private static func firstPage(current: Int, pages: Int, shown: Int) -> Int {
        min(max(current - (shown - 1) / 2, 0), pages - shown)
    }

    /// The first page of the window with `page` current.
    private func firstPage(current page: Int) -> Int {
        Self.firstPage(current: page, pages: max(row.spec.pages, 1), shown: row.shown)
    }


    func items(in transform: DirectionTransform) -> [DrawItem] {
        row.plainItems(in: transform) { slot in
            let factor = shrinkFactor(at: slot.index, firstPage: row.firstPage, isCurrent: slot.isCurrent)
            guard factor != 1 else { return slot.box }
            let box = slot.box, width = box.width * factor, height = box.height * factor
            return Rect(x: box.midX - width / 2, y: box.midY - height / 2, width: width, height: height)
        }
    }

    /// How much the dot at `index` of the window from `firstPage` shrinks:
    /// by an edge factor at an end of the window with more pages beyond it,
    /// otherwise (and always for the current page) not at all.
    private func shrinkFactor(at index: Int, firstPage: Int, isCurrent: Bool) -> Double {
        guard !isCurrent else { return 1 }
        var factor = 1.0
        if firstPage > 0, index < Self.edgeFactors.count {
            factor = min(factor, Self.edgeFactors[index])
        }
        let fromEnd = row.shown - 1 - index
        if firstPage + row.shown < row.spec.pages, fromEnd < Self.edgeFactors.count {
            factor = min(factor, Self.edgeFactors[fromEnd])
        }
        return factor
    }

    /// The window glides by at most one page; back from the last page to
    /// the start it jumps (a cut).
    func effect(from page: Int, to next: Int, asked: Effect) -> Effect {
        let shift = firstPage(current: next) - firstPage(current: page)
        return shift == 0 || shift == 1 ? asked : .none
    }

    /// The window glides while the current colour moves by the effect, so
    /// that it stays centred; every dot's size passes from what it is in one
    /// window to what it is in the next (a dot entering grows from nothing,
    /// one leaving shrinks to nothing), and nothing is drawn outside the row.
    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        let spec = row.spec
        let (start, end) = (firstPage(current: move.from), firstPage(current: move.to))
        let window = mix(Double(start), Double(end), move.progress)
        /// The dot `factor` of full size centred in the slot at `position` (fractional) of the window.
        func box(at position: Double, factor: Double) -> Rect {
            let side = spec.size * factor
            let middle = spec.padding + spec.size / 2 + position * (spec.size + spec.spacing)
            return Rect(x: middle - side / 2, y: spec.padding + (spec.size - side) / 2, width: side, height: side)
        }
        /// `page`'s size in the window from `firstPage` with `current` current; 0 outside it.
        func factor(of page: Int, firstPage: Int, current: Int) -> Double {
            let index = page - firstPage
            guard index >= 0, index < row.shown else { return 0 }
            return shrinkFactor(at: index, firstPage: firstPage, isCurrent: page == current)
        }
        /// `page`'s dot as it is at this point of the move: gliding, its size part way.
        func dot(of page: Int) -> Rect {
            let size = mix(factor(of: page, firstPage: start, current: move.from),
                           factor(of: page, firstPage: end, current: move.to), move.progress)
            return box(at: Double(page) - window, factor: size)
        }
        let painter = IndicatorPainter(spec: spec)
        var items: [DrawItem] = []
        for page in min(start, end)..<(max(start, end) + row.shown) {
            let box = dot(of: page)
            guard box.width > 0 else { continue }
            items.append(painter.inactive(in: transform.rect(box)))
        }
        // A fade colours the two dots as they are, shrinking or growing with them.
        let now = (from: dot(of: move.from), to: dot(of: move.to))
        painter.addCurrentMarks(
            from: box(at: Double(move.from - start), factor: 1), to: box(at: Double(move.to - end), factor: 1), inPlace: now,
            during: move, in: transform, to: &items
        )
        guard start != end else { return items }
        let rowBox = Rect(x: 0, y: 0, width: rowSize.width, height: rowSize.height)
        return [.clipped(ShapePath.path(for: .square, in: transform.rect(rowBox)), items)]
    }
}
