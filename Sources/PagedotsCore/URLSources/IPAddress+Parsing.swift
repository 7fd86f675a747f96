/// The text forms of IP addresses in URL hosts, read as the WHATWG URL
/// Standard reads them (its "IPv4 parser", "ends in a number" rule and "IPv6
/// parser"), so that a host means here what it means to a browser or to curl.
extension IPAddress {
    /// What an ASCII host (cut into its dot-separated labels) is to the IPv4 parser.
    enum IPv4HostReading: Equatable {
        /// The last label is not a number: the host is a domain name.
        case notNumeric
        /// An IPv4 address in any notation.
        case address(UInt32)
        /// It ends in a number yet is no IPv4 address (`1.2.3.256`,
        /// `example.123`, `09`): WHATWG refuses it rather than read a domain.
        case invalid
    }

    /// WHATWG's IPv4 parser behind its "ends in a number" check: up to four
    /// dot-separated numbers, each decimal, `0x` hex or `0`-prefixed octal;
    /// every part but the last at most 255, the last filling the remaining
    /// bytes (`127.1` is `127.0.0.1`, `2130706433` is too); one trailing dot
    /// allowed.
    static func readIPv4Host(labels: [ArraySlice<UInt8>]) -> IPv4HostReading {
        var parts = labels
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard let last = parts.last, !last.isEmpty,
              last.allSatisfy(isDecimalDigit) || ipv4Number(last) != nil
        else { return .notNumeric }
        guard parts.count <= 4 else { return .invalid }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = ipv4Number(part) else { return .invalid }
            numbers.append(number)
        }
        guard let lastNumber = numbers.last, numbers.dropLast().allSatisfy({ $0 <= 255 }),
              lastNumber < 1 << (8 * (5 - numbers.count))
        else { return .invalid }
        var value = lastNumber
        for (index, number) in numbers.dropLast().enumerated() {
            value += number << (8 * (3 - index))
        }
        return .address(UInt32(truncatingIfNeeded: value))
    }

    /// WHATWG's IPv4 number parser: `0x`/`0X` then hex digits (none is 0),
    /// `0` then octal digits, or decimal; nil for an empty part or a digit
    /// outside its radix. Values saturate at 2⁴⁰, past every range check.
    static func ipv4Number(_ part: ArraySlice<UInt8>) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part, radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            let second = digits[digits.startIndex + 1]
            if second == UInt8(ascii: "x") || second == UInt8(ascii: "X") {
                radix = 16
                digits = digits.dropFirst(2)
            } else {
                radix = 8
                digits = digits.dropFirst()
            }
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = PercentDecoding.hexValue(byte), UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 40)
        }
        return value
    }

    /// Whether `byte` is an ASCII decimal digit.
    static func isDecimalDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// WHATWG's IPv6 parser (the text between a URL's brackets): eight groups
    /// of one to four hex digits, one `::` for one or more zero groups, the
    /// last 32 bits optionally a strict dotted quad (`::ffff:127.0.0.1`; no
    /// leading zeros, no other IPv4 notation); nil for anything else,
    /// including a zone id (`%eth0`).
    static func parseIPv6(_ text: ArraySlice<UInt8>) -> UInt128? {
        var groups = [UInt16](repeating: 0, count: 8)
        var groupIndex = 0, compress: Int?
        var position = text.startIndex
        func byte(at offset: Int = 0) -> UInt8? {
            position + offset < text.endIndex ? text[position + offset] : nil
        }
        let colon = UInt8(ascii: ":"), dot = UInt8(ascii: ".")
        if byte() == colon {
            guard byte(at: 1) == colon else { return nil }
            position += 2
            groupIndex += 1
            compress = groupIndex
        }
        while let current = byte() {
            guard groupIndex < 8 else { return nil }
            if current == colon {
                guard compress == nil else { return nil }
                position += 1
                groupIndex += 1
                compress = groupIndex
                continue
            }
            var value: UInt16 = 0, length = 0
            while length < 4, let next = byte(), let digit = PercentDecoding.hexValue(next) {
                value = value << 4 | UInt16(digit)
                position += 1
                length += 1
            }
            if byte() == dot {
                guard length > 0, groupIndex <= 6 else { return nil }
                position -= length
                guard let ipv4 = parseEmbeddedIPv4(text[position...]) else { return nil }
                groups[groupIndex] = UInt16(truncatingIfNeeded: ipv4 >> 16)
                groups[groupIndex + 1] = UInt16(truncatingIfNeeded: ipv4)
                groupIndex += 2
                position = text.endIndex
                break
            }
            if byte() == colon {
                position += 1
                guard byte() != nil else { return nil }
            } else if byte() != nil {
                return nil
            }
            groups[groupIndex] = value
            groupIndex += 1
        }
        if let compress {
            let moved = groupIndex - compress
            let zeros = 8 - groupIndex
            groups = Array(groups[..<compress]) + Array(repeating: 0, count: zeros) + Array(groups[compress..<compress + moved])
        } else if groupIndex != 8 {
            return nil
        }
        return groups.reduce(0) { $0 << 16 | UInt128($1) }
    }

    /// The dotted quad that ends an IPv6 address: exactly four decimal parts
    /// of at most 255, none with a leading zero.
    private static func parseEmbeddedIPv4(_ text: ArraySlice<UInt8>) -> UInt32? {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(isDecimalDigit),
                  part.count == 1 || part.first != UInt8(ascii: "0")
            else { return nil }
            let number = part.reduce(0) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) }
            guard number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }
}
