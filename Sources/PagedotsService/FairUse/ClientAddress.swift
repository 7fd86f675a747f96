/// An IP address, IPv4 or IPv6, as 128 bits: an IPv4 address is held
/// IPv4-mapped (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2), so that `10.0.0.1`
/// and `::ffff:10.0.0.1` (what a dual-stack socket reports) are one address.
struct ClientAddress: Hashable, Sendable {
    /// The first 64 bits, network order.
    var high: UInt64
    /// The last 64 bits.
    var low: UInt64

    /// `::`: the address of a request that came from no socket.
    static let unspecified = ClientAddress(high: 0, low: 0)

    /// The IPv4-mapped prefix `::ffff:0:0/96`, in `low`'s upper half.
    private static let mappedMarker: UInt64 = 0xFFFF << 32

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An IPv4 address.
    init(ipv4 value: UInt32) {
        self.init(high: 0, low: Self.mappedMarker | UInt64(value))
    }

    /// From 4 bytes (IPv4) or 16 (IPv6), network order, as
    /// `HTTPRequest.peerAddress` gives them; nil for any other count.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.init(ipv4: bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16:
            self.init(
                high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
                low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            )
        default: return nil
        }
    }

    /// Whether this is an IPv4 address.
    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// An address as written: dotted-quad IPv4 (four decimal numbers
    /// 0…255, no sign, at most three digits each), or IPv6 text (RFC 4291
    /// §2.2: eight groups of one to four hex digits, one `::`, a dotted IPv4
    /// tail), without brackets, zone or port. Nil for anything else.
    init?(_ text: Substring) {
        if let ipv4 = Self.parseIPv4(text) {
            self.init(ipv4: ipv4)
        } else if let (high, low) = Self.parseIPv6(text) {
            self.init(high: high, low: low)
        } else {
            return nil
        }
    }

    private static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let byte = UInt32(part), byte <= 255 else { return nil }
            value = value << 8 | byte
        }
        return value
    }

    private static func parseIPv6(_ text: Substring) -> (UInt64, UInt64)? {
        let gaps = text.ranges(of: "::")
        guard gaps.count <= 1 else { return nil }
        let gap = gaps.first
        guard let head = groups(text[..<(gap?.lowerBound ?? text.endIndex)], allowsIPv4Tail: gap == nil) else { return nil }
        var all = head
        if let gap {
            guard let tail = groups(text[gap.upperBound...], allowsIPv4Tail: true), head.count + tail.count <= 7 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        let pack = { (range: Range<Int>) in all[range].reduce(UInt64(0)) { $0 << 16 | UInt64($1) } }
        return (pack(0..<4), pack(4..<8))
    }

    /// The 16-bit groups of one side of `::` (empty text: none); a dotted
    /// IPv4 address may stand for the last two.
    private static func groups(_ text: Substring, allowsIPv4Tail: Bool) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        var groups: [UInt16] = []
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, allowsIPv4Tail, part.contains("."), let ipv4 = parseIPv4(part) {
                groups += [UInt16(ipv4 >> 16), UInt16(ipv4 & 0xFFFF)]
            } else {
                guard (1...4).contains(part.utf8.count), part.allSatisfy(\.isHexDigit),
                      let group = UInt16(part, radix: 16) else { return nil }
                groups.append(group)
            }
        }
        return groups
    }
}
