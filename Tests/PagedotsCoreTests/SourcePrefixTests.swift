import Testing
import PagedotsCore

/// `--allow-source` prefixes: how they are read, refused, and matched.
@Suite struct SourcePrefixTests {
    @Test(arguments: [
        ("https://cdn.shop.example/", "https://cdn.shop.example/", SourcePrefix.HostPattern.exactly("cdn.shop.example")),
        ("HTTPS://CDN.Shop.Example:443/img/", "https://cdn.shop.example/img/", .exactly("cdn.shop.example")),
        ("https://*.shop.example/img/", "https://*.shop.example/img/", .subdomains(of: "shop.example")),
        ("https://*.SHOP.example./", "https://*.shop.example/", .subdomains(of: "shop.example")),
        ("https://*/", "https://*/", .any),
        ("https://*:8443/", "https://*:8443/", .any),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.1:8080/slides/", .exactly("127.0.0.1")),
        ("http://0x7f.1:8080/", "http://127.0.0.1:8080/", .exactly("127.0.0.1")),
        ("http://[0::1]:8080/", "http://[::1]:8080/", .exactly("[::1]")),
        ("https://*.B\u{FC}cher.example/", "https://*.xn--bcher-kva.example/", .subdomains(of: "xn--bcher-kva.example")),
        ("https://a.example/img/../%7Ex/./", "https://a.example/~x/", .exactly("a.example")),
        ("https://a.example/img?size=", "https://a.example/img?size=", .exactly("a.example")),
    ])
    func parses(text: String, normalised: String, host: SourcePrefix.HostPattern) throws {
        let prefix = try SourcePrefix(text)
        #expect(prefix.text == normalised && prefix.description == normalised)
        #expect(prefix.host == host)
        #expect(try SourcePrefix(prefix.text) == prefix, "parsing the normalised prefix changes it")
    }

    @Test(arguments: [
        ("https://cdn.shop.example", SourcePrefixError.Reason.noSlashAfterHost),
        ("https://cdn.shop.example?x=1", .noSlashAfterHost),
        ("https://cdn.shop.example:8080", .noSlashAfterHost),
        ("https://*", .noSlashAfterHost),
        ("https://a.*.example/", .misplacedWildcard), ("https://*a.example/", .misplacedWildcard),
        ("https://*.*.example/", .misplacedWildcard), ("https://a.example/*/", .misplacedWildcard),
        ("https://a.example/?x=*", .misplacedWildcard), ("https://*.example*/", .misplacedWildcard), ("https://**/", .misplacedWildcard),
        ("https://*.127.0.0.1/", .wildcardBeforeAddress), ("https://*.[::1]/", .notAURL(.invalidIPv6)), ("https://*.1/", .wildcardBeforeAddress),
        ("ftp://a.example/", .notAURL(.notHTTP)), ("*", .notAURL(.notHTTP)), ("cdn.shop.example/", .notAURL(.notHTTP)),
        ("https://user@a.example/", .notAURL(.userInformation)), ("https://a.example/#x", .notAURL(.fragment)),
        ("https://*./", .notAURL(.emptyHost)), ("https://*.a..example/", .notAURL(.emptyLabel)),
        ("https://a.example:99999/", .notAURL(.badPort)), ("https://a.example\\/", .notAURL(.backslash)),
        ("https://*.example.123/", .notAURL(.invalidIPv4)), ("https://a.example/ x/", .notAURL(.whitespaceOrControl)),
    ])
    func refuses(text: String, reason: SourcePrefixError.Reason) {
        #expect(throws: SourcePrefixError(prefix: text, reason: reason)) { try SourcePrefix(text) }
    }

    @Test func anErrorIsOneLineNamingThePrefix() {
        #expect(throws: SourcePrefixError.self) { try SourcePrefix("https://cdn.shop.example") }
        let error = SourcePrefixError(prefix: "https://cdn.shop.example", reason: .noSlashAfterHost)
        #expect(error.description == "allowed source \"https://cdn.shop.example\": a prefix must end its host (and port) with /")
        let odd = SourcePrefixError(prefix: "https://a\n.example", reason: .notAURL(.whitespaceOrControl))
        #expect(odd.description == "allowed source \"https://a%0A.example\": the URL has a space or a control character")
    }

