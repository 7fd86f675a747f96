@testable import PagedotsService
import Testing

/// IP addresses, CIDR blocks and the client behind trusted proxies
/// (docs/operating.md, "Fair use").
@Suite struct ClientAddressTests {
    static func address(_ text: String) -> ClientAddress? { ClientAddress(Substring(text)) }

    @Test(arguments: [
        ("192.0.2.1", ClientAddress(ipv4: 0xC000_0201)),
        ("0.0.0.0", ClientAddress(ipv4: 0)),
        ("255.255.255.255", ClientAddress(ipv4: 0xFFFF_FFFF)),
        ("010.001.000.009", ClientAddress(ipv4: 0x0A01_0009)),
        ("::ffff:192.0.2.1", ClientAddress(ipv4: 0xC000_0201)),
        ("::FFFF:c000:201", ClientAddress(ipv4: 0xC000_0201)),
        ("::", ClientAddress.unspecified),
        ("::1", ClientAddress(high: 0, low: 1)),
        ("1::", ClientAddress(high: 1 << 48, low: 0)),
        ("2001:db8::8a2e:370:7334", ClientAddress(high: 0x2001_0DB8_0000_0000, low: 0x0000_8A2E_0370_7334)),
        ("2001:0db8:0000:0000:0000:8a2e:0370:7334", ClientAddress(high: 0x2001_0DB8_0000_0000, low: 0x0000_8A2E_0370_7334)),
        ("2001:DB8:0:0:1:0:0:1", ClientAddress(high: 0x2001_0DB8_0000_0000, low: 0x0001_0000_0000_0001)),
        ("1:2:3:4:5:6:7::", ClientAddress(high: 0x0001_0002_0003_0004, low: 0x0005_0006_0007_0000)),
        ("::2:3:4:5:6:7:8", ClientAddress(high: 0x0000_0002_0003_0004, low: 0x0005_0006_0007_0008)),
        ("64:ff9b::192.0.2.33", ClientAddress(high: 0x0064_FF9B_0000_0000, low: 0xC000_0221)),
    ])
    func parses(_ text: String, _ expected: ClientAddress) {
        #expect(Self.address(text) == expected, "\(text)")
    }

    @Test(arguments: [
        "", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1.2.3.-4", "1.2.3.+4", "1..3.4", "1.2.3.4 ", " 1.2.3.4", "0001.2.3.4",
        "1.2.3.4/8", "1.2.3.4:80", "a.b.c.d", "١.٢.٣.٤",
        ":", ":::", "1:::2", "1::2::3", "12345::", "g::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::",
        "::1.2.3.4:5", "1.2.3.4::", "::ffff:1.2.3", "[::1]", "fe80::1%eth0", "+1::", "-1::", "unknown", "localhost",
    ])
    func refuses(_ text: String) {
        #expect(Self.address(text) == nil, "\(text)")
    }

