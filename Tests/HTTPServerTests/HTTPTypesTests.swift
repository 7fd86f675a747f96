import HTTPServer
import Locking
import Testing

@Suite("Public request and responder types")
struct HTTPTypesTests {
    @Test("A request built in code answers header(_:) like a parsed one")
    func requestFromFields() {
        var request = HTTPRequest(
            method: .get, version: .http1_1, path: "/indicator", query: "pages=3",
            headers: [HTTPHeaderField("If-None-Match", "\"abc\""), HTTPHeaderField("X-A", "1"), HTTPHeaderField("x-a", "2")]
        )
        #expect(request.header("if-none-match") == "\"abc\"")
        #expect(request.header("X-A") == "1")
        #expect(request.header("X-B") == nil)
        request.headers.append(HTTPHeaderField("X-B", "3"))
        #expect(request.header("x-b") == "3")
        #expect(request.headers.count == 4)
    }

    @Test("withHeader lends the first matching value's bytes, trimmed, or nil")
    func borrowedHeader() {
        let request = HTTPRequest(
            method: .get, version: .http1_1, path: "/", query: "",
            headers: [HTTPHeaderField("User-Agent", " curl/8 "), HTTPHeaderField("user-agent", "second")]
        )
        var seen: [[UInt8]?] = []
        request.withHeader("USER-AGENT") { seen.append($0.map { Array($0) }) }
        request.withHeader("Referer") { seen.append($0.map { Array($0) }) }
        #expect(seen == [Array("curl/8".utf8), nil])
    }

    @Test("An access record's method and target come from its request; empty without one")
    func accessRecordRequest() {
        let request = HTTPRequest(method: .head, version: .http1_0, path: "/a", query: "b=1", headers: [])
        let record = HTTPAccessRecord(peer: "[::1]:80", request: request, status: 200, bodyBytes: 0, seconds: 0, label: 1, problem: nil)
        #expect(record.method == "HEAD")
        #expect(record.target == "/a?b=1")
        let refusal = HTTPAccessRecord(peer: "[::1]:80", request: nil, status: 400, bodyBytes: 5, seconds: 0, label: 0, problem: "bad")
        #expect(refusal.method.isEmpty)
        #expect(refusal.target.isEmpty)
    }

    @Test("Method names and versions print as on the wire")
    func names() {
        #expect(HTTPMethod.get.name == "GET")
        #expect(HTTPMethod.head.name == "HEAD")
        #expect(HTTPMethod.other("PURGE").name == "PURGE")
        #expect(HTTPVersion.http1_0.description == "HTTP/1.0")
    }

    @Test("A callback responder hands over what is sent, for testing handlers without a server")
    func callbackResponder() {
        let received = Locked<[(Int, [HTTPHeaderField])]>([])
        let responder = HTTPResponder { response, extraHeaders in
            received.withLock { $0.append((response.status, extraHeaders)) }
        }
        responder.send(HTTPResponse(status: 404))
        responder.send(PreparedResponse(HTTPResponse(status: 200)), extraHeaders: [HTTPHeaderField("X", "y")])
        let statuses = received.withLock { $0.map(\.0) }
        #expect(statuses == [404, 200])
        #expect(received.withLock { $0.last?.1 } == [HTTPHeaderField("X", "y")])
    }
}
