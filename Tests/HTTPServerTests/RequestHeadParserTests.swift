@testable import HTTPServer
import Testing

@Suite("Request head parser: accepted forms")
struct RequestHeadParserAcceptanceTests {
    /// Parses `text` as exactly one head and returns it.
    private func head(_ text: String, _ chunking: Chunking) throws -> ParsedHead {
        let outcomes = ParserFeed.outcomes(text, chunking: chunking)
        try #require(outcomes.count == 1, "\(outcomes)")
        return try #require(outcomes[0].head, "\(outcomes)")
    }

    @Test("RFC 9112 §3: origin-form with a query", arguments: Chunking.allCases)
    func originForm(chunking: Chunking) throws {
        let text = "GET /indicator@2x.png?pages=5&current=2 HTTP/1.1\r\nHost: dots.example\r\nAccept: image/png\r\n\r\n"
        let head = try head(text, chunking)
        #expect(head.request.method == .get)
        #expect(head.request.version == .http1_1)
        #expect(head.request.path == "/indicator@2x.png")
        #expect(head.request.query == "pages=5&current=2")
        #expect(head.request.header("host") == "dots.example")
        #expect(head.request.header("ACCEPT") == "image/png")
        #expect(head.request.header("Missing") == nil)
        #expect(head.length == text.utf8.count)
        #expect(head.framing == .none)
        #expect(head.keepAlive)
    }

    @Test("RFC 9110 §9.1: methods are case-sensitive tokens passed through", arguments: Chunking.allCases)
    func methods(chunking: Chunking) throws {
        #expect(try head("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request.method == .head)
        #expect(try head("PURGE / HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request.method == .other("PURGE"))
        #expect(try head("get / HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request.method == .other("get"))
        #expect(try head("M-SEARCH / HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request.method == .other("M-SEARCH"))
    }

