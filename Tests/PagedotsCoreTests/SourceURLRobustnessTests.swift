import Testing
import PagedotsCore

/// Thousands of odd URLs made of tricky pieces, from a fixed seed: each is
/// refused with one line, or normalised to text that normalises to itself,
/// and every prefix matches it the same way before and after.
@Suite struct SourceURLRobustnessTests {
    static let schemes = ["https://", "https://", "http://", "HTTP://", "HtTpS://", "https://", "ftp://", "https:/", "https:\\\\", ""]
    static let userInformation = ["", "", "", "", "", "", "", "user@", "a:b@", "cdn.example@", "%40"]
    static let hosts = [
        "a.example", "CDN.Shop.Example", "B\u{FC}cher.example", "0x7f.1", "2130706433", "127.1", "017700000001", "[::1]",
        "[::ffff:127.0.0.1]", "[fe80::1%25eth0]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]", "1.2.3.256", "a..b", "a%2Fb", "a%20b",
        "", ".", "xn--BCHER-kva.example", "example.", "a.shop.example", "shop.example", "evilshop.example", "*.example",
        "\u{FF45}.example", "e\u{301}.example", "a.shop.example\u{D4E}.x", "%31%32%37.0.0.1", "a_b.example", "a%2eshop.example",
    ]
    static let ports = ["", "", "", "", "", ":", ":443", ":80", ":8080", ":65536", ":0", ":x", ":08080"]
    /// Mostly harmless pieces, so that most URLs get through and exercise the prefixes.
    static let paths = [
        "", "/", "/img/", "/img/", "/x.jpg", "/a", "/img/a.png", "", "/img/../x", "/%2e%2e/", "/%2F", "/a b", "/\u{FC}", "/%7E", "/a/./b", "/img2/", "/%zz", "/\\", "/#f",
        "/a?b=%41", "?q", "/%2e", "/.", "/..", "//", "/x%5c", "/<>",
    ]
    static let prefixes = [
        "https://*/", "https://*.shop.example/img/", "http://127.0.0.1:8080/", "https://a.example/", "http://[::1]/",
        "https://*.example/", "https://a.shop.example/img",
    ].compactMap { try? SourcePrefix($0) }

    /// A deterministic generator (a 64-bit LCG), so every run tries the same URLs.
    struct Generator {
        var state: UInt64
        mutating func pick<T>(_ items: [T]) -> T {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return items[Int((state >> 33) % UInt64(items.count))]
        }
    }

    @Test func oddURLsNormaliseOnceOrAreRefusedWithOneLine() throws {
        #expect(Self.prefixes.count == 7)
        var generator = Generator(state: 37)
        var accepted = 0, refused = 0, matched = 0
        for _ in 0..<4000 {
            let parts = [Self.schemes, Self.userInformation, Self.hosts, Self.ports, Self.paths, Self.paths].map { generator.pick($0) }
            let text = parts.joined()
            let url: SourceURL
            do {
                url = try SourceURL(text)
            } catch {
                refused += 1
                #expect(!error.description.contains { $0.isNewline }, "\(text)")
                continue
            }
            accepted += 1
            let again = try SourceURL(url.text)
            #expect(again == url, "\(text)")
            #expect(url.text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "\\") }, "\(text)")
            #expect(!url.host.contains { "@\\/%? ".contains($0) }, "\(text)")
            #expect(url.address.map { IPAddress(url.host) == $0 } ?? (IPAddress(url.host) == nil), "\(text)")
            for prefix in Self.prefixes {
                let matches = prefix.matches(url)
                matched += matches ? 1 : 0
                #expect(prefix.matches(again) == matches, "\(prefix) \(text)")
                if case .exactly = prefix.host {
                    #expect(matches == url.text.hasPrefix(prefix.text), "\(prefix) \(text)")
                }
            }
        }
        #expect(accepted > 500 && refused > 2000 && matched > 300, "\(accepted) accepted, \(refused) refused, \(matched) matches")
    }
}
