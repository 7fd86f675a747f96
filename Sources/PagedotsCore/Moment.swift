/// What one frame of an animation shows (docs/styles.md, "Animation").
public enum Moment: Hashable, Sendable {
    /// A page at rest, exactly as the still image with that page current
    /// draws it; `fill` is the progress style's timer, drawn as its
    /// `progress` (always 0 for the other styles).
    case rest(page: Int, fill: Double)
    /// The current indicator part way from one page to the next.
    case move(Move)
}

/// The current indicator part way from one page to the next, as an effect draws it.
public struct Move: Hashable, Sendable {
    /// The page it leaves.
    public var from: Int
    /// The page it reaches (the same page only in a one-page progress timer).
    public var to: Int
    /// How far it has gone, eased: strictly between 0 and 1 (the ends are rests).
    public var progress: Double
    public var effect: Effect
    /// The progress style's timer on `from` as the move starts (0 for the other styles).
    public var fill: Double

    public init(from: Int, to: Int, progress: Double, effect: Effect, fill: Double) {
        self.from = from
        self.to = to
        self.progress = progress
        self.effect = effect
        self.fill = fill
    }
}

/// `a` at 0, `b` at 1, and the straight line between: exactly `a` and `b` at the ends.
func mix(_ a: Double, _ b: Double, _ fraction: Double) -> Double {
    a * (1 - fraction) + b * fraction
}

extension Rect {
    /// This box `fraction` of the way to `other`, every edge moving in a straight line.
    func mixed(with other: Rect, by fraction: Double) -> Rect {
        Rect(
            x: mix(x, other.x, fraction), y: mix(y, other.y, fraction),
            width: mix(width, other.width, fraction), height: mix(height, other.height, fraction)
        )
    }
}