    @Test("RFC 9112 §3.2: a path without a query has an empty query", arguments: Chunking.allCases)
    func noQuery(chunking: Chunking) throws {
        let request = try head("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request
        #expect(request.path == "/healthz")
        #expect(request.query == "")
        let withEmptyQuery = try head("GET /x? HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request
        #expect(withEmptyQuery.path == "/x")
        #expect(withEmptyQuery.query == "")
    }

    @Test("RFC 9112 §3.2.2: absolute-form is accepted; the path is its path part", arguments: Chunking.allCases)
    func absoluteForm(chunking: Chunking) throws {
        let request = try head("GET http://dots.example:8080/indicator?pages=3 HTTP/1.1\r\nHost: dots.example:8080\r\n\r\n", chunking).request
        #expect(request.path == "/indicator")
        #expect(request.query == "pages=3")
        let bare = try head("GET HTTPS://dots.example HTTP/1.1\r\nHost: dots.example\r\n\r\n", chunking).request
        #expect(bare.path == "/")
        let queryOnly = try head("GET http://dots.example?a=1 HTTP/1.1\r\nHost: dots.example\r\n\r\n", chunking).request
        #expect(queryOnly.path == "/")
        #expect(queryOnly.query == "a=1")
    }

    @Test("RFC 9112 §3.2.4: asterisk-form with OPTIONS", arguments: Chunking.allCases)
    func asteriskForm(chunking: Chunking) throws {
        let request = try head("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", chunking).request
        #expect(request.method == .other("OPTIONS"))
        #expect(request.path == "*")
    }

    @Test("RFC 9112 §2.2: empty lines before the request line are ignored", arguments: Chunking.allCases)
    func leadingEmptyLines(chunking: Chunking) throws {
        let text = "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        let head = try head(text, chunking)
        #expect(head.request.path == "/")
        #expect(head.length == text.utf8.count)
    }

    @Test("RFC 9112 §3.2: HTTP/1.0 needs no Host", arguments: Chunking.allCases)
    func http10WithoutHost(chunking: Chunking) throws {
        let head = try head("GET / HTTP/1.0\r\n\r\n", chunking)
        #expect(head.request.version == .http1_0)
        #expect(!head.keepAlive)
    }

    @Test("RFC 9112 §9.3: persistence by version and Connection options", arguments: Chunking.allCases)
    func persistence(chunking: Chunking) throws {
        #expect(try head("GET / HTTP/1.1\r\nHost: a\r\n\r\n", chunking).keepAlive)
        #expect(try !head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", chunking).keepAlive)
        #expect(try !head("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive, CLOSE\r\n\r\n", chunking).keepAlive)
        #expect(try !head("GET / HTTP/1.0\r\n\r\n", chunking).keepAlive)
        #expect(try head("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", chunking).keepAlive)
        #expect(try head("GET / HTTP/1.0\r\nConnection: upgrade,  Keep-Alive \r\n\r\n", chunking).keepAlive)
    }

    @Test("RFC 9110 §5.5: values lose surrounding whitespace, keep inner whitespace and obs-text", arguments: Chunking.allCases)
    func fieldValues(chunking: Chunking) throws {
        let bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Spaced: \t one  two \t\r\nX-Text: caf".utf8) + [0xC3, 0xA9]
            + Array("\r\nX-Spaced: second\r\n\r\n".utf8)
        let outcomes = ParserFeed.outcomes(bytes, chunking: chunking)
        let request = try #require(outcomes.first?.head).request
        #expect(request.header("x-empty") == "")
        #expect(request.header("X-SPACED") == "one  two")
        #expect(request.header("x-text") == "café")
        #expect(request.headers.map(\.name) == ["Host", "X-Empty", "X-Spaced", "X-Text", "X-Spaced"])
        #expect(request.headers.last?.value == "second")
    }

    @Test("RFC 9112 §6.3: Content-Length gives the body's length; equal repeats count once", arguments: Chunking.allCases)
    func contentLength(chunking: Chunking) throws {
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", chunking).framing == .length(5))
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", chunking).framing == .none)
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 7, 7\r\n\r\n", chunking).framing == .length(7))
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\nContent-Length: 007\r\n\r\n", chunking).framing == .length(7))
    }

    @Test("RFC 9112 §6.1: Transfer-Encoding chunked on HTTP/1.1", arguments: Chunking.allCases)
    func chunked(chunking: Chunking) throws {
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", chunking).framing == .chunked)
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked \r\n\r\n", chunking).framing == .chunked)
    }

    @Test("RFC 9110 §10.1.1: Expect: 100-continue is noted on HTTP/1.1", arguments: Chunking.allCases)
    func expectContinue(chunking: Chunking) throws {
        #expect(try head("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n", chunking).expectsContinue)
        #expect(try !head("PUT / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", chunking).expectsContinue)
    }

    @Test("RFC 9112 §9.3.2: pipelined heads come out one by one, in order", arguments: Chunking.allCases)
    func pipelined(chunking: Chunking) throws {
        let text = (1...3).map { "GET /\($0) HTTP/1.1\r\nHost: a\r\n\r\n" }.joined()
        let outcomes = ParserFeed.outcomes(text, chunking: chunking)
        #expect(outcomes.compactMap(\.head).map(\.request.path) == ["/1", "/2", "/3"])
    }
}

@Suite("Request head parser: limits")
struct RequestHeadParserLimitTests {
    /// A request line of exactly `length` bytes (CRLF not counted).
    private func requestLine(length: Int) -> String {
        let fixed = "GET /".utf8.count + " HTTP/1.1".utf8.count
        return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1"
    }

    /// Field lines whose bytes, CRLFs included, add up to `total`, in `lines` lines.
    private func fields(total: Int, lines: Int) -> String {
        var text = "Host: a\r\n"
        for index in 1..<lines {
            let remaining = total - text.utf8.count
            let linesLeft = lines - index
            let length = linesLeft == 1 ? remaining : remaining / linesLeft
            let name = "X-\(index): "
            text += name + String(repeating: "v", count: length - name.utf8.count - 2) + "\r\n"
        }
        return text
    }

    @Test("RFC 9112 §3: a request line of 8192 bytes is accepted", arguments: Chunking.allCases)
    func requestLineAtLimit(chunking: Chunking) {
        let outcomes = ParserFeed.outcomes(requestLine(length: 8192) + "\r\nHost: a\r\n\r\n", chunking: chunking)
        #expect(outcomes.first?.head != nil)
    }

    @Test("RFC 9112 §3: a request line of 8193 bytes is 414", arguments: Chunking.allCases)
    func requestLineOverLimit(chunking: Chunking) {
        let outcomes = ParserFeed.outcomes(requestLine(length: 8193) + "\r\nHost: a\r\n\r\n", chunking: chunking)
        #expect(outcomes.first?.error == .requestLineTooLong(limit: 8192))
        #expect(outcomes.first?.error?.status == 414)
    }

    @Test("RFC 9112 §3: an endless request line is refused before its end arrives", arguments: [8193, 8194])
    func requestLineWithoutEnd(length: Int) {
        var feed = ParserFeed()
        feed.feed(Array(requestLine(length: 8192).utf8) + [ASCII.cr])
        #expect(feed.outcomes.isEmpty)
        feed = ParserFeed()
        feed.feed(Array(requestLine(length: length).utf8))
        #expect(feed.outcomes.first?.error == .requestLineTooLong(limit: 8192))
    }

    @Test("RFC 6585 §5: a header section of 16384 bytes is accepted, 16385 is 431", arguments: Chunking.allCases)
    func headerBytes(chunking: Chunking) {
        let atLimit = fields(total: 16384, lines: 20)
        #expect(atLimit.utf8.count == 16384)
        #expect(ParserFeed.outcomes("GET / HTTP/1.1\r\n" + atLimit + "\r\n", chunking: chunking).first?.head != nil)
        let overLimit = fields(total: 16385, lines: 20)
        let outcomes = ParserFeed.outcomes("GET / HTTP/1.1\r\n" + overLimit + "\r\n", chunking: chunking)
        #expect(outcomes.first?.error == .headerSectionTooLarge(limit: 16384))
        #expect(outcomes.first?.error?.status == 431)
    }

    @Test("RFC 6585 §5: an endless header line is refused before its end arrives")
    func headerLineWithoutEnd() {
        var feed = ParserFeed()
        feed.feed(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 16384)).utf8))
        #expect(feed.outcomes.first?.error == .headerSectionTooLarge(limit: 16384))
    }

    @Test("RFC 6585 §5: 100 header lines are accepted, 101 is 431", arguments: Chunking.allCases)
    func headerLines(chunking: Chunking) {
        let hundred = (1...99).map { "X-\($0): v\r\n" }.joined()
        #expect(ParserFeed.outcomes("GET / HTTP/1.1\r\nHost: a\r\n" + hundred + "\r\n", chunking: chunking).first?.head != nil)
        let outcomes = ParserFeed.outcomes("GET / HTTP/1.1\r\nHost: a\r\n" + hundred + "X-100: v\r\n\r\n", chunking: chunking)
        #expect(outcomes.first?.error == .tooManyHeaderLines(limit: 100))
        #expect(outcomes.first?.error?.status == 431)
    }

    @Test("Limits come from the configuration")
    func configuredLimits() {
        let limits = RequestHeadParser.Limits(maxRequestLineBytes: 20, maxHeaderBytes: 30, maxHeaderLines: 2)
        let line = Array("GET /0123456789 HTTP/1.1\r\n\r\n".utf8)
        #expect(ParserFeed.outcomes(line, chunking: .allAtOnce, limits: limits).first?.error == .requestLineTooLong(limit: 20))
        let three = Array("GET / HTTP/1.0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n".utf8)
        #expect(ParserFeed.outcomes(three, chunking: .allAtOnce, limits: limits).first?.error == .tooManyHeaderLines(limit: 2))
    }
}