    @Test func fromSocketBytes() {
        #expect(ClientAddress(bytes: [127, 0, 0, 1]) == Self.address("127.0.0.1"))
        // A dual-stack socket reports an IPv4 client IPv4-mapped: the same client.
        #expect(ClientAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]) == Self.address("127.0.0.1"))
        #expect(ClientAddress(bytes: [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]) == Self.address("2001:db8::1"))
        #expect(ClientAddress(bytes: []) == nil && ClientAddress(bytes: [1, 2, 3]) == nil)
        #expect(Self.address("10.0.0.1")?.isIPv4 == true && Self.address("::1")?.isIPv4 == false)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.0", false), ("10.0.0.0/8", "9.255.255.255", false),
        ("10.1.2.3/8", "10.200.0.1", true),
        ("192.0.2.7", "192.0.2.7", true), ("192.0.2.7", "192.0.2.8", false), ("192.0.2.7/32", "192.0.2.7", true),
        ("0.0.0.0/0", "203.0.113.9", true), ("0.0.0.0/0", "2001:db8::1", false),
        ("172.16.0.0/12", "172.31.255.255", true), ("172.16.0.0/12", "172.32.0.0", false),
        ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe00::1", false),
        ("2001:db8::/32", "2001:db8:ffff::1", true), ("2001:db8::/32", "2001:db9::", false),
        ("2001:db8::/64", "2001:db8::ffff:ffff:ffff:ffff", true), ("2001:db8::/64", "2001:db8:0:1::", false),
        ("::/0", "2001:db8::1", true), ("::/0", "10.0.0.1", true),
        ("::1", "::1", true), ("::1/128", "::2", false),
        ("::ffff:10.0.0.0/104", "10.1.1.1", true),
    ])
    func rangesContain(_ range: String, _ address: String, _ contained: Bool) throws {
        let block = try #require(AddressRange(Substring(range)))
        #expect(block.contains(try #require(Self.address(address))) == contained, "\(range) \(address)")
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8", "::/129", "::/0128", "10.0.0.0/ 8", "/8", "x/8", ""])
    func badRanges(_ text: String) {
        #expect(AddressRange(Substring(text)) == nil, "\(text)")
    }

    // MARK: X-Forwarded-For

    static let proxies = TrustedProxies([AddressRange("10.0.0.0/8")!, AddressRange("fd00::/8")!, AddressRange("192.0.2.1")!])

    static func client(peer: String, _ lines: [String]) -> ClientAddress? {
        Self.address(peer).map { proxies.client(peer: $0, forwardedFor: lines.map { Substring($0) }) }
    }

    @Test(arguments: [
        // A peer that is not trusted is the client, whatever it says.
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),
        ("203.0.113.9", [], "203.0.113.9"),
        // Behind a trusted proxy: the rightmost untrusted entry.
        ("10.0.0.1", ["198.51.100.1"], "198.51.100.1"),
        ("10.0.0.1", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),
        ("10.0.0.1", ["6.6.6.6, 198.51.100.1, 10.0.0.2"], "198.51.100.1"),
        ("10.0.0.1", ["6.6.6.6,198.51.100.1,10.0.0.2,192.0.2.1"], "198.51.100.1"),
        ("fd00::1", ["2001:db8::7, fd00::2"], "2001:db8::7"),
        // Several lines are one list, in order.
        ("10.0.0.1", ["6.6.6.6", "198.51.100.1, 10.0.0.2"], "198.51.100.1"),
        ("10.0.0.1", ["198.51.100.1", "10.0.0.2", ""], "198.51.100.1"),
        // Ports and brackets.
        ("10.0.0.1", ["198.51.100.1:4711"], "198.51.100.1"),
        ("10.0.0.1", ["[2001:db8::7]:4711"], "2001:db8::7"),
        ("10.0.0.1", ["[2001:db8::7]"], "2001:db8::7"),
        ("10.0.0.1", ["  198.51.100.1\t"], "198.51.100.1"),
        // Empty entries are skipped.
        ("10.0.0.1", [" , 198.51.100.1 ,, "], "198.51.100.1"),
        // No X-Forwarded-For, or only trusted entries: the leftmost trusted address.
        ("10.0.0.1", [], "10.0.0.1"),
        ("10.0.0.1", [""], "10.0.0.1"),
        ("10.0.0.1", ["10.0.0.3, 10.0.0.2"], "10.0.0.3"),
        // A malformed entry stops the walk at the last trusted address passed.
        ("10.0.0.1", ["unknown"], "10.0.0.1"),
        ("10.0.0.1", ["198.51.100.1, unknown, 10.0.0.2"], "10.0.0.2"),
        ("10.0.0.1", ["198.51.100.1, 10.0.0.2, garbage"], "10.0.0.1"),
        ("10.0.0.1", ["2001:db8::7:4711"], "2001:db8::7:4711"),
        ("10.0.0.1", ["198.51.100.1:99999999"], "10.0.0.1"),
        ("10.0.0.1", ["[2001:db8::7]x"], "10.0.0.1"),
        ("10.0.0.1", ["[2001:db8::7"], "10.0.0.1"),
        ("10.0.0.1", ["::1:80"], "::1:80"),
        // What a client wrote sits left of what the first trusted proxy wrote: it cannot pick its bucket.
        ("10.0.0.1", ["10.9.9.9, 203.0.113.9"], "203.0.113.9"),
        ("10.0.0.1", ["garbage, 203.0.113.9"], "203.0.113.9"),
    ])
    func forwardedFor(_ peer: String, _ lines: [String], _ expected: String) {
        #expect(Self.client(peer: peer, lines) == Self.address(expected), "\(peer) \(lines)")
    }
}
