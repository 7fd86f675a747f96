@testable import PagedotsService
import Synchronization
import Testing

/// A clock the test moves by hand, in nanoseconds.
final class ManualClock: Sendable {
    private let now = Atomic<Int64>(1_000_000_000_000)

    var read: @Sendable () -> Int64 { { [self] in now.load(ordering: .relaxed) } }

    func advance(seconds: Double) {
        now.wrappingAdd(Int64((seconds * 1e9).rounded()), ordering: .relaxed)
    }
}

/// The per-client token buckets (docs/operating.md, "Fair use"), on a clock
/// the test moves: no sleeps.
@Suite struct MissRateLimiterTests {
    static let alice = ClientAddress(ipv4: 0xC633_6401)
    static let bob = ClientAddress(ipv4: 0xCB00_7109)

    /// How many tokens `client` can take now, in a row (at most `limit`).
    static func drain(_ limiter: MissRateLimiter, _ client: ClientAddress, limit: Int = 10_000) -> Int {
        var taken = 0
        while taken < limit, limiter.take(for: client) == .allowed { taken += 1 }
        return taken
    }

    @Test(arguments: [(100.0, 200), (1, 2), (2.5, 5), (0.5, 1), (0.1, 1), (1000, 2000)])
    func aBurstOfTwiceTheRateAtLeastOne(rate: Double, burst: Int) {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: rate, clock: clock.read)
        #expect(Self.drain(limiter, Self.alice) == burst)
    }

    @Test func refillsAtTheRateUpToTheBurst() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 100, clock: clock.read)
        #expect(Self.drain(limiter, Self.alice) == 200)
        clock.advance(seconds: 0.05)
        #expect(Self.drain(limiter, Self.alice) == 5)
        clock.advance(seconds: 0.999)
        #expect(Self.drain(limiter, Self.alice) == 99)
        // Idle long enough, the bucket is full, never fuller.
        clock.advance(seconds: 3600)
        #expect(Self.drain(limiter, Self.alice) == 200)
        // On average, the rate: 10 s of asking at 1,000 a second gets 1,000 (after the burst).
        var allowed = 0
        for _ in 0..<10_000 {
            clock.advance(seconds: 0.001)
            if limiter.take(for: Self.alice) == .allowed { allowed += 1 }
        }
        #expect(allowed == 1000)
    }

    @Test func retryAfterIsWholeSecondsRoundedUpUntilAToken() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 0.1, clock: clock.read)
        #expect(limiter.take(for: Self.alice) == .allowed)
        #expect(limiter.take(for: Self.alice) == .refused(retryAfter: 10))
        clock.advance(seconds: 0.5)
        #expect(limiter.take(for: Self.alice) == .refused(retryAfter: 10))
        clock.advance(seconds: 0.6)
        #expect(limiter.take(for: Self.alice) == .refused(retryAfter: 9))
        clock.advance(seconds: 8.899)
        #expect(limiter.take(for: Self.alice) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.001)
        #expect(limiter.take(for: Self.alice) == .allowed)

        let fast = MissRateLimiter(perSecond: 100, clock: clock.read)
        #expect(Self.drain(fast, Self.alice) == 200)
        #expect(fast.take(for: Self.alice) == .refused(retryAfter: 1))
    }

    @Test func aRefusalTakesNothing() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 1, clock: clock.read)
        #expect(Self.drain(limiter, Self.alice) == 2)
        for _ in 0..<100 { #expect(limiter.take(for: Self.alice) != .allowed) }
        clock.advance(seconds: 1)
        #expect(Self.drain(limiter, Self.alice) == 1)
    }

    @Test func clientsHaveTheirOwnBuckets() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 1, clock: clock.read)
        #expect(Self.drain(limiter, Self.alice) == 2)
        #expect(Self.drain(limiter, Self.bob) == 2)
    }

    @Test("An IPv6 client is counted by its /64; IPv4 clients by their address")
    func ipv6ByItsSlash64() throws {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 1, clock: clock.read)
        let address = { (text: String) in try #require(ClientAddress(Substring(text))) }
        #expect(limiter.take(for: try address("2001:db8:1:2::1")) == .allowed)
        #expect(limiter.take(for: try address("2001:db8:1:2:ffff:ffff:ffff:ffff")) == .allowed)
        #expect(limiter.take(for: try address("2001:db8:1:2:abcd::9")) != .allowed)
        #expect(limiter.take(for: try address("2001:db8:1:3::1")) == .allowed)
        #expect(Self.drain(limiter, try address("10.0.0.1")) == 2)
        #expect(Self.drain(limiter, try address("10.0.0.2")) == 2)
    }

    @Test("A million distinct addresses: the table stays its size, and a client it counts is not forgotten")
    func aFloodOfAddressesIsBounded() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 100, clock: clock.read)
        let capacity = limiter.capacity
        #expect(capacity == MissRateLimiter.defaultCapacity)
        /// New addresses, one new image each, 10 µs apart (100,000 a second).
        func flood(_ addresses: Range<Int>) -> Int {
            var allowed = 0
            for index in addresses {
                clock.advance(seconds: 0.000_01)
                if limiter.take(for: ClientAddress(ipv4: 0x0A00_0000 | UInt32(index))) == .allowed { allowed += 1 }
            }
            return allowed
        }
        #expect(Self.drain(limiter, Self.alice) == 200)
        // A second of flood: Alice's bucket has refilled by a second's worth,
        // not more: she was not forgotten (a new client would get 200).
        #expect(flood(0..<100_000) == 100_000)
        #expect(Self.drain(limiter, Self.alice) == 100)
        #expect(flood(100_000..<1_000_000) == 900_000)
        #expect(limiter.capacity == capacity)
        // The latest addresses are still counted: one image taken 10 µs ago.
        #expect(Self.drain(limiter, ClientAddress(ipv4: 0x0A00_0000 | 999_999)) == 199)
    }

    @Test("When a set is full of short buckets, the fullest one is forgotten first")
    func evictsTheFullestBucket() {
        let clock = ManualClock()
        // One set: eight slots.
        let limiter = MissRateLimiter(perSecond: 1, capacity: MissRateLimiter.ways, clock: clock.read)
        let clients = (0..<8).map { ClientAddress(ipv4: UInt32($0)) }
        // Client 0 is empty; the others have one token left.
        #expect(Self.drain(limiter, clients[0]) == 2)
        for client in clients.dropFirst() { #expect(limiter.take(for: client) == .allowed) }
        // A ninth client takes the slot of a client with a token left, not client 0's.
        #expect(limiter.take(for: ClientAddress(ipv4: 99)) == .allowed)
        #expect(limiter.take(for: clients[0]) != .allowed)
    }
}
