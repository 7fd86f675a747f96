import PagedotsFetch
import Testing
import TestSupport

@Suite("Fetcher: sizes, time and concurrency")
struct FetcherLimitTests {
    @Test("A Content-Length over the limit stops the fetch with the headers, before any body")
    func declaredTooLarge() throws {
        let origin = try LoopbackOrigin()
        // The body never comes: only the headers can end this fetch before its 20 s.
        origin.respond(to: "/big", with: .init(parts: [[1, 2, 3]], framing: .declaredLength(10_000_000), hangsAfterBody: true))
        let outcome = try #require(try fetchOnce(origin.url("/big"), policy: testPolicy(maxBytes: 1000)))
        #expect(outcome.failure?.kind == .tooLarge)
        #expect(outcome.failure?.message == "127.0.0.1: Content-Length 10000000 is over 1000 bytes")
    }

    @Test("A chunked body is cut off as soon as it runs past the limit")
    func chunkedTooLarge() throws {
        let origin = try LoopbackOrigin()
        // No final chunk: only counting as bytes arrive can end this fetch before its 20 s.
        let chunk = [UInt8](repeating: 7, count: 600)
        origin.respond(to: "/big", with: .init(parts: [chunk, chunk], framing: .chunked, hangsAfterBody: true))
        let outcome = try #require(try fetchOnce(origin.url("/big"), policy: testPolicy(maxBytes: 1000)))
        #expect(outcome.failure?.kind == .tooLarge)
        #expect(outcome.failure?.message == "127.0.0.1: the body is over 1000 bytes")
        #expect(outcome.bytesReceived > 1000)
    }

    @Test("A body of exactly the limit passes, chunked or not")
    func atTheLimit() throws {
        let origin = try LoopbackOrigin()
        let body = (0..<1000).map { UInt8($0 % 251) }
        origin.respond(to: "/chunked", with: .init(parts: [Array(body[..<400]), Array(body[400...])], framing: .chunked))
        origin.respond(to: "/plain", with: .ok(body))
        for path in ["/chunked", "/plain"] {
            let outcome = try #require(try fetchOnce(origin.url(path), policy: testPolicy(maxBytes: 1000)))
            #expect(outcome.response?.body == body)
            #expect(outcome.bytesReceived == 1000)
        }
    }

    @Test("A header block without end is tooLarge")
    func endlessHeaders() throws {
        let origin = try LoopbackOrigin()
        let headers = (0..<2000).map { "X-Filler-\($0): " + String(repeating: "x", count: 60) }
        origin.respond(to: "/a.png", with: .status(200, headers: headers))
        let outcome = try #require(try fetchOnce(origin.url("/a.png")))
        #expect(outcome.failure?.kind == .tooLarge)
    }

    @Test("A source that never answers is a timeout")
    func timeout() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/never", with: .never)
        let outcome = try #require(try fetchOnce(origin.url("/never"), policy: testPolicy(totalTimeout: .milliseconds(300))))
        #expect(outcome.failure?.kind == .timeout)
        #expect(outcome.failure?.message == "127.0.0.1: timed out after 0.3 s waiting for the answer")
        #expect(origin.requests.count == 1)
    }

    @Test("Equal requests in flight are made once; another validator is another request")
    func singleFlight() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .held("shared".bytes))
        let fetcher = try Fetcher(policy: testPolicy())
        let pending = PendingFetches()
        pending.start(FetchRequest(url: origin.url("/a.png")), on: fetcher, as: 0)
        pending.start(FetchRequest(url: origin.url("/a.png")), on: fetcher, as: 1)
        pending.start(FetchRequest(url: origin.url("/a.png"), ifNoneMatch: "\"v0\""), on: fetcher, as: 2)
        #expect(origin.waitForRequests(2))
        origin.release(2)
        let outcomes = try #require(pending.waitForAll())
        #expect((0...2).map { outcomes[$0]?.response?.body } == Array(repeating: "shared".bytes, count: 3))
        #expect((0...2).map { outcomes[$0]?.joined } == [false, true, false])
        #expect(origin.requests.count == 2)
        #expect(origin.requests.filter { $0.header("if-none-match") == "\"v0\"" }.count == 1)
    }

    @Test("At most 4 fetches at once to one host: the fifth and sixth start only as others end")
    func perHostLimit() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/slide", with: .held("slide".bytes))
        let fetcher = try Fetcher(policy: testPolicy())
        let pending = PendingFetches()
        for index in 0..<6 {
            pending.start(FetchRequest(url: origin.url("/slide?\(index)")), on: fetcher, as: index)
        }
        #expect(origin.waitForRequests(4))
        origin.release()
        #expect(origin.waitForRequests(5))
        origin.release()
        #expect(origin.waitForRequests(6))
        origin.release(4)
        let outcomes = try #require(pending.waitForAll())
        #expect(outcomes.values.allSatisfy { $0.response?.body == "slide".bytes })
        // The k-th request (from 0) arrived after at least k − 3 answers were let go.
        #expect(origin.requests.enumerated().allSatisfy { $0.element.releasesBefore >= $0.offset - 3 })
        #expect(origin.connections <= 4)
    }

    @Test("At most maxConcurrent fetches at once in all, across hosts")
    func globalLimit() throws {
        let origin = try LoopbackOrigin()
        let origin6 = try LoopbackOrigin(.ipv6)
        for each in [origin, origin6] {
            each.respond(to: "/slide", with: .held("slide".bytes))
        }
        let fetcher = try Fetcher(limits: FetchLimits(maxConnectionsPerHost: 4, maxConcurrent: 2), policy: testPolicy())
        let pending = PendingFetches()
        pending.start(FetchRequest(url: origin.url("/slide?1")), on: fetcher, as: 0)
        pending.start(FetchRequest(url: origin6.url("/slide")), on: fetcher, as: 1)
        pending.start(FetchRequest(url: origin.url("/slide?2")), on: fetcher, as: 2)
        #expect(origin.waitForRequests(1))
        #expect(origin6.waitForRequests(1))
        origin.release()
        #expect(origin.waitForRequests(2))
        origin.release()
        origin6.release()
        let outcomes = try #require(pending.waitForAll())
        #expect(outcomes.count == 3)
        #expect(outcomes.values.allSatisfy { $0.response?.status == 200 })
        // The third started only once the first's answer had gone.
        #expect(origin.requests.map(\.target) == ["/slide?1", "/slide?2"])
        #expect(origin.requests.last?.releasesBefore == 1)
    }
}
