/// Punycode (RFC 3492), the encoder only: what turns an IDNA label's
/// Unicode characters into the ASCII after `xn--`.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    /// The Punycode of `input` (RFC 3492 §6.3): its basic (ASCII) code
    /// points as they are, a `-` if there were any, then the deltas in
    /// lower-case base 36. Nil if a delta overflows (RFC 3492 §6.4), which
    /// needs far longer input than a DNS label.
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output = String(String.UnicodeScalarView(input.filter(\.isASCII)))
        let basicCount = output.unicodeScalars.count
        if basicCount > 0 { output.append("-") }
        let codePoints = input.map { Int($0.value) }
        var n = initialN, delta = 0, bias = initialBias, handled = basicCount
        while handled < codePoints.count {
            guard let next = codePoints.filter({ $0 >= n }).min() else { return nil }
            let (scaled, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, let increased = add(delta, scaled) else { return nil }
            delta = increased
            n = next
            for scalar in codePoints {
                if scalar < n {
                    guard let increased = add(delta, 1) else { return nil }
                    delta = increased
                } else if scalar == n {
                    var q = delta
                    for k in stride(from: base, to: Int.max, by: base) {
                        let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                        if q < t { break }
                        output.unicodeScalars.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                    }
                    output.unicodeScalars.append(digit(q))
                    bias = adapt(delta, count: handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    /// `a + b`, or nil on overflow.
    private static func add(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// The digit for 0…35: `a`…`z`, then `0`…`9`.
    private static func digit(_ value: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26))
    }

    /// The bias adaptation of RFC 3492 §6.1.
    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