@Suite("Request head parser: rejections")
struct RequestHeadParserRejectionTests {
    private func error(_ text: String, _ chunking: Chunking) -> HTTPProtocolError? {
        ParserFeed.outcomes(text, chunking: chunking).first?.error
    }

    private func errorStatus(_ text: String, _ chunking: Chunking) -> Int? {
        error(text, chunking)?.status
    }

    @Test("RFC 9112 §3: the request line is method SP target SP version, single spaces", arguments: Chunking.allCases)
    func malformedRequestLine(chunking: Chunking) {
        for line in [
            "GET  / HTTP/1.1", " GET / HTTP/1.1", "GET / HTTP/1.1 ", "GET\t/ HTTP/1.1", "GET /\tHTTP/1.1",
            "GET /", "GET / ", "/ HTTP/1.1", "GET", "G(T / HTTP/1.1", "GET / HTTP/1.10", "GET / http/1.1",
            "GET / HTTP/11", "GET / HTTP/1.", "GET / HTTP/a.1", "GET / HTTP/1.1 extra",
        ] {
            #expect(error(line + "\r\nHost: a\r\n\r\n", chunking) == .malformedRequestLine, "\(line)")
        }
    }

    @Test("RFC 9112 §2.3: versions other than 1.0 and 1.1 are 505", arguments: Chunking.allCases)
    func unsupportedVersions(chunking: Chunking) {
        for version in ["HTTP/2.0", "HTTP/3.0", "HTTP/1.2", "HTTP/0.9", "HTTP/9.9"] {
            #expect(errorStatus("GET / \(version)\r\nHost: a\r\n\r\n", chunking) == 505, "\(version)")
        }
        #expect(errorStatus("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", chunking) == 505)
    }

