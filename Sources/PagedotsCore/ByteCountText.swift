/// The grammar of a number of bytes (`budget`): ASCII digits, or a decimal
/// number with `k` (×1,000) or `M` (×1,000,000) after it, read exactly.
enum ByteCountText {
    /// The multipliers a number may end with.
    private static let units: [(suffix: UInt8, multiplier: Int64)] = [(UInt8(ascii: "k"), 1_000), (UInt8(ascii: "M"), 1_000_000)]

    /// The bytes `text` stands for: `750000`, `750k`, `1M`, `1.5M`; nil for
    /// anything else, or a number that does not come out whole (`1.5k` is
    /// 1,500; `0.0005k` is not a number of bytes). Values beyond every range
    /// read as `DecimalText.integerCeiling`.
    static func parse(_ text: ArraySlice<UInt8>) -> Int? {
        guard let last = text.last else { return nil }
        guard let unit = units.first(where: { $0.suffix == last }) else {
            return DecimalText.integer(text)
        }
        let number = text.dropLast()
        let point = number.firstIndex(of: UInt8(ascii: "."))
        let ceiling = Int64(DecimalText.integerCeiling)
        guard let whole = DecimalText.integer(number[..<(point ?? number.endIndex)], ceiling: ceiling) else { return nil }
        var value = min(whole * unit.multiplier, ceiling)
        if let point {
            let fraction = number[(point + 1)...]
            // Each digit past the point is a tenth of the one before: it must still be whole bytes.
            var place = unit.multiplier
            guard !fraction.isEmpty, fraction.count <= 6 else { return nil }
            for digit in fraction {
                guard let digits = DecimalText.integer(CollectionOfOne(digit)) else { return nil }
                guard place % 10 == 0 || digits == 0 else { return nil }
                place /= 10
                value = min(value + Int64(digits) * place, ceiling)
            }
        }
        return Int(value)
    }

    /// `count` in the unit that writes it shortly, to a tenth at most:
    /// `10k`, `750k`, `1.5M`, `100M`; else its digits.
    static func format(_ count: Int) -> String {
        for unit in units.reversed() where count >= Int(unit.multiplier) && count % Int(unit.multiplier / 10) == 0 {
            return DecimalText.format(Double(count) / Double(unit.multiplier)) + String(UnicodeScalar(unit.suffix))
        }
        return String(count)
    }
}
