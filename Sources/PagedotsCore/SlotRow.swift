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
        var slots: [Slot] = []
        slots.reserveCapacity(shown)
        var start = spec.padding
        for index in 0..<shown {
            let page = firstPage + index
            let isCurrent = page == spec.current
            let length = isCurrent ? currentLength : spec.size
            slots.append(Slot(index: index, page: page, box: Rect(x: start, y: spec.padding, width: length, height: spec.size), isCurrent: isCurrent))
            start += length + spec.spacing
        }
        return slots
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
}
