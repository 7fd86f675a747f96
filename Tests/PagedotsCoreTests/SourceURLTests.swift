import Testing
import PagedotsCore

/// The slide URL normaliser on tricky URLs: what it writes, and what it
/// refuses and why. Host expectations for numeric and IDNA hosts are what
/// Node's WHATWG URL parser gives, checked by hand.
@Suite struct SourceURLTests {
    @Test(arguments: [
        // Schemes, hosts and default ports
        ("https://cdn.example/a.jpg", "https://cdn.example/a.jpg"),
        ("HtTpS://CDN.Example/A.jpg", "https://cdn.example/A.jpg"),
        ("HTTP://a.example/", "http://a.example/"),
        ("https://a.example", "https://a.example/"),
        ("https://a.example?x=1", "https://a.example/?x=1"),
        ("https://a.example:443/", "https://a.example/"),
        ("https://a.example:0443/x", "https://a.example/x"),
        ("https://a.example:/x", "https://a.example/x"),
        ("http://a.example:80/x", "http://a.example/x"),
        ("https://a.example:8443/", "https://a.example:8443/"),
        ("http://a.example:443/", "http://a.example:443/"),
        ("https://a.example:80/", "https://a.example:80/"),
        ("https://a.example./x", "https://a.example/x"),
        ("https://a_b-c.example/", "https://a_b-c.example/"),
        ("https://a%2Eexample/", "https://a.example/"),
        ("https://%61.example/", "https://a.example/"),
        // Percent-encoding in the path and query
        ("https://a.example/%7Euser/%41%62c", "https://a.example/~user/Abc"),
        ("https://a.example/%2f%2F", "https://a.example/%2F%2F"),
        ("https://a.example/%3a%40%c3%bc", "https://a.example/%3A%40%C3%BC"),
        ("https://a.example/a%2F..%2Fb", "https://a.example/a%2F..%2Fb"),
        ("https://a.example/%5C", "https://a.example/%5C"),
        ("https://a.example/bild-\u{FC}.jpg", "https://a.example/bild-%C3%BC.jpg"),
        ("https://a.example/a<b>\"{}|^`[]", "https://a.example/a%3Cb%3E%22%7B%7D%7C%5E%60%5B%5D"),
        ("https://a.example/!$&'()*+,;=:@", "https://a.example/!$&'()*+,;=:@"),
        ("https://a.example/x?a=%41&b=%2f&c=\u{FC}&d=+", "https://a.example/x?a=A&b=%2F&c=%C3%BC&d=+"),
        ("https://a.example/x?", "https://a.example/x?"),
        ("https://a.example/x?p=/a/../b?c", "https://a.example/x?p=/a/../b?c"),
        // Dot segments, also percent-encoded
        ("https://a.example/a/%2e%2e/b", "https://a.example/b"),
        ("https://a.example/a/%2E./b", "https://a.example/b"),
        ("https://a.example/a/.%2e/b", "https://a.example/b"),
        ("https://a.example/a/./b/../c", "https://a.example/a/c"),
        ("https://a.example/../../x", "https://a.example/x"),
        ("https://a.example/a/..", "https://a.example/"),
        ("https://a.example/a/b/.", "https://a.example/a/b/"),
        ("https://a.example/a/b/%2e/", "https://a.example/a/b/"),
        ("https://a.example/a//../b", "https://a.example/a/b"),
        ("https://a.example/a//b", "https://a.example/a//b"),
        ("https://a.example/.x/..y/...", "https://a.example/.x/..y/..."),
        // Numeric hosts in every IPv4 notation
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://0x7f000001/", "http://127.0.0.1/"),
        ("http://017700000001/", "http://127.0.0.1/"),
        ("http://127.1/", "http://127.0.0.1/"),
        ("http://0177.0.0.1/", "http://127.0.0.1/"),
        ("http://127.0.0.1./", "http://127.0.0.1/"),
        ("http://%31%32%37.0.0.1/", "http://127.0.0.1/"),
        ("http://0X7F.1:8080/x", "http://127.0.0.1:8080/x"),
        ("http://0/", "http://0.0.0.0/"),
        ("http://123.example/", "http://123.example/"),
        // IPv6 literals
        ("http://[::1]/", "http://[::1]/"),
        ("http://[0:0:0:0:0:0:0:1]:8080/x", "http://[::1]:8080/x"),
        ("http://[::FFFF:127.0.0.1]/", "http://[::ffff:127.0.0.1]/"),
        ("http://[::ffff:7f00:1]/", "http://[::ffff:127.0.0.1]/"),
        ("https://[2001:DB8::1]:443/", "https://[2001:db8::1]/"),
        // IDNA
        ("https://B\u{FC}cher.example/", "https://xn--bcher-kva.example/"),
        ("https://B\u{DC}CHER.example/", "https://xn--bcher-kva.example/"),
        ("https://b%C3%BCcher.example/", "https://xn--bcher-kva.example/"),
        ("https://xn--BCHER-KVA.example/", "https://xn--bcher-kva.example/"),
        ("https://m\u{FC}nchen.de/", "https://xn--mnchen-3ya.de/"),
        ("https://\u{4F8B}\u{3048}.\u{30C6}\u{30B9}\u{30C8}/", "https://xn--r8jz45g.xn--zckzah/"),
        ("https://stra\u{DF}e.de/", "https://xn--strae-oqa.de/"),
        ("https://\u{E9}.example/", "https://xn--9ca.example/"),
        ("https://\u{212A}.example/", "https://k.example/"),
        ("https://\u{130}.example/", "https://xn--i-9bb.example/"),
        ("https://\u{3C2}.example/", "https://xn--3xa.example/"),
        ("https://\u{3A3}.example/", "https://xn--4xa.example/"),
        // A Prepend character and the dot after it are one Character: labels are cut by scalars.
        ("https://\u{D4E}.example/", "https://xn--xxc.example/"),
        ("https://a\u{D4E}.example/", "https://xn--a-mmf.example/"),
        ("https://x.\u{11A86}.shop.example/", "https://x.xn--262d.shop.example/"),
        ("https://evil.example\u{D4E}.shop.example/", "https://evil.xn--example-qov.shop.example/"),
    ])
    func normalises(input: String, expected: String) throws {
        let url = try SourceURL(input)
        #expect(url.text == expected)
        #expect(try SourceURL(url.text) == url, "normalising again changes it")
    }

