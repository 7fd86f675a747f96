@testable import HTTPServer
import Testing

@Suite("Prepared responses and their wire form")
struct PreparedResponseTests {
    private let dateLine = Array("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".utf8)

    private func wire(
        _ response: HTTPResponse, extraHeaders: [HTTPHeaderField] = [],
        disposition: ConnectionDisposition = .keepAlive, includeBody: Bool = true
    ) -> String {
        var buffer = ByteBuffer(retainedCapacity: HTTPServerConfiguration().retainedBufferBytes)
        buffer.appendResponse(
            PreparedResponse(response), extraHeaders: extraHeaders, dateLine: dateLine,
            disposition: disposition, includeBody: includeBody
        )
        return buffer.withUnconsumedBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("Status line, headers, Content-Length, extra headers, Date, blank line, body")
    func wireForm() {
        let response = HTTPResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "text/plain")], body: Array("hi".utf8))
        #expect(wire(response, extraHeaders: [HTTPHeaderField("X-Ignored-Parameters", "utm_source")]) ==
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
            + "X-Ignored-Parameters: utm_source\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nhi")
        #expect(wire(response, disposition: .close).hasSuffix("GMT\r\nConnection: close\r\n\r\nhi"))
        #expect(wire(response, disposition: .keepAliveHTTP10).hasSuffix("GMT\r\nConnection: keep-alive\r\n\r\nhi"))
    }

    @Test("RFC 9110 §9.3.2: HEAD keeps Content-Length and leaves the body out")
    func head() {
        let response = HTTPResponse(status: 200, body: Array("hello".utf8))
        #expect(wire(response, includeBody: false) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n")
    }

    @Test("RFC 9110 §6.4.1, §8.6: 304 and 204 have no Content-Length and no body")
    func noBodyStatuses() {
        for status in [304, 204] {
            let prepared = PreparedResponse(HTTPResponse(status: status, headers: [HTTPHeaderField("ETag", "\"x\"")], body: [1, 2, 3]))
            let text = wire(HTTPResponse(status: status, headers: [HTTPHeaderField("ETag", "\"x\"")], body: [1, 2, 3]))
            #expect(!text.contains("Content-Length"))
            #expect(text.hasSuffix("\r\n\r\n"))
            #expect(prepared.body.isEmpty)
        }
    }

    @Test("Headers the server owns are dropped; CR, LF and NUL cannot split the response")
    func sanitised() {
        let response = HTTPResponse(status: 404, headers: [
            HTTPHeaderField("content-length", "99"), HTTPHeaderField("Connection", "keep-alive"),
            HTTPHeaderField("Date", "yesterday"), HTTPHeaderField("X-Evil", "a\r\nSet-Cookie: b\u{0}"),
        ])
        let text = wire(response, extraHeaders: [HTTPHeaderField("X\nY", "z")])
        #expect(text == "HTTP/1.1 404 Not Found\r\nX-Evil: a  Set-Cookie: b \r\nContent-Length: 0\r\nX Y: z\r\n"
            + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n")
    }

    @Test("Status, label and byte count are kept")
    func properties() {
        let prepared = PreparedResponse(HTTPResponse(status: 418, body: Array("tea".utf8), label: 7))
        #expect(prepared.status == 418)
        #expect(prepared.label == 7)
        #expect(prepared.byteCount == prepared.head.count + 3)
        #expect(String(decoding: prepared.head, as: UTF8.self) == "HTTP/1.1 418 \r\nContent-Length: 3\r\n")
    }

    @Test("RFC 9110 §5.6.7: Date is an IMF-fixdate")
    func imfFixdate() {
        #expect(String(decoding: DateHeader.imfFixdate(secondsSince1970: 784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(String(decoding: DateHeader.imfFixdate(secondsSince1970: 0), as: UTF8.self) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(String(decoding: DateHeader.imfFixdate(secondsSince1970: 1_709_251_199), as: UTF8.self) == "Thu, 29 Feb 2024 23:59:59 GMT")
    }

    @Test("Protocol errors are one-line, no-store, plain text; 503 says when to retry")
    func protocolErrorResponses() {
        let text = wire(HTTPResponse(status: 0), disposition: .close)
        #expect(text.hasPrefix("HTTP/1.1 0 \r\n"))
        let error = HTTPProtocolError.requestLineTooLong(limit: 8192)
        var buffer = ByteBuffer(retainedCapacity: HTTPServerConfiguration().retainedBufferBytes)
        buffer.appendResponse(error.response, extraHeaders: [], dateLine: dateLine, disposition: .close, includeBody: true)
        #expect(buffer.withUnconsumedBytes { String(decoding: $0, as: UTF8.self) } ==
            "HTTP/1.1 414 URI Too Long\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"
            + "Content-Length: 36\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nConnection: close\r\n\r\n"
            + "request line longer than 8192 bytes\n")
        let unavailable = HTTPProtocolError.tooManyConnections.response
        #expect(String(decoding: unavailable.head, as: UTF8.self).contains("Retry-After: 1\r\n"))
        #expect(HTTPProtocolError.requestTimeout(seconds: 2.5).reason == "request not received within 2.5 s")
        #expect(HTTPProtocolError.requestTimeout(seconds: 10).reason == "request not received within 10 s")
    }
}
