import Foundation
import Testing
import TestSupport

/// The real binary on a loopback port, spoken to over sockets.
@Suite struct ServiceIntegrationTests {
    /// The bytes `pagedots render TARGET` writes.
    func rendered(_ target: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["render", target]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(data)
    }

    /// The value of an unlabelled sample in `/metrics`.
    func metric(_ name: String, port: Int) throws -> Double? {
        let client = try HTTPTestClient(port: port)
        client.request("/metrics")
        let text = try client.readResponse().text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test(arguments: [
        "/indicator?pages=5&current=2",
        "/indicator.png?pages=3&style=pill&current=1&scale=3",
        "/indicator@2x.png?pages=4&direction=ttb&color=ff2d55",
        "/indicator@3x?pages=2&bg=black",
    ])
    func servesTheBytesThatRenderWrites(target: String) throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request(target)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("content-type") == "image/png")
        #expect(response.header("content-length") == String(response.body.count))
        #expect(response.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(response.body == (try rendered(target)))
    }

    @Test func imageHeadersFollowTheSpec() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=5&current=2")
        let response = try client.readResponse()
        #expect(response.header("cache-control") == "public, max-age=31536000, immutable")
        let tag = try #require(response.header("etag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
        let date = try #require(response.header("date"))
        #expect(date.hasSuffix(" GMT") && date.count == 29)
        #expect(response.header("x-ignored-parameters") == nil)
    }

    @Test func equivalentURLsShareOneEntityTagAndIgnoredParametersAreListed() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        var tags: Set<String> = []
        for target in [
            "/indicator?current=1&pages=3",
            "/indicator?pages=3&current=1&style=dots",
            "/indicator?pages=3&current=1&color=%23007aff",
            "/indicator?pages=3&current=1&visible=9&utm_source=mail&fbclid=x&utm_source=again",
        ] {
            client.request(target)
            let response = try client.readResponse()
            #expect(response.status == 200)
            tags.insert(try #require(response.header("etag")))
            if target.contains("utm_source") {
                #expect(response.header("x-ignored-parameters") == "utm_source, fbclid")
            }
        }
        #expect(tags.count == 1)
        #expect(try metric("pagedots_cache_hits_total", port: server.port) == 3)
        #expect(try metric("pagedots_cache_misses_total", port: server.port) == 1)
    }

    @Test("Every image request is a hit or a miss, refusals included (the README's metrics)")
    func everyImageRequestIsAHitOrAMiss() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let requests: [(method: String, target: String, status: Int)] = [
            ("GET", "/indicator?pages=3", 200), ("GET", "/indicator?pages=3", 200), ("HEAD", "/indicator?pages=3", 200),
            ("GET", "/indicator?pages=0", 400), ("GET", "/indicator@5x?pages=3", 400),
            ("GET", "/indicator?pages=1000&size=64", 400), ("POST", "/indicator?pages=3", 405),
        ]
        for request in requests {
            client.request(request.target, method: request.method)
            #expect(try client.readResponse(bodyless: request.method == "HEAD").status == request.status, "\(request)")
        }
        let metrics = try MetricsSnapshot(client: client)
        #expect(metrics["pagedots_cache_hits_total"] == 2)
        #expect(metrics["pagedots_cache_misses_total"] == 5)
        let indicatorRequests = [200, 400, 405].compactMap { metrics["pagedots_requests_total{route=\"indicator\",status=\"\($0)\"}"] }
        #expect(indicatorRequests.reduce(0, +) == Double(requests.count))
    }

    @Test func conditionalAndHeadRequests() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=4")
        let full = try client.readResponse()
        let tag = try #require(full.header("etag"))

        client.request("/indicator?pages=4", headers: ["If-None-Match: \(tag)"])
        let notModified = try client.readResponse()
        #expect(notModified.status == 304)
        #expect(notModified.header("etag") == tag)
        #expect(notModified.header("cache-control") == full.header("cache-control"))

        client.request("/indicator?pages=4", headers: ["If-None-Match: \"something-else\""])
        #expect(try client.readResponse().status == 200)

        client.request("/indicator?pages=4", method: "HEAD")
        let head = try client.readResponse(bodyless: true)
        #expect(head.status == 200)
        #expect(head.header("content-length") == String(full.body.count))
        #expect(head.header("etag") == tag)
        // The connection is still in step: the next answer is the next request's.
        client.request("/healthz")
        #expect(try client.readResponse().text == "ok\n")
    }

    @Test func refusalsAreOneLineAndNeverCached() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let cases: [(String, String, Int)] = [
            ("GET", "/indicator?pages=5&current=5", 400),
            ("GET", "/indicator", 400),
            ("GET", "/indicator@9x.png?pages=2", 400),
            ("GET", "/nothing-here", 404),
            ("POST", "/nothing-here", 404),
            ("PUT", "/indicator@9x.png?pages=2", 405),
            ("POST", "/indicator?pages=2", 405),
            ("DELETE", "/healthz", 405),
        ]
        for (method, target, status) in cases {
            client.request(target, method: method, headers: method == "GET" ? [] : ["Content-Length: 0"])
            let response = try client.readResponse()
            #expect(response.status == status, "\(method) \(target)")
            #expect(response.header("cache-control") == "no-store")
            #expect(response.header("content-type") == "text/plain; charset=utf-8")
            #expect(response.text.hasSuffix("\n") && response.text.dropLast().firstIndex(of: "\n") == nil)
            if status == 405 { #expect(response.header("allow") == "GET, HEAD") }
        }
        client.request("/indicator?pages=5&current=5")
        #expect(try client.readResponse().text == "current: must be an integer from 0 to 4 (pages=5); got \"5\"\n")
    }

    @Test func keepAliveAndPipelining() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send(
            "GET /indicator?pages=2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /indicator?pages=3 HTTP/1.1\r\nHost: a\r\n\r\n"
        )
        let first = try client.readResponse()
        let second = try client.readResponse()
        let third = try client.readResponse()
        client.request("/healthz", headers: ["Connection: close"])
        let last = try client.readResponse()
        #expect(last.header("connection") == "close")
        #expect(client.readUntilClosed())
        // Drawn in process after the exchange, which they could otherwise hold past the idle timeout.
        #expect(first.body == (try rendered("pages=2")))
        #expect(second.text == "ok\n")
        #expect(third.body == (try rendered("pages=3")))
    }

    @Test func concurrentIdenticalMissesAreDrawnOnce() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let clients = try (0..<8).map { _ in try HTTPTestClient(port: server.port) }
        for client in clients { client.request("/indicator?pages=40&current=7&scale=4") }
        let bodies = try clients.map { try $0.readResponse().body }
        #expect(Set(bodies).count == 1)
        #expect(try metric("pagedots_render_duration_seconds_count", port: server.port) == 1)
        #expect(try metric("pagedots_cache_misses_total", port: server.port).map { $0 + (try metric("pagedots_cache_hits_total", port: server.port) ?? 0) } == 8)
    }

    @Test func stopsWithStatusZeroOnSIGTERM() throws {
        let server = try ServerProcess()
        let client = try HTTPTestClient(port: server.port)
        client.request("/healthz")
        #expect(try client.readResponse().status == 200)
        #expect(server.stop() == 0)
    }
}