    @Test func exposesItsParts() throws {
        let url = try SourceURL("HTTPS://CDN.Example:8443/a/./b?q=1")
        #expect(url.scheme == .https && url.host == "cdn.example" && url.port == 8443 && url.pathAndQuery == "/a/b?q=1")
        #expect(url.address == nil && !url.isIPLiteral && url.description == "https://cdn.example:8443/a/b?q=1")
        let defaultPort = try SourceURL("http://a.example/")
        #expect(defaultPort.port == 80)
        let ipv4 = try SourceURL("http://0x7f.1:8080/")
        #expect(ipv4.address == .v4(0x7F00_0001) && ipv4.host == "127.0.0.1" && ipv4.isIPLiteral)
        let ipv6 = try SourceURL("http://[::1]/")
        #expect(ipv6.address == IPAddress("::1") && ipv6.host == "[::1]")
        #expect(try SourceURL("https://a.example:443/") == SourceURL("https://a.example/"))
    }

    @Test(arguments: [
        // Schemes
        ("ftp://a.example/", SourceURLError.notHTTP), ("javascript:alert(1)", .notHTTP), ("https:/a.example/", .notHTTP),
        ("https:a.example", .notHTTP), ("//a.example/", .notHTTP), ("a.example/x", .notHTTP), ("", .notHTTP), ("https//a", .notHTTP),
        ("data:image/png;base64,AAAA", .notHTTP), ("file:///etc/passwd", .notHTTP), ("httpss://a.example/", .notHTTP),
        ("h\u{FC}ttp://a.example/", .notHTTP),
        // User information and @ tricks
        ("https://user@a.example/", .userInformation), ("https://user:pw@a.example/", .userInformation),
        ("https://cdn.example@evil.example/", .userInformation), ("https://cdn.example%40evil.example/", .userInformation),
        ("https://@a.example/", .userInformation), ("https://cdn.example:443@evil.example/", .userInformation),
        ("https://a.example%2540b/", .hostCharacter("%")),
        // Fragments and backslashes
        ("https://a.example/#x", .fragment), ("https://a.example/x.jpg#", .fragment), ("https://evil.example#@cdn.example/", .fragment),
        ("https://a.example\\@evil.example/", .backslash), ("https:\\\\a.example/", .backslash), ("https://a.example/a\\b", .backslash),
        ("https://a.example/?a=\\", .backslash),
        // Whitespace and control characters, raw anywhere
        (" https://a.example/", .whitespaceOrControl), ("https://a.example/ ", .whitespaceOrControl),
        ("https://a.example/ x", .whitespaceOrControl), ("https://a.ex\tample/", .whitespaceOrControl),
        ("https://a.example/\n", .whitespaceOrControl), ("https://a.example/\r\nHost: b", .whitespaceOrControl),
        ("https://a.example/\u{0}", .whitespaceOrControl), ("https://a.example/\u{7F}", .whitespaceOrControl),
        ("https://a.example/\u{85}", .whitespaceOrControl), ("https://a.example/\u{A0}", .whitespaceOrControl),
        ("https://a.example/\u{3000}", .whitespaceOrControl), ("https://a.example/\u{2028}", .whitespaceOrControl),
        ("https://a.example: 80/", .whitespaceOrControl),
        // ... and percent-encoded in the host
        ("https://a%20b.example/", .hostCharacter(" ")), ("https://a%00.example/", .hostCharacter("\u{0}")),
        ("https://a%0A.example/", .hostCharacter("\n")), ("https://a%09b/", .hostCharacter("\t")),
        ("https://a%C2%A0b/", .hostCharacter("\u{A0}")), ("https://a%E3%80%80b/", .hostCharacter("\u{3000}")),
        // Slashes and other characters in the host
        ("https://a%2Fb.example/", .encodedSlashInHost), ("https://a%2fb.example/", .encodedSlashInHost),
        ("https://a%5Cb.example/", .encodedSlashInHost), ("https://a!b.example/", .hostCharacter("!")),
        ("https://a*b/", .hostCharacter("*")), ("https://a[b/", .hostCharacter("[")), ("https://a<b>/", .hostCharacter("<")),
        ("https://a%25b/", .hostCharacter("%")), ("https://a%3Ab/", .hostCharacter(":")), ("https://a%3Fb/", .hostCharacter("?")),
        // Empty hosts and labels, lengths
        ("https:///x", .emptyHost), ("https://:443/", .emptyHost), ("https://./", .emptyHost), ("https://?x", .emptyHost),
        ("https://", .emptyHost), ("https://a..example/", .emptyLabel), ("https://a.example../", .emptyLabel),
        ("https://.a.example/", .emptyLabel),
        // Escapes
        ("https://a.example/%zz", .malformedEscape), ("https://a.example/%4", .malformedEscape), ("https://a.example/%", .malformedEscape),
        ("https://a%2.example/", .malformedEscape), ("https://a.example/?q=%", .malformedEscape), ("https://a%FF.example/", .invalidUTF8InHost),
        // Ports
        ("https://a.example:x/", .badPort), ("https://a.example:65536/", .badPort), ("https://a.example:0/", .badPort),
        ("https://a.example:-1/", .badPort), ("https://a.example:99999999999999999999/", .badPort), ("https://a.example:80:80/", .badPort),
        ("https://a.example:+80/", .badPort), ("https://a.example:0x50/", .badPort),
        // IPv6
        ("http://[fe80::1%25eth0]/", .ipv6ZoneID), ("http://[fe80::1%eth0]/", .ipv6ZoneID), ("http://[::1/", .invalidIPv6),
        ("http://[::1]x/", .invalidIPv6), ("http://[1:2]/", .invalidIPv6), ("http://[v1.x]/", .invalidIPv6), ("http://[::1]]/", .invalidIPv6),
        ("http://[::ffff:0x7f.1]/", .invalidIPv6), ("http://[]/", .invalidIPv6), ("http://::1/", .emptyHost),
        // Numeric hosts that are no IPv4 address
        ("http://1.2.3.256/", .invalidIPv4), ("http://example.123/", .invalidIPv4), ("http://09/", .invalidIPv4),
        ("http://0x7g.1/", .invalidIPv4), ("http://1.2.3.4.5/", .invalidIPv4), ("http://4294967296/", .invalidIPv4),
        // IDNA that is not converted, and labels IDNA forbids
        ("https://\u{FF45}\u{FF58}\u{FF41}\u{FF4D}\u{FF50}\u{FF4C}\u{FF45}.com/", .unsupportedIDNA("\u{FF45}")),
        ("https://a\u{3002}example/", .unsupportedIDNA("\u{3002}")), ("https://a\u{FF0E}example/", .unsupportedIDNA("\u{FF0E}")),
        ("https://\u{2603}.example/", .unsupportedIDNA("\u{2603}")), ("https://a\u{200D}b.example/", .unsupportedIDNA("\u{200D}")),
        ("https://a\u{AD}b.example/", .unsupportedIDNA("\u{AD}")), ("https://\u{2160}.example/", .unsupportedIDNA("\u{2160}")),
        ("https://\u{E000}.example/", .unsupportedIDNA("\u{E000}")), ("https://\u{1F600}.example/", .unsupportedIDNA("\u{1F600}")),
        ("https://\u{1E9E}.example/", .unsupportedIDNA("\u{1E9E}")), ("https://\u{4C0}.example/", .unsupportedIDNA("\u{4C0}")),
        ("https://\u{10A0}.example/", .unsupportedIDNA("\u{10A0}")), ("https://\u{2132}.example/", .unsupportedIDNA("\u{2132}")),
        ("https://\u{AB70}.example/", .unsupportedIDNA("\u{AB70}")), ("https://\u{13A0}.example/", .unsupportedIDNA("\u{13A0}")),
        ("https://e\u{301}.example/", .notNFC), ("https://\u{301}a.example/", .invalidIDNALabel),
        ("https://ab--\u{FC}.example/", .invalidIDNALabel), ("https://xn--\u{FC}.example/", .invalidIDNALabel),
    ])
    func refuses(input: String, error: SourceURLError) {
        #expect(throws: error, "\(input)") { try SourceURL(input) }
    }

