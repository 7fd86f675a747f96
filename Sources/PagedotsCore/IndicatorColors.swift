/// The two colours an indicator is drawn in: the current indicator's and the others'.
public struct IndicatorColors: Hashable, Sendable {
    public var current: RGBA
    public var inactive: RGBA

    public init(current: RGBA, inactive: RGBA) {
        self.current = current
        self.inactive = inactive
    }

    /// The colours `fraction` of the way from these to `other`
    /// (`RGBA.interpolated(to:by:)`).
    func interpolated(to other: IndicatorColors, by fraction: Double) -> IndicatorColors {
        IndicatorColors(
            current: current.interpolated(to: other.current, by: fraction),
            inactive: inactive.interpolated(to: other.inactive, by: fraction)
        )
    }
}
