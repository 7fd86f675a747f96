import Locking
import PagedotsFetch
import Testing
import TestSupport

/// Every address here is a loopback one: refusals of other ranges are the
/// classifier's, tested without a network.
@Suite("Fetcher: the address of every connection is put to the policy")
struct FetcherAddressTests {
    private static func onlyIPv4Loopback(_ address: FetchAddress) -> Bool {
        address.bytes == [127, 0, 0, 1]
    }

    @Test("An address the policy refuses is never connected to; an allowed one is")
    func refusedIPv4() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("ok".bytes))
        let policy = testPolicy(allowsAddress: Self.onlyIPv4Loopback)
        let refused = try #require(try fetchOnce("http://127.0.0.2:\(origin.port)/a.png", policy: policy))
        let address = try #require(FetchAddress("127.0.0.2", port: origin.port))
        #expect(refused.failure?.kind == .addressRefused(address))
        #expect(refused.failure?.message == "127.0.0.2: address 127.0.0.2:\(origin.port) is not allowed")
        #expect(try fetchOnce(origin.url("/a.png"), policy: policy)?.response?.status == 200)
    }

    @Test("An IPv6 origin refused by the policy sees no connection")
    func refusedIPv6() throws {
        let origin = try LoopbackOrigin(.ipv6)
        origin.respond(to: "/a.png", with: .ok("ok".bytes))
        let outcome = try #require(try fetchOnce(origin.url("/a.png"), policy: testPolicy(allowsAddress: Self.onlyIPv4Loopback)))
        #expect(outcome.failure?.kind == .addressRefused(try #require(FetchAddress("::1", port: origin.port))))
        #expect(origin.connections == 0)
        // Allowed, the same origin answers.
        #expect(try fetchOnce(origin.url("/a.png"))?.response?.status == 200)
    }

    @Test("IPv4 literals in any notation reach the policy as the address they denote, before connect",
          arguments: [
            ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"), ("127.1", "127.0.0.1"),
            ("017700000001", "127.0.0.1"), ("0x7f.0.0.1", "127.0.0.1"), ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
            ("[::1]", "::1"), ("0.0.0.0", "0.0.0.0"), ("[::]", "::"),
          ])
    func literalForms(host: String, address: String) throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("ok".bytes))
        let log = AddressLog()
        let outcome = try #require(try fetchOnce("http://\(host):\(origin.port)/a.png", policy: testPolicy(allowsAddress: log.refuse)))
        let expected = try #require(FetchAddress(address, port: origin.port))
        #expect(log.asked == [expected])
        #expect(outcome.failure?.kind == .addressRefused(expected))
        #expect(origin.connections == 0)
    }

    @Test("localhost: each address it resolves to is put to the policy, and none is connected to")
    func localhost() throws {
        let origin = try LoopbackOrigin()
        let origin6 = try LoopbackOrigin(.ipv6)
        let log = AddressLog()
        let outcome = try #require(try fetchOnce("http://localhost:\(origin.port)/a.png", policy: testPolicy(allowsAddress: log.refuse)))
        guard case .addressRefused = outcome.failure?.kind else {
            Issue.record("not refused: \(String(describing: outcome.failure))")
            return
        }
        #expect(!log.asked.isEmpty)
        #expect(log.asked.allSatisfy { [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]].contains($0.bytes) })
        #expect(origin.connections == 0)
        #expect(origin6.connections == 0)
    }

    @Test("The address connected to is judged again before the request is sent (PREREQFUNCTION)")
    func checkedAfterConnect() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("ok".bytes))
        // Allowed before connect (the first question), refused once connected (the second).
        let questions = Locked(0)
        let policy = testPolicy(allowsAddress: { _ in questions.withLock { $0 += 1; return $0 == 1 } })
        let outcome = try #require(try fetchOnce(origin.url("/a.png"), policy: policy))
        #expect(outcome.failure?.kind == .addressRefused(try #require(FetchAddress("127.0.0.1", port: origin.port))))
        #expect(questions.withLock { $0 } == 2)
        #expect(origin.requests.isEmpty)
    }

    @Test("A reused connection is judged again before each request")
    func reusedConnection() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok("ok".bytes))
        let allowed = Locked(true)
        let fetcher = try Fetcher(policy: testPolicy(allowsAddress: { _ in allowed.withLock { $0 } }))
        #expect(fetcher.fetchAll([FetchRequest(url: origin.url("/a.png"))]).first?.response?.status == 200)
        allowed.withLock { $0 = false }
        let outcome = try #require(fetcher.fetchAll([FetchRequest(url: origin.url("/a.png?again"))]).first)
        #expect(outcome.failure?.kind == .addressRefused(try #require(FetchAddress("127.0.0.1", port: origin.port))))
        // One connection, kept alive: the second request was refused on it, not sent.
        #expect(origin.connections == 1)
        #expect(origin.requests.map(\.target) == ["/a.png"])
    }
}
