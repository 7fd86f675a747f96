@testable import HTTPServer
@testable import PagedotsService
import Testing
import TestSupport

/// Misses per client (docs/operating.md, "Fair use"): in process, on a clock
/// the test moves, then once over the wire.
@Suite struct FairUseTests {
    static let alice: [UInt8] = [198, 51, 100, 1]
    static let bob: [UInt8] = [203, 0, 113, 9]
    static let proxy: [UInt8] = [10, 0, 0, 1]

    static func request(_ query: String, from peer: [UInt8], headers: [HTTPHeaderField] = []) -> HTTPRequest {
        var request = HTTPRequest(method: .get, version: .http1_1, path: "/indicator", query: query,
                                  headers: [HTTPHeaderField("Host", "test")] + headers)
        request.peerAddress = peer
        return request
    }

    /// A service with `configuration` (a miss rate of 1 a second, a burst of
    /// 2, unless changed) on a clock the test moves.
    static func service(_ change: (inout ServiceConfiguration) -> Void = { _ in }, lanes: RenderLanes? = nil) -> (PagedotsService, ManualClock) {
        var configuration = ServiceConfiguration()
        configuration.clientMissRate = 1
        change(&configuration)
        let clock = ManualClock()
        let service = PagedotsService(
            configuration: configuration, renderLanes: lanes ?? RenderLanes(threads: 1, stillQueueLimit: 256, animationQueueLimit: 32), missClock: clock.read
        )
        return (service, clock)
    }

    /// The status `service` answers `request` with (waiting for a render).
    static func status(_ service: PagedotsService, _ request: HTTPRequest, answers: RecordedAnswers = RecordedAnswers()) -> Int {
        let name = "\(request.query) \(request.peerAddress)"
        let before = answers.statuses(name).count
        service.handle(request, responder: answers.responder(name))
        answers.waitFor(1)
        return answers.statuses(name).dropFirst(before).first ?? 0
    }

    static func metric(_ service: PagedotsService, _ name: String) -> Int {
        let answers = RecordedAnswers()
        service.handle(HTTPRequest(method: .get, version: .http1_1, path: "/metrics", query: "", headers: []), responder: answers.responder("m"))
        answers.waitFor(1)
        return RoutingTests.counter(name, in: answers.body("m"))
    }

    @Test func newImagesOverTheRateGet429AndHitsNever() {
        let (service, clock) = Self.service()
        let answers = RecordedAnswers()
        #expect(Self.status(service, Self.request("pages=1", from: Self.alice)) == 200)
        #expect(Self.status(service, Self.request("pages=2", from: Self.alice)) == 200)
        let refused = Self.request("pages=3", from: Self.alice)
        #expect(Self.status(service, refused, answers: answers) == 429)
        let head = answers.head("pages=3 \(Self.alice)")
        #expect(head.contains("\r\nRetry-After: 1\r\n"))
        #expect(head.contains("\r\nCache-Control: no-store\r\n"))
        #expect(head.contains("\r\nContent-Type: text/plain; charset=utf-8\r\n"))
        let body = answers.body("pages=3 \(Self.alice)")
        #expect(body.hasPrefix("too many new images") && body.hasSuffix("\n") && body.dropLast().contains("\n") == false)

        // Hits are never limited: the URL again, another URL of a cached image, a HEAD.
        for _ in 0..<20 {
            #expect(Self.status(service, Self.request("pages=1", from: Self.alice)) == 200)
            #expect(Self.status(service, Self.request("pages=2&current=0&utm_source=x", from: Self.alice)) == 200)
        }
        // Refusals for bad parameters take no token and are not turned into 429s.
        #expect(Self.status(service, Self.request("pages=0", from: Self.alice)) == 400)
        // Another client has its own bucket.
        #expect(Self.status(service, Self.request("pages=3", from: Self.bob)) == 200)
        #expect(Self.metric(service, "pagedots_rate_limited_total") == 1)

        // A second later Alice has a token again, and no more.
        clock.advance(seconds: 1)
        #expect(Self.status(service, Self.request("pages=4", from: Self.alice)) == 200)
        #expect(Self.status(service, Self.request("pages=5", from: Self.alice)) == 429)
        #expect(Self.metric(service, "pagedots_rate_limited_total") == 2)
        // The 429s are image requests not answered from the cache: misses.
        #expect(Self.metric(service, "pagedots_cache_misses_total") == 7)
    }

