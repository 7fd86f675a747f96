import Testing
import PagedotsCore

/// The address classifier, exhaustively on its ranges, as pure functions:
/// nothing here connects anywhere. Each range is probed at its first and
/// last address, one inside, and the neighbours just outside; the expected
/// category comes from this file's own table of ranges (the longest prefix
/// that holds an address decides), written from SPEC.md and IANA's
/// special-purpose address registries.
@Suite struct AddressClassificationTests {
    typealias Range = (cidr: String, category: AddressCategory)

    static let ipv4Ranges: [Range] = [
        ("0.0.0.0/8", .unspecified), ("10.0.0.0/8", .privateUse), ("100.64.0.0/10", .shared), ("127.0.0.0/8", .loopback),
        ("169.254.0.0/16", .linkLocal), ("172.16.0.0/12", .privateUse), ("192.0.0.0/24", .reserved), ("192.0.2.0/24", .documentation),
        ("192.88.99.0/24", .reserved), ("192.168.0.0/16", .privateUse), ("198.18.0.0/15", .reserved), ("198.51.100.0/24", .documentation),
        ("203.0.113.0/24", .documentation), ("224.0.0.0/4", .multicast), ("240.0.0.0/4", .reserved), ("255.255.255.255/32", .broadcast),
    ]

    /// IPv6 ranges that carry no IPv4 address; `nil` marks the carrying
    /// forms, probed by the tests further down.
    static let ipv6Ranges: [(cidr: String, category: AddressCategory?)] = [
        ("::/128", .unspecified), ("::1/128", .loopback), ("::ffff:0:0/96", nil), ("::/96", nil), ("64:ff9b::/96", nil),
        ("64:ff9b:1::/48", nil), ("2002::/16", nil), ("2001::/32", nil),
        ("fc00::/7", .privateUse), ("fe80::/10", .linkLocal), ("fec0::/10", .siteLocal), ("ff00::/8", .multicast),
        ("2001:db8::/32", .documentation), ("3fff::/20", .documentation), ("2001::/23", .reserved), ("2001:2::/48", .reserved),
        ("2001:10::/28", .reserved), ("100::/64", .reserved), ("2000::/3", .publicUnicast), ("::/0", .reserved),
    ]

    /// Public IPv4 addresses, to be carried too.
    static let publicIPv4 = ["1.0.0.0", "8.8.8.8", "93.184.216.34", "126.255.255.255", "128.0.0.0", "172.32.0.0", "192.0.1.0",
                             "192.169.0.0", "198.20.0.0", "223.255.255.255", "9.255.255.255", "100.128.0.0"]

    // MARK: - Ranges

    @Test func ipv4RangesAtTheirEdgesAndOutside() throws {
        var publicNeighbours = 0
        for range in Self.ipv4Ranges {
            let (base, length) = try Self.cidr4(range.cidr)
            let last = base | (UInt32.max >> length)
            let inside = [base, base + (last - base) / 2, last]
            for address in inside where length == Self.longestIPv4(holding: address)?.length {
                #expect(IPAddress.v4(address).classification.category == range.category, "\(IPAddress.v4(address)) in \(range.cidr)")
            }
            let outside = (base > 0 ? [base - 1] : []) + (last < .max ? [last + 1] : [])
            for address in outside {
                let expected = Self.longestIPv4(holding: address)?.category ?? .publicUnicast
                publicNeighbours += expected == .publicUnicast ? 1 : 0
                #expect(IPAddress.v4(address).classification.category == expected, "\(IPAddress.v4(address)) next to \(range.cidr)")
            }
        }
        #expect(publicNeighbours >= 20)
    }