    @Test("RFC 9112 §3.2: targets must be origin-form, absolute-form, or * with OPTIONS", arguments: Chunking.allCases)
    func invalidTargets(chunking: Chunking) {
        for target in [
            "index.html", "*", "ftp://host/x", "http:///path", "http://", "/a#fragment",
            "dots.example:443", "http://user@host/", "/caf\u{E9}",
        ] {
            #expect(error("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n", chunking) == .invalidTarget, "\(target)")
        }
    }

    @Test("RFC 9112 §3: a control character in the target is 400", arguments: Chunking.allCases)
    func controlCharacterInTarget(chunking: Chunking) {
        let bytes = Array("GET /a".utf8) + [0x01] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        #expect(ParserFeed.outcomes(bytes, chunking: chunking).first?.error?.status == 400)
    }

    @Test("RFC 9112 §2.2: lines end with CRLF; a bare LF is refused (this server's choice)", arguments: Chunking.allCases)
    func bareLineFeed(chunking: Chunking) {
        #expect(error("GET / HTTP/1.1\nHost: a\r\n\r\n", chunking) == .bareLineEnding)
        #expect(error("GET / HTTP/1.1\r\nHost: a\n\r\n", chunking) == .bareLineEnding)
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\n\n", chunking) == .bareLineEnding)
        #expect(error("\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", chunking) == .bareLineEnding)
    }

    @Test("RFC 9112 §2.2: a bare CR is refused", arguments: Chunking.allCases)
    func bareCarriageReturn(chunking: Chunking) {
        #expect(errorStatus("GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", chunking) == 400)
        #expect(errorStatus("GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", chunking) == 400)
    }

