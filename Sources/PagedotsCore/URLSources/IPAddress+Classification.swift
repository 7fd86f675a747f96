/// What an address is, as far as a fetch is concerned: public unicast, or the
/// kind of special-purpose range (IANA's IPv4 and IPv6 special-purpose
/// address registries) that a fetch must not reach.
public enum AddressCategory: String, CaseIterable, Hashable, Sendable {
    /// Globally reachable unicast: the only kind a fetch connects to.
    case publicUnicast
    /// `0.0.0.0/8` ("this network", `0.0.0.0` included) and `::`.
    case unspecified
    /// `127.0.0.0/8` and `::1`.
    case loopback
    /// `10/8`, `172.16/12`, `192.168/16` and `fc00::/7` (unique local).
    case privateUse
    /// `100.64.0.0/10`, carrier-grade NAT's shared space.
    case shared
    /// `169.254/16` (cloud metadata services live here) and `fe80::/10`.
    case linkLocal
    /// `224/4` and `ff00::/8`.
    case multicast
    /// `255.255.255.255`.
    case broadcast
    /// Reserved or special-purpose and not globally reachable: `240/4`,
    /// `192.0.0.0/24` (IETF protocol assignments), `192.88.99.0/24` (the
    /// deprecated 6to4 relay anycast), `198.18/15` (benchmarking);
    /// `2001::/23` (IETF protocol assignments, benchmarking `2001:2::/48`,
    /// ORCHID `2001:10::/28` and the rest, Teredo apart), every IPv6 address
    /// outside `2000::/3` not named elsewhere here (discard-only `100::/64`,
    /// `::/8` beyond the IPv4-carrying forms, unallocated space), and a
    /// local-use NAT64 address not in its `/96` form.
    case reserved
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`, `3fff::/20`.
    case documentation
    /// `fec0::/10`, deprecated but still routed inside some sites.
    case siteLocal

    /// The phrase a refusal gives: "a loopback address". Empty for public unicast.
    public var phrase: String {
        switch self {
        case .publicUnicast: ""
        case .unspecified: "an unspecified address"
        case .loopback: "a loopback address"
        case .privateUse: "a private address"
        case .shared: "a shared (carrier-grade NAT) address"
        case .linkLocal: "a link-local address"
        case .multicast: "a multicast address"
        case .broadcast: "the broadcast address"
        case .reserved: "a reserved address"
        case .documentation: "a documentation address"
        case .siteLocal: "a site-local address"
        }
    }

    /// Whether `--allow-private-sources` lifts the refusal: loopback and private only.
    public var isLoopbackOrPrivate: Bool {
        self == .loopback || self == .privateUse
    }
}

/// How an IPv6 address carries an IPv4 one, by which it is judged.
public enum IPv4Carrier: String, CaseIterable, Hashable, Sendable {
    /// `::ffff:0:0/96`, IPv4-mapped: the last 32 bits.
    case mapped
    /// `::/96`, IPv4-compatible (deprecated): the last 32 bits (`::` and `::1` excepted).
    case compatible
    /// `64:ff9b::/96`, NAT64's well-known prefix: the last 32 bits.
    case nat64
    /// `64:ff9b:1::/48`, local-use NAT64 (RFC 8215): the last 32 bits, in the
    /// `/96` form operators use, so only when bits 48–95 are zero (the
    /// other RFC 6052 layouts put the IPv4 address elsewhere and cannot be
    /// told apart; they are `reserved`).
    case localNAT64
    /// `2002::/16`, 6to4: bits 16–47.
    case sixToFour
    /// `2001::/32`, Teredo: the client, the last 32 bits inverted.
    case teredoClient
    /// `2001::/32`, Teredo: the server, bits 32–63.
    case teredoServer

    /// "an IPv4-mapped IPv6 address", for a refusal's reason.
    public var phrase: String {
        switch self {
        case .mapped: "an IPv4-mapped IPv6 address"
        case .compatible: "an IPv4-compatible IPv6 address"
        case .nat64: "a NAT64 address"
        case .localNAT64: "a local-use NAT64 address"
        case .sixToFour: "a 6to4 address"
        case .teredoClient: "a Teredo address (its client)"
        case .teredoServer: "a Teredo address (its server)"
        }
    }
}

/// An address's category, and, when an IPv4 address carried in an IPv6 one
/// decided it, how it was carried and which it was.
public struct AddressClassification: Hashable, Sendable {
    /// What decides whether a fetch may connect.
    public let category: AddressCategory
    /// How the IPv4 address that decided the category was carried; nil when
    /// the address's own range decided.
    public let carrier: IPv4Carrier?
    /// The carried IPv4 address that decided the category; nil with `carrier`.
    public let carriedIPv4: UInt32?

    /// A classification by the address's own range.
    init(_ category: AddressCategory) {
        self.init(category: category, carrier: nil, carriedIPv4: nil)
    }

    /// A classification by a carried IPv4 address.
    init(carrying ipv4: UInt32, as carrier: IPv4Carrier) {
        self.init(category: IPAddress.category(ofIPv4: ipv4), carrier: carrier, carriedIPv4: ipv4)
    }

    /// Memberwise.
    public init(category: AddressCategory, carrier: IPv4Carrier?, carriedIPv4: UInt32?) {
        self.category = category
        self.carrier = carrier
        self.carriedIPv4 = carriedIPv4
    }
}

extension IPAddress {
    /// The address's category. An IPv6 address that carries an IPv4 one (see
    /// `IPv4Carrier`) is judged by that IPv4 address; a Teredo address by
    /// both its client and its server, the stricter deciding (a category
    /// `--allow-private-sources` cannot lift over one it can, over public).
    public var classification: AddressClassification {
        switch self {
        case .v4(let value): AddressClassification(Self.category(ofIPv4: value))
        case .v6(let value): Self.classification(ofIPv6: value)
        }
    }

    /// IPv4 special-purpose ranges, the first that holds an address decides.
    private static let ipv4Ranges: [(base: UInt32, prefixLength: Int, category: AddressCategory)] = [
        (0x0000_0000, 8, .unspecified),  // 0.0.0.0/8
        (0x0A00_0000, 8, .privateUse),  // 10.0.0.0/8
        (0x6440_0000, 10, .shared),  // 100.64.0.0/10
        (0x7F00_0000, 8, .loopback),  // 127.0.0.0/8
        (0xA9FE_0000, 16, .linkLocal),  // 169.254.0.0/16
        (0xAC10_0000, 12, .privateUse),  // 172.16.0.0/12
        (0xC000_0000, 24, .reserved),  // 192.0.0.0/24
        (0xC000_0200, 24, .documentation),  // 192.0.2.0/24
        (0xC058_6300, 24, .reserved),  // 192.88.99.0/24
        (0xC0A8_0000, 16, .privateUse),  // 192.168.0.0/16
        (0xC612_0000, 15, .reserved),  // 198.18.0.0/15
        (0xC633_6400, 24, .documentation),  // 198.51.100.0/24
        (0xCB00_7100, 24, .documentation),  // 203.0.113.0/24
        (0xE000_0000, 4, .multicast),  // 224.0.0.0/4
        (0xFFFF_FFFF, 32, .broadcast),  // 255.255.255.255/32, before 240/4
        (0xF000_0000, 4, .reserved),  // 240.0.0.0/4
    ]

    /// IPv6 ranges that carry no IPv4 address, the first that holds an address
    /// decides; after them, `2000::/3` is public and the rest reserved.
    private static let ipv6Ranges: [(base: UInt128, prefixLength: Int, category: AddressCategory)] = [
        (0xFC00 << 112, 7, .privateUse),  // fc00::/7
        (0xFE80 << 112, 10, .linkLocal),  // fe80::/10
        (0xFEC0 << 112, 10, .siteLocal),  // fec0::/10
        (0xFF00 << 112, 8, .multicast),  // ff00::/8
        (0x2001_0DB8 << 96, 32, .documentation),  // 2001:db8::/32
        (0x3FFF << 112, 20, .documentation),  // 3fff::/20
        (0x2001 << 112, 23, .reserved),  // 2001::/23, after Teredo's 2001::/32
        (0x2000 << 112, 3, .publicUnicast),  // 2000::/3, global unicast
    ]

    /// The category of an IPv4 address by its own range.
    static func category(ofIPv4 value: UInt32) -> AddressCategory {
        ipv4Ranges.first { value >> (32 - $0.prefixLength) == $0.base >> (32 - $0.prefixLength) }?.category ?? .publicUnicast
    }

    /// The classification of an IPv6 address: its IPv4-carrying forms first,
    /// then its own range.
    private static func classification(ofIPv6 value: UInt128) -> AddressClassification {
        func within(_ base: UInt128, _ prefixLength: Int) -> Bool {
            value >> (128 - prefixLength) == base >> (128 - prefixLength)
        }
        let last32 = UInt32(truncatingIfNeeded: value)
        switch value {
        case 0: return AddressClassification(.unspecified)
        case 1: return AddressClassification(.loopback)
        case _ where within(0xFFFF << 32, 96): return AddressClassification(carrying: last32, as: .mapped)
        case _ where within(0, 96): return AddressClassification(carrying: last32, as: .compatible)
        case _ where within(0x64_FF9B << 96, 96): return AddressClassification(carrying: last32, as: .nat64)
        case _ where within(0x64_FF9B_0001 << 80, 48):
            let middle = value >> 32 & (1 << 48 - 1)
            return middle == 0 ? AddressClassification(carrying: last32, as: .localNAT64) : AddressClassification(.reserved)
        case _ where within(0x2002 << 112, 16):
            return AddressClassification(carrying: UInt32(truncatingIfNeeded: value >> 80), as: .sixToFour)
        case _ where within(0x2001_0000 << 96, 32):
            let client = AddressClassification(carrying: ~last32, as: .teredoClient)
            let server = AddressClassification(carrying: UInt32(truncatingIfNeeded: value >> 64), as: .teredoServer)
            return strictness(server.category) > strictness(client.category) ? server : client
        default:
            return AddressClassification(ipv6Ranges.first { within($0.base, $0.prefixLength) }?.category ?? .reserved)
        }
    }

    /// How strict a refusal is: public 0, what `--allow-private-sources` lifts 1, the rest 2.
    private static func strictness(_ category: AddressCategory) -> Int {
        category == .publicUnicast ? 0 : category.isLoopbackOrPrivate ? 1 : 2
    }
}
