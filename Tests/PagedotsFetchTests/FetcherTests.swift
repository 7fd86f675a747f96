import Foundation
import Locking
import PagedotsFetch
import Testing
import TestSupport

@Suite("Fetcher: requests, responses and redirects on a loopback origin")
struct FetcherTests {
    @Test("A 200 comes back with its headers and body; the request is a plain GET with our User-Agent and Accept")
    func plainGet() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("PNG bytes".bytes, headers: [
            "Content-Type: image/png", "ETag: \"v1\"", "Cache-Control: max-age=60", "Cache-Control: public",
        ]))
        let outcome = try #require(try fetchOnce(origin.url("/a.png?size=2")))
        let response = try #require(outcome.response)
        #expect(response.status == 200)
        #expect(response.body == "PNG bytes".bytes)
        #expect(response.headers["content-type"] == "image/png")
        #expect(response.headers["ETag"] == "\"v1\"")
        #expect(response.headers["cache-control"] == "max-age=60, public")
        #expect(response.headers["last-modified"] == nil)
        #expect(response.url == origin.url("/a.png?size=2"))
        #expect(outcome.redirects == 0)
        #expect(outcome.bytesReceived == 9)
        #expect(outcome.elapsedSeconds > 0)

        let request = try #require(origin.requests.first)
        #expect(origin.requests.count == 1)
        #expect(request.method == "GET")
        #expect(request.target == "/a.png?size=2")
        #expect(request.header("user-agent") == "pagedots/test")
        #expect(request.header("accept") == "image/png, image/jpeg")
        for absent in ["accept-encoding", "cookie", "authorization", "if-none-match", "if-modified-since", "proxy-authorization"] {
            #expect(request.header(absent) == nil, "\(absent) sent")
        }
    }

    @Test("Validators are sent, and a 304 comes back as a response")
    func conditional() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .status(304, headers: ["ETag: \"v1\"", "Cache-Control: max-age=300"]))
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let outcome = try #require(try fetchOnce(FetchRequest(url: origin.url("/a.png"), ifNoneMatch: "\"v1\"", ifModifiedSince: date)))
        let response = try #require(outcome.response)
        #expect(response.status == 304)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(response.body.isEmpty)
        #expect(origin.requests.first?.header("if-none-match") == "\"v1\"")
        #expect(origin.requests.first?.header("if-modified-since") == date)
    }

    @Test("4xx and 5xx answers are passed up with their bodies", arguments: [404, 410, 500, 503])
    func errorStatuses(status: Int) throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .status(status, "gone".bytes))
        let response = try #require(try fetchOnce(origin.url("/a.png"))?.response)
        #expect(response.status == status)
        #expect(response.body == "gone".bytes)
    }

    @Test("Three redirects are followed; a fourth is tooManyRedirects and its target is never asked")
    func redirectLimit() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/r1", with: .redirect(301, to: "/r2"))
        origin.respond(to: "/r2", with: .redirect(302, to: origin.url("/r3")))
        origin.respond(to: "/r3", with: .redirect(307, to: "r4"))
        origin.respond(to: "/r4", with: .redirect(308, to: "/final"))
        origin.respond(to: "/final", with: .ok("done".bytes))

        let refused = try #require(try fetchOnce(origin.url("/r1")))
        #expect(refused.failure?.kind == .tooManyRedirects)
        #expect(refused.redirects == 3)
        #expect(origin.requests.map(\.path) == ["/r1", "/r2", "/r3", "/r4"])

        let followed = try #require(try fetchOnce(origin.url("/r2")))
        #expect(followed.response?.status == 200)
        #expect(followed.response?.body == "done".bytes)
        #expect(followed.response?.url == origin.url("/final"))
        #expect(followed.redirects == 3)
    }

    @Test("A redirect the policy refuses ends the fetch, and its target is never asked")
    func redirectRefused() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/away", with: .redirect(303, to: "/forbidden/x.png?secret=1"))
        origin.respond(to: "/forbidden/x.png", with: .ok("no".bytes))
        let refusal = FetchRefusal(reason: "127.0.0.1 is not an allowed source")
        let policy = testPolicy(followsRedirect: { $0.contains("/forbidden/") ? .failure(refusal) : .success($0) })
        let outcome = try #require(try fetchOnce(origin.url("/away"), policy: policy))
        #expect(outcome.failure?.kind == .redirectRefused(refusal))
        #expect(outcome.failure?.message.contains("secret") == false)
        #expect(origin.requests.map(\.path) == ["/away"])
    }

    @Test("followsRedirect gets the absolute target and its answer is the URL fetched")
    func redirectRewritten() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/img/moved", with: .redirect(301, to: "../photos/a%2Ejpg?w=2"))
        origin.respond(to: "/photos/a.jpg", with: .ok("photo".bytes))
        let asked = Locked([String]())
        let policy = testPolicy(followsRedirect: { location in
            asked.withLock { $0.append(location) }
            return .success(location.replacingOccurrences(of: "%2E", with: "."))
        })
        let outcome = try #require(try fetchOnce(origin.url("/img/moved"), policy: policy))
        #expect(asked.withLock { $0 } == [origin.url("/photos/a%2Ejpg?w=2")])
        #expect(outcome.response?.body == "photo".bytes)
        #expect(outcome.response?.url == origin.url("/photos/a.jpg?w=2"))
        #expect(outcome.redirects == 1)
        #expect(origin.requests.map(\.target) == ["/img/moved", "/photos/a.jpg?w=2"])
    }

    @Test("A redirect to a scheme other than http(s) is refused unasked, even when the policy lets it through",
          arguments: ["file:///etc/passwd", "ftp://127.0.0.1/a.png", "gopher://127.0.0.1/"])
    func redirectToOtherScheme(location: String) throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/away", with: .redirect(to: location))
        let outcome = try #require(try fetchOnce(origin.url("/away")))
        #expect(outcome.failure?.kind == .invalidRequest)
        #expect(origin.requests.map(\.path) == ["/away"])
    }

    @Test("A 3xx other than a redirect, or one without Location, is a response")
    func otherRedirectStatuses() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/choices", with: .redirect(300, to: "/a"))
        origin.respond(to: "/nowhere", with: .status(302))
        #expect(try fetchOnce(origin.url("/choices"))?.response?.status == 300)
        #expect(try fetchOnce(origin.url("/nowhere"))?.response?.status == 302)
        #expect(origin.requests.map(\.path) == ["/choices", "/nowhere"])
    }

    @Test("No Accept-Encoding is sent and a gzip body comes back as sent")
    func noDecompression() throws {
        let origin = try LoopbackOrigin()
        // gzip.compress(b"hello", mtime=0)
        let gzip: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xFF, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00,
            0x86, 0xA6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
        ]
        origin.respond(to: "/a.gz", with: .ok(gzip, headers: ["Content-Encoding: gzip", "Content-Type: image/png"]))
        let response = try #require(try fetchOnce(origin.url("/a.gz"))?.response)
        #expect(response.body == gzip)
        #expect(response.headers["content-encoding"] == "gzip")
        #expect(origin.requests.first?.header("accept-encoding") == nil)
    }

    @Test("http_proxy and all_proxy in the environment are not used")
    func environmentProxyIgnored() throws {
        let origin = try LoopbackOrigin()
        let proxy = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("direct".bytes))
        proxy.respond(to: "/a.png", with: .ok("proxied".bytes))
        // The environment is the process's: set only for this fetch.
        for name in ["http_proxy", "ALL_PROXY", "all_proxy"] {
            setenv(name, proxy.url(""), 1)
        }
        defer {
            for name in ["http_proxy", "ALL_PROXY", "all_proxy"] {
                unsetenv(name)
            }
        }
        let response = try #require(try fetchOnce(origin.url("/a.png"))?.response)
        #expect(response.body == "direct".bytes)
        #expect(proxy.connections == 0)
        #expect(proxy.requests.isEmpty)
    }

    @Test("A URL that is not http(s), has user information, or a validator with a line break is refused unasked",
          arguments: ["ftp://127.0.0.1:PORT/a.png", "file:///etc/passwd", "http://user:secret@127.0.0.1:PORT/a.png",
                      "http://user@127.0.0.1:PORT/a.png", "127.0.0.1:PORT/a.png", "http://127.0.0.1:PORT/a b.png", "not a URL"])
    func invalidRequests(url: String) throws {
        let origin = try LoopbackOrigin()
        let outcome = try #require(try fetchOnce(url.replacingOccurrences(of: "PORT", with: "\(origin.port)")))
        #expect(outcome.failure?.kind == .invalidRequest)
        #expect(outcome.failure?.message.contains("secret") == false)
        #expect(origin.connections == 0)
    }

    @Test("A validator with a line break is refused unasked")
    func headerInjection() throws {
        let origin = try LoopbackOrigin()
        let outcome = try #require(try fetchOnce(FetchRequest(url: origin.url("/a.png"), ifNoneMatch: "\"v1\"\r\nCookie: x=1")))
        #expect(outcome.failure?.kind == .invalidRequest)
        #expect(origin.connections == 0)
    }

    @Test("https to an origin that does not speak TLS is a tls failure")
    func tlsFailure() throws {
        let origin = try LoopbackOrigin()
        let outcome = try #require(try fetchOnce("https://127.0.0.1:\(origin.port)/a.png"))
        #expect(outcome.failure?.kind == .tls)
        #expect(outcome.failure?.message.hasPrefix("127.0.0.1: TLS: ") == true)
        #expect(origin.requests.isEmpty)
    }

    @Test("A closed port is connectFailed(.refused)")
    func connectionRefused() throws {
        // A socket bound but not listening: connections to its port are refused, and no other test can take it.
        let bound = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(bound) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(bound, $0, length) == 0 ? getsockname(bound, $0, &length) : -1 }
        }
        try #require(status == 0)
        let outcome = try #require(try fetchOnce("http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/a.png"))
        #expect(outcome.failure?.kind == .connectFailed(.refused))
        #expect(outcome.failure?.message == "127.0.0.1: connection refused")
    }

    @Test("A connection closed or reset instead of an answer says which")
    func hangUps() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/closed", with: .hangUp(.close))
        origin.respond(to: "/reset", with: .hangUp(.reset))
        let closed = try #require(try fetchOnce(origin.url("/closed")))
        #expect(closed.failure?.kind == .connectFailed(.closed))
        let reset = try #require(try fetchOnce(origin.url("/reset")))
        #expect(reset.failure?.kind == .connectFailed(.reset))
        #expect(reset.failure?.message == "127.0.0.1: connection reset")
    }

    @Test("Limits and a policy the fetcher cannot use are refused at start")
    func badConfiguration() {
        #expect(throws: FetcherError.self) { try Fetcher(policy: testPolicy(maxBytes: -1)) }
        #expect(throws: FetcherError.self) { try Fetcher(policy: testPolicy(totalTimeout: .zero)) }
        #expect(throws: FetcherError.self) { try Fetcher(policy: testPolicy(totalTimeout: .seconds(Int64.max))) }
        #expect(throws: FetcherError.self) { try Fetcher(limits: FetchLimits(maxConnectionsPerHost: 0), policy: testPolicy()) }
        var policy = testPolicy()
        policy.userAgent = "pagedots\r\nX-Evil: 1"
        #expect(throws: FetcherError.self) { try Fetcher(policy: policy) }
    }

    @Test("A fetcher let go ends the fetches still in flight")
    func stopping() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/never", with: .never)
        let pending = PendingFetches()
        do {
            let fetcher = try Fetcher(policy: testPolicy())
            pending.start(FetchRequest(url: origin.url("/never")), on: fetcher, as: 0)
            withExtendedLifetime(fetcher) {
                #expect(origin.waitForRequests(1))
            }
        }
        let outcome = try #require(pending.waitForAll()?[0])
        #expect(outcome.failure?.kind == .other)
        #expect(outcome.failure?.message == "127.0.0.1: the fetcher stopped")
    }
}
