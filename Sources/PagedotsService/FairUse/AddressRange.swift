/// A block of IP addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`), or
/// one address: a `--trusted-proxy` (docs/operating.md, "Fair use").
struct AddressRange: Hashable, Sendable {
    /// The first address of the block: its bits beyond the prefix are zero.
    let first: ClientAddress
    /// Leading bits that every address of the block shares, of the 128
    /// (an IPv4 block's prefix plus the 96 of the IPv4-mapped prefix).
    let prefixLength: Int

    /// `address/length` (length 0…32 after an address written as IPv4,
    /// 0…128 after one written as IPv6, decimal digits), or a bare address
    /// (the block of that one address). Bits
    /// beyond the prefix are ignored (`10.1.2.3/8` is `10.0.0.0/8`). Nil for
    /// anything else.
    init?(_ text: Substring) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = ClientAddress(parts[0]) else { return nil }
        // The length counts the bits of the notation: `::ffff:10.0.0.0/104` is `10.0.0.0/8`.
        let maximum = parts[0].contains(":") ? 128 : 32
        var length = maximum
        if parts.count == 2 {
            guard (1...3).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let given = Int(parts[1]), given <= maximum else { return nil }
            length = given
        }
        prefixLength = length + (maximum == 32 ? 96 : 0)
        first = Self.masked(address, prefixLength)
    }

    /// Whether `address` is in the block.
    func contains(_ address: ClientAddress) -> Bool {
        Self.masked(address, prefixLength) == first
    }

    /// `address` with every bit after the first `length` set to zero.
    static func masked(_ address: ClientAddress, _ length: Int) -> ClientAddress {
        let mask = { (bits: Int) -> UInt64 in bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits)) }
        return ClientAddress(high: address.high & mask(length), low: address.low & mask(length - 64))
    }
}
