/// One mark of the current colour part way through a move: where an effect
/// puts it between the leaving indicator's box and the reached one's, and
/// how opaque it is (docs/styles.md, "Animation"). Every style moves its
/// current indicator (a dot, a capsule, a timer's fill, a bar's line) this way.
struct MovingMark {
    /// In row coordinates.
    var box: Rect
    var opacity: Double
    /// How far the mark stands for the reached indicator rather than the
    /// leaving one: the move's progress for a mark that travels, 0 and 1
    /// for the two marks of a fade.
    var arrival: Double

    /// The marks at eased `progress` (strictly between 0 and 1) from `from`
    /// to `to`, the two indicators' boxes at their ends of the move; a fade
    /// draws in place, at `inPlace` when the indicators' places move during
    /// the move. Marks with no area or no opacity are left out.
    static func marks(from: Rect, to: Rect, inPlace: (from: Rect, to: Rect)? = nil, progress: Double, effect: Effect) -> [MovingMark] {
        let (fadingFrom, fadingTo) = inPlace ?? (from, to)
        var marks: [MovingMark]
        switch effect {
        case .slide:
            marks = [MovingMark(box: from.mixed(with: to, by: progress), opacity: 1, arrival: progress)]
        case .worm:
            marks = [MovingMark(box: worm(from: from, to: to, progress: progress), opacity: 1, arrival: progress)]
        case .fade where fadingFrom == fadingTo:
            // One box fading into itself stays as it is.
            marks = [MovingMark(box: fadingFrom, opacity: 1, arrival: progress)]
        case .fade:
            marks = [
                MovingMark(box: fadingFrom, opacity: 1 - progress, arrival: 0),
                MovingMark(box: fadingTo, opacity: progress, arrival: 1),
            ]
        case .none:
            marks = [progress < 0.5 ? MovingMark(box: from, opacity: 1, arrival: 0) : MovingMark(box: to, opacity: 1, arrival: 1)]
        }
        // In place: no second array.
        marks.removeAll { !($0.box.width > 0 && $0.box.height > 0 && $0.opacity > 0) }
        return marks
    }

    /// The worm: in the first half of the move the edge towards `to` (the
    /// leading edge) runs from `from`'s to `to`'s, in the second half the
    /// other (trailing) edge follows.
    private static func worm(from: Rect, to: Rect, progress: Double) -> Rect {
        let forward = to.midX >= from.midX
        let firstHalf = progress < 0.5
        let stage = firstHalf ? 2 * progress : 2 * progress - 1
        var left = from.x, right = from.x + from.width
        let (toLeft, toRight) = (to.x, to.x + to.width)
        // Forward, the leading edge is the right one; backward, the left one.
        if forward == firstHalf {
            right = mix(right, toRight, stage)
            if !firstHalf { left = toLeft }
        } else {
            left = mix(left, toLeft, stage)
            if !firstHalf { right = toRight }
        }
        let across = from.mixed(with: to, by: progress)
        return Rect(x: left, y: across.y, width: right - left, height: across.height)
    }
}
