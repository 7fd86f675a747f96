import Foundation
import Testing
import TestSupport

/// Issue 6 items 1 and 3, through the real binary: every request the server
/// refuses is answered with its status and `Connection: close`, the
/// connection ends, and nothing of it reaches the renderer.
@Suite struct HostileRequestTests {
    /// A request head around an image target, so that a request that slipped
    /// through would be drawn and counted.
    static let image = "/indicator?pages=7&current=3"

    static let refusals: [(name: String, bytes: String, status: Int)] = [
        ("request line over 8192 bytes", "GET \(image)&pad=\(String(repeating: "a", count: 8192)) HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        ("header section over 16384 bytes", "GET \(image) HTTP/1.1\r\nHost: a\r\nX-Pad: \(String(repeating: "b", count: 16384))\r\n\r\n", 431),
        ("101 header lines", "GET \(image) HTTP/1.1\r\nHost: a\r\n" + (1...100).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
        ("two spaces in the request line", "GET  \(image) HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("no version", "GET \(image)\r\nHost: a\r\n\r\n", 400),
        ("header line without a colon", "GET \(image) HTTP/1.1\r\nHost: a\r\nX-Bad\r\n\r\n", 400),
        ("whitespace before a colon", "GET \(image) HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("obs-fold", "GET \(image) HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", 400),
        ("NUL inside a value", "GET \(image) HTTP/1.1\r\nHost: a\r\nX-A: b\u{0}c\r\n\r\n", 400),
        ("CR inside a value", "GET \(image) HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", 400),
        ("bare LF line ending", "GET \(image) HTTP/1.1\nHost: a\n\n", 400),
        ("invalid Content-Length", "GET \(image) HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400),
        ("Content-Length repeated with another value", "GET \(image) HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
        ("Content-Length with Transfer-Encoding", "GET \(image) HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("Transfer-Encoding other than chunked", "GET \(image) HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("HTTP/1.1 without Host", "GET \(image) HTTP/1.1\r\n\r\n", 400),
        ("two Hosts", "GET \(image) HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("HTTP/2.0", "GET \(image) HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("HTTP/3.0", "GET \(image) HTTP/3.0\r\nHost: a\r\n\r\n", 505),
        ("body over the 64 KiB cap", "GET \(image) HTTP/1.1\r\nHost: a\r\nContent-Length: 65537\r\n\r\n", 413),
        ("malformed chunked body", "GET \(image) HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ]

    @Test("Each refusal: its status, Connection: close, the connection ends, and nothing is drawn")
    func refusalsCloseAndNeverRender() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        for refusal in Self.refusals {
            let client = try HTTPTestClient(port: server.port)
            client.send(refusal.bytes + "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == refusal.status, "\(refusal.name)")
            #expect(response.header("connection") == "close", "\(refusal.name)")
            #expect(response.header("cache-control") == "no-store", "\(refusal.name)")
            // The request after the refused one is never answered: the connection ends.
            #expect(client.readUntilClosed(), "\(refusal.name)")
        }
        let metrics = try MetricsSnapshot(port: server.port)
        #expect(metrics["pagedots_render_duration_seconds_count"] == 0)
        #expect(metrics["pagedots_cache_misses_total"] == 0)
        #expect(metrics["pagedots_cache_hits_total"] == 0)
    }

    @Test("Refusals are written to the error log with the peer and the reason")
    func refusalsAreLogged() throws {
        let server = try ServerProcess(["--access-log", "off"])
        let client = try HTTPTestClient(port: server.port)
        client.send("GET \(Self.image) HTTP/2.0\r\nHost: a\r\n\r\n")
        #expect(try client.readResponse().status == 505)
        #expect(server.stop() == 0)
        let errors = server.remainingErrorOutput()
        #expect(errors.contains(" 127.0.0.1:"))
        #expect(errors.contains(" 505 refused: HTTP version not supported: use HTTP/1.1 or HTTP/1.0\n"))
    }

    @Test(
        "RFC 9112 §6.3: a body on GET is read and dropped; a request hidden in it is never served",
        arguments: [
            "Content-Length: 45\r\n\r\nGET /indicator?pages=7&current=3 HTTP/1.1\r\n\r\n",
            "Transfer-Encoding: chunked\r\n\r\n2d\r\nGET /indicator?pages=7&current=3 HTTP/1.1\r\n\r\n\r\n0\r\n\r\n",
        ]
    )
    func bodyCannotSmuggleARequest(framingAndBody: String) throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\n" + framingAndBody + "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try client.readResponse().text == "ok\n")
        #expect(try client.readResponse().text == "ok\n")
        let metrics = try MetricsSnapshot(port: server.port)
        #expect(metrics["pagedots_render_duration_seconds_count"] == 0)
        #expect(metrics["pagedots_cache_misses_total"] == 0)
    }

    @Test("--max-connections: one connection over the limit is answered 503 with Retry-After and closed")
    func connectionLimit() throws {
        let server = try ServerProcess(["--max-connections", "2"])
        defer { server.stop() }
        // Two connections, each proven open by an answer.
        let open = try (0..<2).map { _ in try HTTPTestClient(port: server.port) }
        for client in open {
            client.request("/healthz")
            #expect(try client.readResponse().status == 200)
        }
        let third = try HTTPTestClient(port: server.port)
        let refused = try third.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("retry-after") == "1")
        #expect(refused.header("connection") == "close")
        #expect(third.readUntilClosed())
        // The connections within the limit are still served.
        open[0].request("/healthz")
        #expect(try open[0].readResponse().status == 200)
    }
}

/// The unlabelled samples of `/metrics`, by name.
struct MetricsSnapshot {
    private var values: [String: Double] = [:]

    init(port: Int) throws {
        try self.init(client: HTTPTestClient(port: port))
    }

    /// Read on an open connection: its earlier responses are counted in
    /// `pagedots_requests_total` before the loop reads this request (a new
    /// connection could be served by another loop before that).
    init(client: HTTPTestClient) throws {
        client.request("/metrics")
        for line in try client.readResponse().text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
    }

    subscript(name: String) -> Double? { values[name] }
}
