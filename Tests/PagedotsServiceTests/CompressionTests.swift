@testable import HTTPServer
@testable import PagedotsService
import Locking
import Testing
import TestSupport

/// Compression on every route (docs/http.md, "Compression"): each route ×
/// a request that does or does not accept gzip × `GET`, `HEAD` and a
/// revalidation, in process.
@Suite struct CompressionTests {
    struct Route: CustomTestStringConvertible, Sendable {
        var path: String
        var query = ""
        /// Sent gzip-compressed to a client that accepts it; `Vary` on every answer.
        var compressible: Bool
        /// Has an `ETag` and answers `If-None-Match` with `304`.
        var tagged: Bool
        var testDescription: String { query.isEmpty ? path : "\(path)?\(query)" }
    }

    static let routes: [Route] = [
        Route(path: "/", compressible: true, tagged: true),
        Route(path: "/openapi.json", compressible: true, tagged: true),
        Route(path: "/metrics", compressible: true, tagged: false),
        Route(path: "/healthz", compressible: false, tagged: false),
        Route(path: "/indicator", query: "pages=5&current=2", compressible: false, tagged: true),
        Route(path: "/indicator@2x.png", query: "pages=5&style=pill", compressible: false, tagged: true),
        Route(path: "/indicator.svg", query: "pages=5&current=2", compressible: true, tagged: true),
        Route(path: "/indicator", query: "pages=7&format=svg&shape=heart", compressible: true, tagged: true),
    ]

    /// `Accept-Encoding` values, and whether each accepts gzip.
    static let acceptEncodings: [(value: String?, gzip: Bool)] = [
        (nil, false), ("identity", false), ("gzip;q=0, br", false),
        ("gzip", true), ("gzip, deflate, br, zstd", true), ("*", true),
    ]

