/// The number grammars of image parameters, read from UTF-8 bytes, and the
/// shortest decimal text of a number (for messages and cache keys).
enum DecimalText {
    /// Integers larger than this read as this: above every range, and far
    /// from overflowing `Int`.
    static let integerCeiling = 1_000_000_000

    /// ASCII digits only, at least one (`05` is 5; no sign, point or space),
    /// capped at `integerCeiling`; nil for anything else.
    static func integer(_ bytes: some Collection<UInt8>) -> Int? {
        integer(bytes, ceiling: Int64(integerCeiling)).map { Int($0) }
    }

    /// The same, capped at `ceiling` instead (which must be far from `Int64.max`).
    static func integer(_ bytes: some Collection<UInt8>, ceiling: Int64) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard let digit = digitValue(byte) else { return nil }
            value = min(value * 10 + Int64(digit), ceiling)
        }
        return value
    }

    /// `digits` or `digits.digits` (no sign, exponent, or bare leading or
    /// trailing `.`), correctly rounded; nil for anything else.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] }
        guard !whole.isEmpty, whole.allSatisfy({ digitValue($0) != nil }) else { return nil }
        if let fraction, fraction.isEmpty || !fraction.allSatisfy({ digitValue($0) != nil }) { return nil }
        // The grammar is a subset of what `Double` reads; short values stay small strings (no allocation).
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The shortest decimal text that reads back as `value`, without a
    /// trailing `.0`: `7.5`, `8`, `0.25`.
    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int(value))  // the usual whole number, without the cost of shortest-digits printing
        }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
