extension IndicatorSpec {
    /// The font size of text (bar titles, fractions): `1.5·size`.
    var textFontSize: Double { 1.5 * size }

    /// A thin line's thickness (bar's track, fraction's rule): `size/8` rounded, at least 1.
    var hairline: Double { max(1, (size / 8).rounded()) }
}
