/// The row of separate indicators that `dots`, `pill`, `scroll` and
/// `progress` share: every indicator sits in a slot `size` thick and `size`
/// long, slots `spacing` apart, except the current page's, which is
/// `currentLength` long. The row may show only a window of the pages.
struct SlotRow {
    let spec: IndicatorSpec
    /// How many indicators the row shows.
    let shown: Int
    /// The page of the first indicator shown.
    let firstPage: Int
    /// The current indicator's length along the row.
    let currentLength: Double

    /// A row of every page, the current one `currentLength` long.
    init(spec: IndicatorSpec, currentLength: Double) {
        self.init(spec: spec, shown: max(spec.pages, 1), firstPage: 0, currentLength: currentLength)
    }

    /// A row of `shown` pages from `firstPage`, the current one as long as the others.
    init(spec: IndicatorSpec, shown: Int, firstPage: Int, currentLength: Double) {
        self.spec = spec
        self.shown = shown
        self.firstPage = firstPage
        self.currentLength = currentLength
    }

    var rowSize: Size {
        let count = Double(shown)
        return Size(
            width: 2 * spec.padding + count * spec.size + (currentLength - spec.size) + (count - 1) * spec.spacing,
            height: 2 * spec.padding + spec.size
        )
    }

    /// One shown indicator: its place in the window, its page, and its slot in row coordinates.
    struct Slot {
        var index: Int
        var page: Int
        var box: Rect
        var isCurrent: Bool
    }

    /// The shown indicators, first to last along the row.
    var slots: [Slot] {
        slots { $0 == spec.current ? 1 : 0 }
    }

    /// The shown indicators, first to last along the row, each page `p`
    /// taking `share(p)` of the current indicator's extra length (the
    /// current length passes from one page to the next as a move goes on).
    func slots(sharing share: (Int) -> Double) -> [Slot] {
        var slots: [Slot] = []
        slots.reserveCapacity(shown)
        var start = spec.padding
        for index in 0..<shown {
            let page = firstPage + index
            let length = mix(spec.size, currentLength, share(page))
            let box = Rect(x: start, y: spec.padding, width: length, height: spec.size)
            slots.append(Slot(index: index, page: page, box: box, isCurrent: page == spec.current))
            start += length + spec.spacing
        }
        return slots
    }

    /// The box of `page`'s indicator when it holds the whole current length.
    func currentBox(of page: Int) -> Rect {
        // The slots before it are `size` long, added up as `slots(sharing:)` adds them (no array made).
        var start = spec.padding
        for _ in firstPage ..< page {
            start += spec.size + spec.spacing
        }
        return Rect(x: start, y: spec.padding, width: currentLength, height: spec.size)
    }

    /// Every slot painted as a plain indicator (`color` for the current
    /// page, `inactive` for the rest), each box first passed through `adjust`.
    func plainItems(in transform: DirectionTransform, adjust: (Slot) -> Rect = { $0.box }) -> [DrawItem] {
        let painter = IndicatorPainter(spec: spec)
        return slots.map { slot in
            let box = transform.rect(adjust(slot))
            return slot.isCurrent ? painter.current(in: box) : painter.inactive(in: box)
        }
    }

    /// Part way through `move` (this row's spec is the moving one): every
    /// shown indicator in `inactive`, the current length part way from the
    /// leaving page to the reached one, and the current colour's marks on
    /// top, moving by the effect from the leaving page's current indicator
    /// to the reached one's (each as it is at its end of the move; a fade
    /// stays on the two pages' slots as they change), painted by `paint`
    /// (by default as the current indicator), which is also given the two
    /// pages' slots as they are at this point of the move.
    func movingItems(
        _ move: Move, in transform: DirectionTransform, paint: ((MovingMark, _ slots: (from: Rect, to: Rect)) -> [DrawItem])? = nil
    ) -> [DrawItem] {
        let painter = IndicatorPainter(spec: spec)
        let passing = slots { page in
            page == move.to ? (page == move.from ? 1 : move.progress) : page == move.from ? 1 - move.progress : 0
        }
        let now = (from: passing[move.from - firstPage].box, to: passing[move.to - firstPage].box)
        // Room for the marks too, made once: an animation draws every frame of its moves.
        var items: [DrawItem] = []
        items.reserveCapacity(passing.count + 2)
        for slot in passing {
            items.append(painter.inactive(in: transform.rect(slot.box)))
        }
        painter.addCurrentMarks(
            from: currentBox(of: move.from), to: currentBox(of: move.to), inPlace: now, during: move, in: transform, to: &items,
            paint: paint.map { paint in { mark in paint(mark, now) } }
        )
        return items
    }
}