    @Test("RFC 9112 §5.2: obs-fold (a line starting with whitespace) is 400", arguments: Chunking.allCases)
    func obsoleteLineFolding(chunking: Chunking) {
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n two\r\n\r\n", chunking) == .obsoleteLineFolding)
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n\ttwo\r\n\r\n", chunking) == .obsoleteLineFolding)
        // §2.2: whitespace between the start line and the first field.
        #expect(error("GET / HTTP/1.1\r\n Host: a\r\n\r\n", chunking) == .obsoleteLineFolding)
    }

    @Test("RFC 9112 §5.1: whitespace between a field name and its colon is 400", arguments: Chunking.allCases)
    func whitespaceBeforeColon(chunking: Chunking) {
        #expect(error("GET / HTTP/1.1\r\nHost : a\r\n\r\n", chunking) == .whitespaceBeforeColon)
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\nX-A\t: b\r\n\r\n", chunking) == .whitespaceBeforeColon)
    }

    @Test("RFC 9110 §5.1: a field line needs a colon after a token name", arguments: Chunking.allCases)
    func invalidFieldLines(chunking: Chunking) {
        for line in ["NoColon", ": empty name", "X(: y", "X Y: z", "Ünicode: x", "X/Y: z"] {
            #expect(error("GET / HTTP/1.1\r\nHost: a\r\n\(line)\r\n\r\n", chunking) == .invalidHeaderField, "\(line)")
        }
    }

    @Test("RFC 9110 §5.5: NUL and other control characters in a value are 400", arguments: Chunking.allCases)
    func controlCharactersInValue(chunking: Chunking) {
        for control: UInt8 in [0x00, 0x01, 0x1F, 0x7F] {
            let bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: a".utf8) + [control] + Array("b\r\n\r\n".utf8)
            #expect(ParserFeed.outcomes(bytes, chunking: chunking).first?.error == .invalidHeaderField, "\(control)")
        }
    }

    @Test("RFC 9112 §3.2: HTTP/1.1 needs exactly one valid Host", arguments: Chunking.allCases)
    func host(chunking: Chunking) {
        #expect(error("GET / HTTP/1.1\r\n\r\n", chunking) == .missingHost)
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", chunking) == .multipleHosts)
        #expect(error("GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", chunking) == .multipleHosts)
        #expect(error("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", chunking) == .invalidHost)
        #expect(error("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", chunking) == .invalidHost)
        #expect(error("GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", chunking) == .invalidHost)
    }

    @Test("RFC 9112 §6.1: Content-Length with Transfer-Encoding is 400", arguments: Chunking.allCases)
    func contentLengthWithTransferEncoding(chunking: Chunking) {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(error(text, chunking) == .contentLengthWithTransferEncoding)
    }

    @Test("RFC 9112 §6.3: invalid or conflicting Content-Length is 400", arguments: Chunking.allCases)
    func invalidContentLength(chunking: Chunking) {
        for value in ["abc", "-1", "+5", "", "5.0", "0x10", "5,", ", 5", "1 2"] {
            #expect(error("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\n", chunking) == .invalidContentLength, "\(value)")
        }
        #expect(error("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\n", chunking) == .conflictingContentLength)
        #expect(error("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", chunking) == .conflictingContentLength)
    }

    @Test("RFC 9112 §6.1: a transfer coding other than one chunked is 400", arguments: Chunking.allCases)
    func unsupportedTransferEncodings(chunking: Chunking) {
        for value in ["gzip", "gzip, chunked", "chunked, chunked", "identity", ""] {
            #expect(error("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(value)\r\n\r\n", chunking) == .unsupportedTransferEncoding, "\(value)")
        }
        let twoLines = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(error(twoLines, chunking) == .unsupportedTransferEncoding)
        // §6.1: Transfer-Encoding on HTTP/1.0 is faulty framing.
        #expect(error("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", chunking) == .unsupportedTransferEncoding)
    }

    @Test("An error stops the stream: nothing after it is parsed as a request")
    func errorEndsStream() {
        let outcomes = ParserFeed.outcomes("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", chunking: .allAtOnce)
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.error == .missingHost)
    }
}
