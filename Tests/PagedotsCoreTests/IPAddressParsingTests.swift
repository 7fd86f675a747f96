import Testing
@testable import PagedotsCore

/// IP literals as URL hosts denote them. The expectations are what Node's
/// WHATWG URL parser (`new URL("http://HOST/").hostname`) gives, checked by
/// hand; IPv6 text as RFC 5952 writes it.
@Suite struct IPAddressParsingTests {
    /// Every notation the WHATWG IPv4 parser (and inet_aton) accepts.
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("127.0.0.1.", "127.0.0.1"),
        ("0X7F.0.0.1", "127.0.0.1"), ("0x7F.1.", "127.0.0.1"), ("0x", "0.0.0.0"), ("0x.0x.0", "0.0.0.0"), ("0.0.0.0", "0.0.0.0"),
        ("4294967295", "255.255.255.255"), ("0xffffffff", "255.255.255.255"), ("1.0x", "1.0.0.0"), ("1.2.3.4.", "1.2.3.4"),
        ("0.0x300", "0.0.3.0"), ("0x.1", "0.0.0.1"), ("07.1.2.3", "7.1.2.3"), ("0000000000000000000000001", "0.0.0.1"),
        ("0x0000000000000000000000001", "0.0.0.1"), ("1.2.3.0x", "1.2.3.0"), ("169.254.43518", "169.254.169.254"),
    ])
    func ipv4Notations(host: String, dotted: String) {
        let address = IPAddress(host)
        #expect(address?.description == dotted, "\(host)")
        #expect(readHost(host) == address.flatMap { if case .v4(let value) = $0 { .address(value) } else { nil } })
    }

    /// Hosts that end in a number but are no IPv4 address: WHATWG refuses
    /// them rather than read a domain name.
    @Test(arguments: [
        "4294967296", "0x100000000", "256.0.0.1", "1.2.3.256", "1.2.65536", "1.16777216", "1.2.3.4.5", "09", "08.1", "0x7g.1",
        "1..2", "example.123", "99999999999999999999999", "1.2.0x10000", "1.2.3.08", "example.0x", "a.0x1", "0x1.0x1.0x1.0x1.0x1",
    ])
    func invalidIPv4Hosts(host: String) {
        #expect(readHost(host) == .invalid, "\(host)")
        #expect(IPAddress(host) == nil, "\(host)")
    }

    /// Hosts that do not end in a number are domain names.
    @Test(arguments: ["example.com", "123.example", "1.0xg", "00x1", "0x7f.example", "127.0.0.1.example", "a", ""])
    func domainNames(host: String) {
        #expect(readHost(host) == .notNumeric, "\(host)")
        #expect(IPAddress(host) == nil)
    }

    private func readHost(_ host: String) -> IPAddress.IPv4HostReading {
        IPAddress.readIPv4Host(labels: Array(host.utf8)[...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false))
    }

    /// RFC 4291's text forms, written back in RFC 5952's.
    @Test(arguments: [
        ("::", "::"), ("::1", "::1"), ("1::", "1::"), ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"), ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ("::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"), ("::1:2:3:4:5:6:7", "0:1:2:3:4:5:6:7"), ("2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:db8:0:0:0:0:2:1", "2001:db8::2:1"), ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"), ("0:0:0:0:0:0:0:0", "::"),
        ("0001:0002::0003", "1:2::3"), ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"), ("2001:db8:0:0:1::", "2001:db8:0:0:1::"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("::ffff:127.0.0.1", "::ffff:127.0.0.1"), ("::ffff:7f00:1", "::ffff:127.0.0.1"), ("::127.0.0.1", "::7f00:1"),
        ("64:ff9b::192.0.2.33", "64:ff9b::c000:221"), ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
        ("1:2:3:4:5::1.2.3.4", "1:2:3:4:5:0:102:304"), ("ffff::ffff:1.2.3.4", "ffff::ffff:102:304"), ("[fe80::1]", "fe80::1"),
        ("FE80:0000:0000:0000:0000:0000:0000:0001", "fe80::1"), ("1:0:0:2:0:0:0:3", "1:0:0:2::3"), ("1:0:0:0:2:0:0:3", "1::2:0:0:3"),
    ])
    func ipv6Forms(text: String, canonical: String) {
        let address = IPAddress(text)
        #expect(address?.description == canonical, "\(text)")
        #expect(address.map { IPAddress($0.description) == $0 } == true, "\(text) does not read back")
    }

    @Test(arguments: [
        ":", ":1", "1:", "1:::2", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::ffff:127.0.0.01", "::ffff:127.0.0",
        "::ffff:127.0.0.1.5", "::ffff:256.0.0.1", "1:2:3:4:5:6:7:1.2.3.4", "g::", "::1.2.3.4x", "00000::", "fe80::1%eth0",
        "fe80::1%25eth0", "1:2:3:4:5:6:7:8::", "::0:1:2:3:4:5:6:7", "1::2:3:4:5:6:7:8", "::.1.2.3", "::1234.5.6.7",
        "2001:db8::0:1:1:1:1:1", "::ffff:0x7f.1", "::ffff:127.1", "[::1", "::1 ", "::-1", "[1.2.3.4]", "[127.1]",
    ])
    func invalidIPv6(text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test func bytesInNetworkOrder() {
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == .v4(0x7F00_0001))
        #expect(IPAddress(bytes: [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]) == IPAddress("fe80::1"))
        #expect(IPAddress("2001:db8::ff00:42:8329")?.bytes == [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0x42, 0x83, 0x29])
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        for count in [0, 3, 5, 15, 17] {
            #expect(IPAddress(bytes: [UInt8](repeating: 1, count: count)) == nil)
        }
        for text in ["0.0.0.0", "255.255.255.255", "10.1.2.3", "::", "::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::1"] {
            let address = IPAddress(text)
            #expect(address.flatMap { IPAddress(bytes: $0.bytes) } == address, "\(text)")
        }
    }
}