    @Test("Joining a render in progress takes no token")
    func joiningTakesNoToken() {
        let lanes = RenderLanes(threads: 1, stillQueueLimit: 8, animationQueueLimit: 1)
        let (service, _) = Self.service(lanes: lanes)
        let answers = RecordedAnswers()
        // Hold the only render thread, so that the first miss stays in progress.
        let release = lanes.stills.holdThread()
        service.handle(Self.request("pages=6", from: Self.alice), responder: answers.responder("drawn"))
        for index in 0..<5 {
            service.handle(Self.request("pages=6&copy=\(index)", from: Self.alice), responder: answers.responder("joined"))
        }
        service.handle(Self.request("pages=7", from: Self.alice), responder: answers.responder("second"))
        service.handle(Self.request("pages=8", from: Self.alice), responder: answers.responder("third"))
        #expect(answers.statuses("third") == [429])
        release.signal()
        answers.waitFor(8)
        #expect(answers.statuses("drawn") == [200] && answers.statuses("second") == [200])
        #expect(answers.statuses("joined") == [200, 200, 200, 200, 200])
    }

    @Test("Refused signatures take no token")
    func forbiddenTakesNoToken() {
        let key = "a signing key of some length"
        let (service, _) = Self.service { $0.signer = URLSigner(key: key) }
        for index in 0..<5 {
            #expect(Self.status(service, Self.request("pages=\(index + 1)&sig=\(String(repeating: "A", count: 43))", from: Self.alice)) == 403)
        }
        let signer = URLSigner(key: key)
        #expect(Self.status(service, Self.request(signer.sign("pages=1"), from: Self.alice)) == 200)
        #expect(Self.status(service, Self.request(signer.sign("pages=2"), from: Self.alice)) == 200)
        #expect(Self.status(service, Self.request(signer.sign("pages=3"), from: Self.alice)) == 429)
    }

    @Test("Behind a trusted proxy, X-Forwarded-For names the client; from anyone else it is ignored")
    func trustedProxies() {
        let (service, _) = Self.service { $0.trustedProxies = TrustedProxies([AddressRange("10.0.0.0/8")!]) }
        let forwarded = { (client: String) in [HTTPHeaderField("X-Forwarded-For", "6.6.6.6, \(client)")] }
        // Each forwarded client has its own burst of two, through the one proxy.
        var image = 0
        func newImage() -> String {
            image += 1
            return "pages=20&current=\(image)"
        }
        for client in ["192.0.2.1", "192.0.2.2", "2001:db8::1"] {
            #expect(Self.status(service, Self.request(newImage(), from: Self.proxy, headers: forwarded(client))) == 200)
            #expect(Self.status(service, Self.request(newImage(), from: Self.proxy, headers: forwarded(client))) == 200)
            #expect(Self.status(service, Self.request(newImage(), from: Self.proxy, headers: forwarded(client))) == 429)
        }
        // An untrusted peer's X-Forwarded-For is its own invention: one bucket for the peer.
        for (index, client) in ["192.0.2.3", "192.0.2.4", "192.0.2.5"].enumerated() {
            let status = Self.status(service, Self.request("pages=9&current=\(index)", from: Self.bob, headers: forwarded(client)))
            #expect(status == (index < 2 ? 200 : 429))
        }
    }

    @Test("--client-miss-rate 0 turns the limit off")
    func zeroIsNoLimit() {
        let (service, _) = Self.service { $0.clientMissRate = 0 }
        for pages in 1...30 {
            #expect(Self.status(service, Self.request("pages=\(pages)", from: Self.alice)) == 200)
        }
        #expect(Self.metric(service, "pagedots_rate_limited_total") == 0)
    }

    @Test("Over the wire: the peer's address, and X-Forwarded-For from a trusted proxy")
    func overTheWire() throws {
        // One image per 1,000 s: a second new image is refused however slow the machine.
        let server = try ServerProcess(["--trusted-proxy", "127.0.0.1/32"], environment: ["PAGEDOTS_CLIENT_MISS_RATE": "0.001"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        func status(_ target: String, forwardedFor: String? = nil) throws -> TestResponse {
            client.request(target, headers: forwardedFor.map { ["X-Forwarded-For: \($0)"] } ?? [])
            return try client.readResponse()
        }
        #expect(try status("/indicator?pages=3", forwardedFor: "192.0.2.1").status == 200)
        let refused = try status("/indicator?pages=4", forwardedFor: "192.0.2.1")
        #expect(refused.status == 429)
        #expect(refused.header("retry-after") == "1000")
        #expect(refused.header("cache-control") == "no-store")
        #expect(try status("/indicator?pages=4", forwardedFor: "192.0.2.2").status == 200)
        // Without X-Forwarded-For, the client is the peer, 127.0.0.1, with a bucket of its own.
        #expect(try status("/indicator?pages=5").status == 200)
        #expect(try status("/indicator?pages=6").status == 429)
        // Hits are never limited.
        #expect(try status("/indicator?pages=3&current=0", forwardedFor: "192.0.2.1").status == 200)
        let metrics = try MetricsSnapshot(port: server.port)
        #expect(metrics["pagedots_rate_limited_total"] == 2)
    }
}
