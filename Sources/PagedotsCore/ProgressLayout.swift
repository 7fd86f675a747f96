/// `style=progress`, the iOS 17 timer look: the current indicator is a track
/// `3·size` long in `inactive` (a ring with `fill=outline`), filled from its
/// start by `progress` in `color`; the start follows the direction, like the
/// pages (docs/styles.md).
struct ProgressLayout: SlotRowLayout {
    let row: SlotRow

    init(spec: IndicatorSpec) {
        row = SlotRow(spec: spec, currentLength: 3 * spec.size)
    }


    func items(in transform: DirectionTransform) -> [DrawItem] {
        let painter = IndicatorPainter(spec: row.spec)
        var items: [DrawItem] = []
        items.reserveCapacity(row.shown + 1)
        for slot in row.slots {
            items.append(painter.inactive(in: transform.rect(slot.box)))
            if slot.isCurrent, let fill = fill(of: slot.box, by: row.spec.progress, color: row.spec.color, in: transform) {
                items.append(fill)
            }
        }
        return items
    }

    /// The track `box` (row coordinates) filled from its start by
    /// `fraction` (clamped to 0…1) in `color`; nil when nothing is filled.
    private func fill(of box: Rect, by fraction: Double, color: RGBA, in transform: DirectionTransform) -> DrawItem? {
        let fraction = min(max(fraction, 0), 1)
        guard fraction > 0 else { return nil }
        var filled = box
        filled.width *= fraction
        let outline = IndicatorPainter(spec: row.spec).outline(in: transform.rect(box))
        return .clipped(outline, [.fill(ShapePath.path(for: .square, in: transform.rect(filled)), color)])
    }

    /// The timer fills while its page rests.
    var isTimer: Bool { true }

    /// The track's length passes to the next page while the current
    /// colour, a full track's outline filled as far as the timer got, moves
    /// by the effect to the next track, emptying as it arrives (a fade
    /// empties nothing: the leaving fill fades out in place). The colour
    /// shows only inside the two tracks as they are at that moment: it
    /// pours from one into the other and never floats in the gap between.
    func items(during move: Move, in transform: DirectionTransform) -> [DrawItem] {
        row.movingItems(move, in: transform) { mark, tracks in
            let color = row.spec.color.fading(to: mark.opacity)
            guard let fill = fill(of: mark.box, by: mix(move.fill, 0, mark.arrival), color: color, in: transform) else { return [] }
            let painter = IndicatorPainter(spec: row.spec)
            return (tracks.from == tracks.to ? [tracks.from] : [tracks.from, tracks.to]).map { track in
                .clipped(painter.outline(in: transform.rect(track)), [fill])
            }
        }
    }
}
