/// The advances of the characters that `style=fraction` writes (digits, the
/// thin space U+2009 and the slash) in DejaVu Sans, the text's primary
/// family, so that the core can size a fraction's canvas while it parses,
/// with no text layout engine (docs/styles.md, "fraction").
///
/// In font units, 2048 to the em, as the font files give them: an advance at
/// a font size `F` is `F · units / 2048` points. DejaVu Sans's figures are
/// tabular (every digit has one advance), and it kerns none of these
/// characters against each other, so a text's advance is the sum of its
/// characters'. The renderer's tests check that the text layout engine
/// measures every fraction's text exactly so, which catches a change of font.
public enum FractionMetrics {
    /// Font units to the em.
    public static let unitsPerEm = 2048
    /// The thin space (U+2009), in either weight.
    public static let thinSpaceUnits = 409
    /// The regular slash.
    public static let slashUnits = 690

    /// Every digit's advance in `weight` (DejaVu Sans, or its bold for semibold).
    public static func digitUnits(_ weight: FontWeight) -> Int {
        switch weight {
        case .regular: 1303
        case .semibold: 1425
        }
    }

    /// The advance of `number` (positive) written in decimal digits.
    public static func units(ofNumber number: Int, weight: FontWeight) -> Int {
        digitCount(of: number) * digitUnits(weight)
    }

    /// The advance of the separator, thin space, slash, thin space, in regular.
    public static var separatorUnits: Int { 2 * thinSpaceUnits + slashUnits }

    /// `units` at `fontSize`, in points.
    public static func points(_ units: Int, fontSize: Double) -> Double {
        fontSize * Double(units) / Double(unitsPerEm)
    }

    /// How many decimal digits `number` (positive) has.
    static func digitCount(of number: Int) -> Int {
        var count = 1, rest = number
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}