    @Test func ipv6RangesAtTheirEdgesAndOutside() throws {
        var probed = 0
        for range in Self.ipv6Ranges {
            let (base, length) = try Self.cidr6(range.cidr)
            let last = base | (UInt128.max >> length)
            let neighbours = (base > 0 ? [base - 1] : []) + (last < .max ? [last + 1] : [])
            for address in [base, base + (last - base) / 2, last] + neighbours {
                guard let expected = Self.longestIPv6(holding: address) else { continue }
                probed += 1
                #expect(IPAddress.v6(address).classification == AddressClassification(category: expected, carrier: nil, carriedIPv4: nil),
                        "\(IPAddress.v6(address)) at \(range.cidr)")
            }
        }
        #expect(probed >= 60)
    }

    @Test(arguments: [
        ("127.0.0.2", AddressCategory.loopback), ("0.0.0.0", .unspecified), ("169.254.169.254", .linkLocal), ("192.0.0.9", .reserved),
        ("100.100.100.200", .shared), ("255.255.255.255", .broadcast), ("255.255.255.254", .reserved), ("93.184.216.34", .publicUnicast),
        ("::", .unspecified), ("::1", .loopback), ("fd00:ec2::254", .privateUse), ("fe80::1", .linkLocal), ("ff02::1", .multicast),
        ("fec0::1", .siteLocal), ("2001:2::1", .reserved), ("2001:20::1", .reserved), ("100::1", .reserved), ("5f00::1", .reserved),
        ("2606:4700::1111", .publicUnicast), ("2a00:1450:4001::200e", .publicUnicast), ("3ffe::1", .publicUnicast),
        ("3fff:fff::1", .documentation), ("::ffff:0:0:1", .reserved), ("1::", .reserved), ("4000::1", .reserved),
    ])
    func namedAddresses(text: String, category: AddressCategory) throws {
        #expect(try #require(IPAddress(text)).classification.category == category, "\(text)")
    }

    // MARK: - IPv4 in IPv6

    /// Every form, carrying each probe of every IPv4 range and public addresses, is judged by the IPv4 address.
    @Test func ipv6AddressesAreJudgedByTheIPv4TheyCarry() throws {
        let publicServer: UInt32 = 0x4136_E378  // 65.54.227.120, a Teredo server
        for ipv4 in try Self.ipv4Probes() {
            let expected = Self.longestIPv4(holding: ipv4)?.category ?? .publicUnicast
            let v4 = UInt128(ipv4)
            var forms: [(UInt128, IPv4Carrier)] = [
                (0xFFFF << 32 | v4, .mapped),
                (0x64_FF9B << 96 | v4, .nat64),
                (0x64_FF9B_0001 << 80 | v4, .localNAT64),
                (0x2002 << 112 | v4 << 80 | 0xABCD << 64 | 1, .sixToFour),
                (0x2001_0000 << 96 | UInt128(publicServer) << 64 | 0x8000_63BF << 32 | UInt128(~ipv4), .teredoClient),
            ]
            if ipv4 > 1 { forms.append((v4, .compatible)) }
            for (address, carrier) in forms {
                let classification = IPAddress.v6(address).classification
                #expect(classification.category == expected, "\(IPAddress.v6(address)) carries \(IPAddress.v4(ipv4))")
                #expect(classification.carrier == carrier && classification.carriedIPv4 == ipv4, "\(IPAddress.v6(address))")
            }
            let teredoServer = 0x2001_0000 << 96 | v4 << 64 | UInt128(~UInt32(0x5DB8_D822))  // client 93.184.216.34
            let judged = IPAddress.v6(teredoServer).classification
            #expect(judged.category == expected, "Teredo server \(IPAddress.v4(ipv4))")
            #expect(judged.carrier == (expected == .publicUnicast ? .teredoClient : .teredoServer))
        }
    }

    @Test(arguments: [
        ("::ffff:127.0.0.1", AddressCategory.loopback), ("::ffff:7f00:1", .loopback), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:10.0.0.1", .privateUse), ("::ffff:0.0.0.0", .unspecified), ("::127.0.0.1", .loopback), ("::0.0.0.2", .unspecified),
        ("::8.8.8.8", .publicUnicast), ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::8.8.8.8", .publicUnicast),
        ("64:ff9b:1::192.168.0.1", .privateUse), ("64:ff9b:1::8.8.8.8", .publicUnicast), ("64:ff9b:1:1::8.8.8.8", .reserved),
        ("64:ff9b:1:0:0:1:808:808", .reserved), ("2002:7f00:1::", .loopback), ("2002:a9fe:a9fe::1", .linkLocal),
        ("2002:808:808::1", .publicUnicast), ("2001:0:4136:e378:8000:63bf:80ff:fffe", .loopback),
        ("2001:0:4136:e378:8000:63bf:a247:27dd", .publicUnicast), ("2001:0:a9fe:a9fe::a247:27dd", .linkLocal),
        ("2001:0:7f00:1::a247:27dd", .loopback),
    ])
    func carriedAddressesInText(text: String, category: AddressCategory) throws {
        #expect(try #require(IPAddress(text)).classification.category == category, "\(text)")
    }

    /// A Teredo address is judged by its stricter half: one that
    /// `--allow-private-sources` cannot lift wins over one it can.
    @Test func teredoTakesTheStricterOfClientAndServer() throws {
        // server 127.0.0.1 (loopback), client 169.254.0.1 (link-local): link-local decides.
        let mixed = 0x2001_0000 << 96 | UInt128(0x7F00_0001) << 64 | UInt128(~UInt32(0xA9FE_0001))
        #expect(IPAddress.v6(mixed).classification.category == .linkLocal)
        #expect(IPAddress.v6(mixed).classification.carrier == .teredoClient)
        // server 169.254.0.1, client 127.0.0.1: still link-local, from the server.
        let swapped = 0x2001_0000 << 96 | UInt128(0xA9FE_0001) << 64 | UInt128(~UInt32(0x7F00_0001))
        #expect(IPAddress.v6(swapped).classification.category == .linkLocal)
        #expect(IPAddress.v6(swapped).classification.carrier == .teredoServer)
    }

    // MARK: - The policy

    @Test func publicUnicastOnlyByDefault() throws {
        let policy = AddressPolicy()
        for address in try Self.allProbes() {
            #expect(policy.allows(address) == (address.classification.category == .publicUnicast), "\(address)")
            #expect((policy.refusal(of: address) == nil) == policy.allows(address))
        }
    }

    /// `--allow-private-sources` lifts loopback and private, in every form, and nothing else.
    @Test func allowPrivateLiftsLoopbackAndPrivateOnly() throws {
        let policy = AddressPolicy(allowPrivate: true)
        for address in try Self.allProbes() {
            let category = address.classification.category
            #expect(policy.allows(address) == [.publicUnicast, .loopback, .privateUse].contains(category), "\(address)")
        }
        for text in ["127.0.0.2", "10.0.0.1", "172.31.255.255", "192.168.1.1", "::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:192.168.0.1",
                     "64:ff9b::10.0.0.1", "2002:c0a8:101::", "::127.0.0.1"] {
            #expect(policy.allows(try #require(IPAddress(text))), "\(text)")
            #expect(!AddressPolicy().allows(try #require(IPAddress(text))), "\(text)")
        }
        for text in ["0.0.0.0", "::", "169.254.169.254", "::ffff:169.254.169.254", "fe80::1", "100.64.0.1", "224.0.0.1", "255.255.255.255",
                     "240.0.0.1", "192.0.2.1", "198.18.0.1", "fec0::1", "ff02::1", "2001:db8::1", "64:ff9b:1:1::1", "192.0.0.170"] {
            #expect(!policy.allows(try #require(IPAddress(text))), "\(text)")
        }
    }

    @Test(arguments: [
        ("127.0.0.1", "a loopback address"), ("10.1.2.3", "a private address"), ("0.0.0.0", "an unspecified address"),
        ("169.254.169.254", "a link-local address"), ("100.64.0.1", "a shared (carrier-grade NAT) address"),
        ("224.0.0.1", "a multicast address"), ("255.255.255.255", "the broadcast address"), ("240.0.0.1", "a reserved address"),
        ("203.0.113.5", "a documentation address"), ("fec0::1", "a site-local address"),
        ("::ffff:169.254.169.254", "a link-local address inside an IPv4-mapped IPv6 address"),
        ("::127.0.0.1", "a loopback address inside an IPv4-compatible IPv6 address"),
        ("64:ff9b::10.0.0.1", "a private address inside a NAT64 address"),
        ("64:ff9b:1::10.0.0.1", "a private address inside a local-use NAT64 address"),
        ("2002:7f00:1::", "a loopback address inside a 6to4 address"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "a loopback address inside a Teredo address (its client)"),
        ("2001:0:7f00:1::a247:27dd", "a loopback address inside a Teredo address (its server)"),
    ])
    func refusalsSayWhy(text: String, reason: String) throws {
        #expect(AddressPolicy().refusal(of: try #require(IPAddress(text))) == reason)
    }

    @Test func publicAddressesHaveNoRefusal() throws {
        for text in Self.publicIPv4 + ["2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1"] {
            #expect(AddressPolicy().refusal(of: try #require(IPAddress(text))) == nil, "\(text)")
        }
    }

    // MARK: - The table

    /// The first, middle and last address of every IPv4 range, their neighbours, and public addresses.
    static func ipv4Probes() throws -> [UInt32] {
        var probes: [UInt32] = []
        for range in ipv4Ranges {
            let (base, length) = try cidr4(range.cidr)
            let last = base | (UInt32.max >> length)
            probes += [base, base + (last - base) / 2, last] + (base > 0 ? [base - 1] : []) + (last < .max ? [last + 1] : [])
        }
        for text in publicIPv4 {
            guard case .v4(let value) = try #require(IPAddress(text)) else { continue }
            probes.append(value)
        }
        return probes
    }

    /// IPv4 probes, the same mapped, and the edges of every IPv6 range.
    static func allProbes() throws -> [IPAddress] {
        var probes = try ipv4Probes().flatMap { [IPAddress.v4($0), .v6(0xFFFF << 32 | UInt128($0)), .v6(0x2002 << 112 | UInt128($0) << 80)] }
        for range in ipv6Ranges {
            let (base, length) = try cidr6(range.cidr)
            let last = base | (UInt128.max >> length)
            probes += [base, base + (last - base) / 2, last].map { IPAddress.v6($0) }
        }
        return probes
    }

    static func longestIPv4(holding address: UInt32) -> (length: Int, category: AddressCategory)? {
        ipv4Ranges.compactMap { range -> (length: Int, category: AddressCategory)? in
            guard let cidr = try? cidr4(range.cidr), address >> (32 - cidr.length) == cidr.base >> (32 - cidr.length) else { return nil }
            return (cidr.length, range.category)
        }.max { $0.length < $1.length }
    }

    /// The category of the longest range holding `address`; nil in a carrying form.
    static func longestIPv6(holding address: UInt128) -> AddressCategory? {
        let holding = ipv6Ranges.compactMap { range -> (length: Int, category: AddressCategory?)? in
            guard let cidr = try? cidr6(range.cidr), address >> (128 - cidr.length) == cidr.base >> (128 - cidr.length) else { return nil }
            return (cidr.length, range.category)
        }
        return holding.max { $0.length < $1.length }?.category
    }

    static func cidr4(_ text: String) throws -> (base: UInt32, length: Int) {
        let parts = text.split(separator: "/")
        guard case .v4(let base) = try #require(IPAddress(parts[0])), let length = Int(parts[1]) else { throw CIDRError() }
        return (base, length)
    }

    static func cidr6(_ text: String) throws -> (base: UInt128, length: Int) {
        let parts = text.split(separator: "/")
        guard case .v6(let base) = try #require(IPAddress(parts[0])), let length = Int(parts[1]) else { throw CIDRError() }
        return (base, length)
    }

    struct CIDRError: Error {}
}
