/// An IPv4 or IPv6 address: what a URL's IP-literal host denotes, or what a
/// socket is about to connect to. Its `description` is the canonical text.
public enum IPAddress: Hashable, Sendable {
    /// An IPv4 address, its first byte the most significant (`127.0.0.1` is `0x7F00_0001`).
    case v4(UInt32)
    /// An IPv6 address, its first byte the most significant.
    case v6(UInt128)

    /// The address whose network-order bytes these are: 4 for IPv4, 16 for
    /// IPv6 (as a socket address holds them); nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4: self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16: self = .v6(bytes.reduce(0) { $0 << 8 | UInt128($1) })
        default: return nil
        }
    }

    /// The address as a URL's host would denote it: an IPv6 address (RFC 4291
    /// text, with or without brackets; zone ids refused), or an IPv4 address
    /// (without brackets) in any notation the WHATWG URL parser accepts
    /// (`127.0.0.1`, `127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, a
    /// trailing dot); nil when the text is neither, or a number out of range.
    public init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        let bracketed = bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]")
        if bracketed {
            bytes = bytes.dropFirst().dropLast()
        }
        if bracketed || bytes.contains(UInt8(ascii: ":")) {
            guard let value = Self.parseIPv6(bytes) else { return nil }
            self = .v6(value)
        } else {
            let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard case .address(let value) = Self.readIPv4Host(labels: labels) else { return nil }
            self = .v4(value)
        }
    }

    /// The network-order bytes: 4 for IPv4, 16 for IPv6.
    public var bytes: [UInt8] {
        switch self {
        case .v4(let value): (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        case .v6(let value): (0..<16).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
    }
}

extension IPAddress: CustomStringConvertible {
    /// The canonical text, without brackets: a dotted quad for IPv4; for IPv6
    /// RFC 5952's form (lower-case hex without leading zeros, the longest run
    /// of two or more zero groups written `::`, the first of equal runs), and
    /// for an IPv4-mapped address its §5 form, `::ffff:127.0.0.1`.
    public var description: String {
        switch self {
        case .v4(let value):
            return Self.dottedQuad(value)
        case .v6(let value) where value >> 32 == 0xFFFF:
            return "::ffff:" + Self.dottedQuad(UInt32(truncatingIfNeeded: value))
        case .v6(let value):
            let groups = (0..<8).reversed().map { UInt16(truncatingIfNeeded: value >> ($0 * 16)) }
            var longest = 0..<0, run = 0..<0
            for (index, group) in groups.enumerated() where group == 0 {
                run = run.upperBound == index ? run.lowerBound..<index + 1 : index..<index + 1
                if run.count > longest.count { longest = run }
            }
            func hex(_ part: ArraySlice<UInt16>) -> String {
                part.map { String($0, radix: 16) }.joined(separator: ":")
            }
            guard longest.count >= 2 else { return hex(groups[...]) }
            return hex(groups[..<longest.lowerBound]) + "::" + hex(groups[longest.upperBound...])
        }
    }

    /// `a.b.c.d`.
    static func dottedQuad(_ value: UInt32) -> String {
        (0..<4).reversed().map { String(UInt8(truncatingIfNeeded: value >> ($0 * 8))) }.joined(separator: ".")
    }
}