    /// A refusal's reason is one line and quotes nothing of the URL.
    @Test func reasonsAreOneLineWithoutTheURL() {
        for input in ["https://user@a.example/?token=SECRET", "https://a.example/?token=SECRET#x", "ftp://a.example/?token=SECRET",
                      "https://a.example:99999/?token=SECRET", "https://a%0Ab/?token=SECRET", "https://a.example/%zz?token=SECRET"] {
            do {
                _ = try SourceURL(input)
                Issue.record("\(input) accepted")
            } catch {
                #expect(!error.description.contains("SECRET") && !error.description.contains("a.example"), "\(error)")
                #expect(!error.description.contains { $0.isNewline })
            }
        }
        #expect(SourceURLError.hostCharacter(" ").description.contains("U+0020"))
        #expect(SourceURLError.hostCharacter(" ").description.contains("space or control"))
        #expect(SourceURLError.unsupportedIDNA("\u{1F600}").description.contains("U+1F600"))
    }

    // MARK: - Lengths

    @Test func hostAndLabelLengths() throws {
        let label63 = String(repeating: "a", count: 63)
        #expect(try SourceURL("https://\(label63).example/").host == "\(label63).example")
        #expect(throws: SourceURLError.labelTooLong) { try SourceURL("https://\(label63)a.example/") }
        let host253 = [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: ".")
        #expect(try SourceURL("https://\(host253)/").host == host253)
        #expect(try SourceURL("https://\(host253)./").host == host253)
        #expect(throws: SourceURLError.hostTooLong) { try SourceURL("https://\(host253)b/") }
        // 59 characters of Punycode fit in a label with xn--; a longer IDNA label does not.
        let idna = "\u{FC}" + String(repeating: "a", count: 52)
        #expect(try SourceURL("https://\(idna).example/").host.hasPrefix("xn--"))
        #expect(throws: SourceURLError.labelTooLong) { try SourceURL("https://\(idna)aaaa.example/") }
        #expect(throws: SourceURLError.labelTooLong) { try SourceURL("https://\(String(repeating: "\u{FC}", count: 70)).example/") }
    }

    @Test func veryLongInput() throws {
        let prefix = "https://a.example/"
        let longest = prefix + String(repeating: "x", count: SourceURL.maximumLength - prefix.utf8.count)
        #expect(try SourceURL(longest).text == longest)
        #expect(throws: SourceURLError.tooLong) { try SourceURL(longest + "x") }
        // Escapes decoded bring it under the limit; raw non-ASCII encoded take it over.
        #expect(try SourceURL(prefix + String(repeating: "%78", count: 8000)).text.utf8.count == prefix.utf8.count + 8000)
        #expect(throws: SourceURLError.tooLong) { try SourceURL(prefix + String(repeating: "\u{FC}", count: 2000)) }
        #expect(throws: SourceURLError.tooLong) { try SourceURL(prefix + String(repeating: "a/", count: 50_000)) }
        #expect(try SourceURL(prefix + String(repeating: "a/../", count: 20_000) + "b").text == prefix + "b")
        #expect(throws: SourceURLError.labelTooLong) { try SourceURL("https://" + String(repeating: "a", count: 100_000) + "/") }
    }
}