    /// (prefix, URL, whether it matches).
    @Test(arguments: [
        ("https://cdn.shop.example/", "https://cdn.shop.example/p/1.jpg", true),
        ("https://cdn.shop.example/", "https://CDN.shop.example:443/p/1.jpg", true),
        ("https://cdn.shop.example/", "https://cdn.shop.example./p/1.jpg", true),
        ("https://cdn.shop.example/", "https://cdn.shop.example", true),
        ("https://cdn.shop.example/", "http://cdn.shop.example/p/1.jpg", false),
        ("https://cdn.shop.example/", "https://cdn.shop.example:8443/p/1.jpg", false),
        ("https://cdn.shop.example/", "https://cdn.shop.example.evil.example/p/1.jpg", false),
        ("https://cdn.shop.example/", "https://evilcdn.shop.example/", false),
        ("https://cdn.shop.example/", "https://a.cdn.shop.example/", false),
        ("https://cdn.shop.example/", "https://shop.example/", false),
        ("https://*.shop.example/img/", "https://a.shop.example/img/1.jpg", true),
        ("https://*.shop.example/img/", "https://a.b.shop.example/img/x", true),
        ("https://*.shop.example/img/", "https://A.SHOP.example/img/%2e%2e/img/x", true),
        ("https://*.shop.example/img/", "https://shop.example/img/x", false),
        ("https://*.shop.example/img/", "https://evilshop.example/img/x", false),
        ("https://*.shop.example/img/", "https://a.shop.example/img2/x", false),
        ("https://*.shop.example/img/", "https://a.shop.example/IMG/x", false),
        ("https://*.shop.example/img/", "https://a.shop.example/img", false),
        ("https://*.shop.example/img/", "https://a.shop.example/img/../secret", false),
        ("https://*.shop.example/img/", "https://a.shop.example/img/%2e%2e/secret", false),
        ("https://*.shop.example/img/", "https://a.shop.example.evil/img/x", false),
        ("https://*.shop.example/img/", "http://a.shop.example/img/x", false),
        ("https://*.example/", "https://127.0.0.1.example/", true),
        ("https://*/", "https://anything.example/x", true),
        ("https://*/", "https://127.0.0.1/", true),
        ("https://*/", "https://[::1]/", true),
        ("https://*/", "https://2130706433/", true),
        ("https://*/", "http://a.example/", false),
        ("https://*/", "https://a.example:8443/", false),
        ("http://127.0.0.1:8080/slides/", "http://127.1:8080/slides/a.png", true),
        ("http://127.0.0.1:8080/slides/", "http://0x7f000001:8080/slides/a.png", true),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.1:8080/slides/x/../a.png", true),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.1:8080/slides2/a.png", false),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.1:8080/slides/../a.png", false),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.1/slides/a.png", false),
        ("http://127.0.0.1:8080/slides/", "https://127.0.0.1:8080/slides/a.png", false),
        ("http://127.0.0.1:8080/slides/", "http://127.0.0.2:8080/slides/a.png", false),
        ("http://127.0.0.1:8080/slides/", "http://[::ffff:127.0.0.1]:8080/slides/a.png", false),
        ("http://[::1]:8080/", "http://[0:0::1]:8080/a.png", true),
        ("http://a.example/", "https://a.example/", false),
        ("https://a.example:8/", "https://a.example:80/", false),
        ("https://a.example/%7Ex/", "https://a.example/~x/1.png", true),
        ("https://a.example/img", "https://a.example/img2/x", true),
        ("https://a.example/img?size=", "https://a.example/img?size=2", true),
        ("https://*.b\u{FC}cher.example/", "https://www.xn--bcher-kva.example/x", true),
        ("https://*.shop.example/", "https://evil.example\u{D4E}.shop.example/", true),
    ])
    func matches(prefix: String, url: String, matches: Bool) throws {
        let parsedPrefix = try SourcePrefix(prefix), parsedURL = try SourceURL(url)
        #expect(parsedPrefix.matches(parsedURL) == matches, "\(prefix) \(url)")
        #expect(try SourceAllowList([prefix]).allows(parsedURL) == matches)
    }

    @Test func anAllowListTakesTheFirstPrefixThatMatches() throws {
        let list = try SourceAllowList(["https://cdn.shop.example/", "https://*.shop.example/", "http://127.0.0.1:8080/"])
        #expect(list.prefixes.count == 3 && !list.isEmpty)
        #expect(try list.prefix(matching: SourceURL("https://cdn.shop.example/a"))?.text == "https://cdn.shop.example/")
        #expect(try list.prefix(matching: SourceURL("https://img.shop.example/a"))?.text == "https://*.shop.example/")
        #expect(try list.allows(SourceURL("http://127.1:8080/a")))
        #expect(try !list.allows(SourceURL("https://evil.example/a")))
        #expect(try !SourceAllowList([String]()).allows(SourceURL("https://cdn.shop.example/")))
        #expect(try SourceAllowList([String]()).isEmpty)
        #expect(throws: SourcePrefixError(prefix: "https://b.example", reason: .noSlashAfterHost)) {
            try SourceAllowList(["https://a.example/", "https://b.example", "https://c.example"])
        }
    }
}