    /// One answer of the service, read from what the responder was given.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        init(_ response: PreparedResponse) {
            status = response.status
            let lines = String(decoding: response.head, as: UTF8.self).split(separator: "\r\n").dropFirst()
            headers = Dictionary(lines.map { line in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (line[..<colon].lowercased(), String(line[colon...].dropFirst().drop { $0 == " " }))
            }, uniquingKeysWith: { first, _ in first })
            body = response.body
        }
    }

    static func ask(_ service: PagedotsService, _ route: Route, method: HTTPMethod = .get, headers: [HTTPHeaderField] = []) throws -> Answer {
        let request = HTTPRequest(method: method, version: .http1_1, path: route.path, query: route.query,
                                  headers: [HTTPHeaderField("Host", "test")] + headers)
        let answer = Locked<PreparedResponse?>(nil)
        let delivered = Semaphore()
        service.handle(request, responder: HTTPResponder { response, _ in
            answer.withLock { $0 = response }
            delivered.signal()
        })
        delivered.wait()
        return Answer(try #require(answer.withLock { $0 }))
    }

    @Test(arguments: routes)
    func everyRouteWithAndWithoutGzip(_ route: Route) throws {
        let service = PagedotsService(configuration: ServiceConfiguration())
        let plain = try Self.ask(service, route)
        #expect(plain.status == 200)
        for accept in Self.acceptEncodings {
            let headers = accept.value.map { [HTTPHeaderField("Accept-Encoding", $0)] } ?? []
            let context = Comment(rawValue: "Accept-Encoding: \(accept.value ?? "(none)")")
            let gzipped = route.compressible && accept.gzip

            // GET: the coding, Vary and the variant's tag.
            let full = try Self.ask(service, route, headers: headers)
            #expect(full.status == 200, context)
            #expect(full.headers["content-encoding"] == (gzipped ? "gzip" : nil), context)
            #expect(full.headers["vary"] == (route.compressible ? "Accept-Encoding" : nil), context)
            #expect(full.headers["content-type"] == plain.headers["content-type"], context)
            #expect(full.headers["cache-control"] == plain.headers["cache-control"], context)
            if gzipped {
                let inflated = try #require(gunzip(full.body), context)
                if route.path == "/metrics" {
                    #expect(String(decoding: inflated, as: UTF8.self).contains("\npagedots_build_info{"), context)
                } else {
                    #expect(inflated == plain.body, context)
                }
            } else if route.path != "/metrics" {
                #expect(full.body == plain.body, context)
            }
            let tag = full.headers["etag"]
            #expect((tag != nil) == route.tagged, context)
            if let tag, let plainTag = plain.headers["etag"] {
                #expect(tag == (gzipped ? Representations.Variant.gzipTag(of: plainTag) : plainTag), context)
            }

            // HEAD: the very head of the GET (the server leaves the body out).
            let head = try Self.ask(service, route, method: .head, headers: headers)
            #expect(head.status == 200, context)
            if route.path == "/metrics" {
                #expect(head.headers.filter { $0.key != "content-length" } == full.headers.filter { $0.key != "content-length" }, context)
            } else {
                #expect(head.headers == full.headers, context)
            }

            // If-None-Match: 304 for the selected variant's tag, with its Vary, ETag and Content-Encoding.
            let ifNoneMatch = HTTPHeaderField("If-None-Match", tag ?? "*")
            let revalidated = try Self.ask(service, route, headers: headers + [ifNoneMatch])
            guard let tag else {
                #expect(revalidated.status == 200, context)
                continue
            }
            #expect(revalidated.status == 304, context)
            #expect(revalidated.body.isEmpty, context)
            #expect(revalidated.headers["etag"] == tag, context)
            #expect(revalidated.headers["vary"] == full.headers["vary"], context)
            #expect(revalidated.headers["content-encoding"] == full.headers["content-encoding"], context)
            #expect(revalidated.headers["cache-control"] == full.headers["cache-control"], context)
            #expect(revalidated.headers["content-length"] == nil, context)

            // The other variant's tag names another representation: the full answer.
            if route.compressible, let plainTag = plain.headers["etag"] {
                let otherTag = gzipped ? plainTag : Representations.Variant.gzipTag(of: plainTag)
                let other = try Self.ask(service, route, headers: headers + [HTTPHeaderField("If-None-Match", otherTag)])
                #expect(other.status == 200, context)
                #expect(other.headers["etag"] == tag, context)
            }
        }
    }

    @Test("Refusals are never compressed and carry no Vary")
    func refusalsArePlain() throws {
        let service = PagedotsService(configuration: ServiceConfiguration())
        let gzip = [HTTPHeaderField("Accept-Encoding", "gzip")]
        for route in [
            Route(path: "/indicator.svg", query: "pages=0", compressible: false, tagged: false),
            Route(path: "/nothing", compressible: false, tagged: false),
        ] {
            let answer = try Self.ask(service, route, headers: gzip)
            #expect(answer.status >= 400)
            #expect(answer.headers["content-encoding"] == nil && answer.headers["vary"] == nil)
            #expect(answer.headers["cache-control"] == "no-store")
        }
    }

    @Test("On the wire: Content-Length is the compressed length; HEAD and 304 keep the GET's headers")
    func overTheWire() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        for target in ["/", "/openapi.json", "/indicator.svg?pages=4&current=1"] {
            client.request(target)
            let plain = try client.readResponse()
            client.request(target, headers: ["Accept-Encoding: gzip, deflate"])
            let full = try client.readResponse()
            #expect(full.header("content-encoding") == "gzip", "\(target)")
            #expect(full.header("content-length") == String(full.body.count), "\(target)")
            #expect(full.body.count < plain.body.count, "\(target)")
            #expect(gunzip(full.body) == plain.body, "\(target)")
            client.request(target, method: "HEAD", headers: ["Accept-Encoding: gzip, deflate"])
            let head = try client.readResponse(bodyless: true)
            for name in ["content-length", "content-encoding", "etag", "vary"] {
                #expect(head.header(name) == full.header(name), "\(target) \(name)")
            }
            let tag = try #require(full.header("etag"))
            client.request(target, headers: ["Accept-Encoding: gzip", "If-None-Match: \(tag)"])
            let notModified = try client.readResponse()
            #expect(notModified.status == 304, "\(target)")
            #expect(notModified.header("etag") == tag && notModified.header("vary") == "Accept-Encoding", "\(target)")
            #expect(notModified.header("content-encoding") == "gzip", "\(target)")
        }
    }
}
