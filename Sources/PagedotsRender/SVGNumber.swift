/// Numbers as the SVG writes them: fixed-point, in the shortest form that
/// keeps their value (`12`, `.5`, `-1.25`; no trailing zeros, no leading
/// zero before the point).
enum SVGNumber {
    /// Path coordinates are whole hundredths of a point (`CairoPath.decimals`),
    /// as the PNG draws them.
    static let pathDecimals = CairoPath.decimals
    /// Lengths worked out from rounded path coordinates (a circle's centre
    /// between two rounded edges, a ring's centre line) are whole thousandths.
    static let shapeDecimals = pathDecimals + 1

    /// `value` rounded to `digits` decimals, shortest form: `12`, `0.5` → `.5`, `-1.25`.
    static func text(_ value: Double, digits: Int = pathDecimals) -> String {
        let scaled = (value * Double(power(digits))).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
        return text(units: Int(scaled), decimals: digits)
    }

    /// `units` × 10^-`decimals`, shortest form: (125, 2) → `1.25`, (-50, 2) → `-.5`.
    static func text(units: Int, decimals: Int) -> String {
        let unit = power(decimals)
        let whole = abs(units) / unit
        var fraction = abs(units) % unit
        var text = units < 0 ? "-" : ""
        if whole != 0 || fraction == 0 { text += String(whole) }
        if fraction != 0 {
            var fractionDigits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                fractionDigits -= 1
            }
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: fractionDigits - digitsText.count) + digitsText
        }
        return text
    }

    /// `value` in whole units of 10^-`decimals` (hundredths for paths), rounded half away from zero.
    static func units(_ value: Double, decimals: Int = pathDecimals) -> Int {
        let scaled = (value * Double(power(decimals))).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return 0 }
        return Int(scaled)
    }

    /// 10 to the power `exponent`.
    static func power(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { product, _ in product * 10 }
    }

    /// Appends `number` to `text` after `previous` (the number written just
    /// before it with no command between, or nil), with a separator only
    /// where the two would otherwise run together: none before a minus sign,
    /// nor before a point when the previous number already has one (`.5.5`).
    static func append(_ number: String, after previous: String?, to text: inout String) {
        if let previous, needsSeparator(between: previous, and: number) { text.append(" ") }
        text += number
    }

    /// Whether `next` written right after `previous` would read as part of it.
    static func needsSeparator(between previous: String, and next: String) -> Bool {
        guard let first = next.first else { return false }
        if first == "-" { return false }
        if first == ".", previous.contains(".") { return false }
        return true
    }
}
