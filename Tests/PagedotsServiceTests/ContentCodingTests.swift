@testable import HTTPServer
@testable import PagedotsService
import Testing

/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3; docs/http.md, "Compression").
@Suite struct ContentCodingTests {
    static func negotiate(_ lines: [String]) -> ContentCoding {
        ContentCoding.negotiate(acceptEncoding: lines.map { Substring($0) })
    }

    @Test(arguments: [
        // No field: identity, though RFC 9110 would allow anything (curl without --compressed).
        ([], ContentCoding.identity),
        // An empty value: no coding is wanted (§12.5.3).
        ([""], .identity),
        (["gzip"], .gzip),
        (["deflate, gzip, br"], .gzip),
        (["br"], .identity),
        (["identity"], .identity),
        // Codings are case-insensitive tokens (§8.4.1); x-gzip is gzip (§8.4.1.3).
        (["GZIP"], .gzip),
        (["GZip;Q=0.5"], .gzip),
        (["x-gzip"], .gzip),
        (["X-GZIP"], .gzip),
        // q=0 means "not acceptable" (§12.4.2).
        (["gzip;q=0"], .identity),
        (["gzip;q=0.000"], .identity),
        (["gzip;q=0.001"], .gzip),
        (["gzip;q=1"], .gzip),
        (["gzip;q=1.000"], .gzip),
        (["gzip; q=0.5"], .gzip),
        (["gzip ;q=0.5"], .gzip),
        (["gzip\t;\tq=0.5"], .gzip),
        (["gzip;q = 0.5"], .gzip),
        // Preference: gzip when at least as wanted as identity.
        (["gzip;q=0.5, identity;q=0.6"], .identity),
        (["gzip;q=0.5, identity;q=0.5"], .gzip),
        (["gzip;q=0.6, identity;q=0.5"], .gzip),
        (["gzip;q=0.5"], .gzip),
        (["identity;q=0, gzip;q=0.1"], .gzip),
        // `*` stands for every coding not named, identity included.
        (["*"], .gzip),
        (["*;q=0"], .identity),
        (["*;q=0.5"], .gzip),
        (["*, gzip;q=0"], .identity),
        (["gzip;q=0, *"], .identity),
        (["*;q=0.5, identity"], .identity),
        (["gzip;q=0.5, identity"], .identity),
        (["identity;q=0.5, gzip;q=0.4"], .identity),
        (["*;q=0.5, identity;q=0.4"], .gzip),
        (["br, *;q=0.1"], .gzip),
        (["*;q=0, identity"], .identity),
        // Neither acceptable: identity all the same (the field may be ignored rather than answered 406).
        (["identity;q=0"], .identity),
        (["*;q=0, gzip;q=0"], .identity),
        // Invalid weights: the member is ignored as a whole.
        (["gzip;q=2"], .identity),
        (["gzip;q=1.5"], .identity),
        (["gzip;q=1.0001"], .identity),
        (["gzip;q=0.5000"], .identity),
        (["gzip;q=0.5.1"], .identity),
        (["gzip;q=-1"], .identity),
        (["gzip;q="], .identity),
        (["gzip;q"], .identity),
        (["gzip;q=.5"], .identity),
        (["gzip;q=0.5x"], .identity),
        (["gzip;q=2, *;q=0.3"], .gzip),
        // Valid edge spellings of a qvalue.
        (["gzip;q=0."], .identity),
        (["gzip;q=1."], .gzip),
        // Other parameters are ignored; q is case-insensitive.
        (["gzip;level=9"], .gzip),
        (["gzip;level=9;q=0"], .identity),
        (["gzip;Q=0"], .identity),
        // Empty members and whitespace in the list (§5.6.1).
        ([", ,gzip,"], .gzip),
        ([" \t gzip \t "], .gzip),
        ([",,,"], .identity),
        ([";q=1"], .identity),
        // Not gzip, however close.
        (["gzip2"], .identity),
        (["gzi"], .identity),
        (["gzip-x"], .identity),
        (["\"gzip\""], .identity),
        // A coding named twice keeps its lowest weight: an exclusion stands.
        (["gzip, gzip;q=0"], .identity),
        (["gzip;q=0, x-gzip"], .identity),
        (["gzip;q=0.3, gzip;q=0.9, identity;q=0.5"], .identity),
        // A list on several field lines is one list (§5.3).
        (["br", "gzip"], .gzip),
        (["gzip", "gzip;q=0"], .identity),
        (["identity;q=0.1", "gzip;q=0.2"], .gzip),
    ])
    func negotiates(_ lines: [String], _ expected: ContentCoding) {
        #expect(Self.negotiate(lines) == expected, "\(lines)")
    }

    @Test func readsEveryAcceptEncodingLineOfARequest() {
        let request = HTTPRequest(method: .get, version: .http1_1, path: "/", query: "", headers: [
            HTTPHeaderField("Host", "test"),
            HTTPHeaderField("accept-encoding", "br"),
            HTTPHeaderField("User-Agent", "x"),
            HTTPHeaderField("Accept-Encoding", "gzip"),
        ])
        #expect(request.fieldValues("Accept-Encoding") == ["br", "gzip"])
        #expect(ContentCoding.negotiate(for: request) == .gzip)
        let plain = HTTPRequest(method: .get, version: .http1_1, path: "/", query: "", headers: [HTTPHeaderField("Host", "test")])
        #expect(ContentCoding.negotiate(for: plain) == .identity)
    }

    @Test(arguments: [
        ("image/svg+xml", true), ("text/html; charset=utf-8", true), ("application/json", true), ("Text/HTML", true),
        ("image/png", false), ("image/gif", false), ("text/plain; charset=utf-8", false), ("application/jsonx", false),
    ])
    func textTypesAreCompressible(_ contentType: String, _ compressible: Bool) {
        #expect(ContentCoding.isCompressible(contentType: contentType) == compressible)
    }
}
