@testable import PagedotsFetch
import Testing

@Suite("Fetch scheduler: limits, order, single flight, deadlines")
struct FetchSchedulerTests {
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        start + .milliseconds(Int(seconds * 1000))
    }

    /// Submits a request for `path` on `host` whose waiter is `waiter`, at `seconds`, with a 10 s budget.
    @discardableResult
    private func submit(
        _ scheduler: inout FetchScheduler<String>, _ host: String, _ path: String, waiter: String? = nil, at seconds: Double = 0
    ) -> Int {
        scheduler.submit(
            FetchRequest(url: "http://\(host)/\(path)"), host: host, waiter: waiter ?? path, submitted: at(seconds), budget: .seconds(10)
        )
    }

    /// The URLs of the flights `startNext` starts.
    private func startNext(_ scheduler: inout FetchScheduler<String>) -> [String] {
        scheduler.startNext().compactMap { scheduler.flights[$0]?.url }
    }

    @Test("At most maxConnectionsPerHost to one host; a full host does not hold back another; oldest first")
    func perHost() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits(maxConnectionsPerHost: 2, maxConcurrent: 16))
        for path in ["a1", "a2", "a3", "a4"] {
            submit(&scheduler, "a", path)
        }
        submit(&scheduler, "b", "b1")
        #expect(startNext(&scheduler) == ["http://a/a1", "http://a/a2", "http://b/b1"])
        #expect(!scheduler.canStart)
        #expect(startNext(&scheduler).isEmpty)
        _ = scheduler.finish(0)
        #expect(scheduler.canStart)
        #expect(startNext(&scheduler) == ["http://a/a3"])
    }

    @Test("At most maxConcurrent in all, across hosts")
    func global() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits(maxConnectionsPerHost: 4, maxConcurrent: 3))
        for host in ["a", "b", "c", "d", "e"] {
            submit(&scheduler, host, "x")
        }
        #expect(startNext(&scheduler) == ["http://a/x", "http://b/x", "http://c/x"])
        _ = scheduler.finish(1)
        #expect(startNext(&scheduler) == ["http://d/x"])
    }

    @Test("An equal request joins the flight in progress; another validator makes a flight of its own")
    func singleFlight() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits())
        let id = submit(&scheduler, "a", "x", waiter: "first")
        let joined = [
            scheduler.join(FetchRequest(url: "http://a/x"), waiter: "second"),
            scheduler.join(FetchRequest(url: "http://a/x", ifNoneMatch: "\"v1\""), waiter: "third"),
            scheduler.join(FetchRequest(url: "http://a/y"), waiter: "fourth"),
        ]
        #expect(joined == [true, false, false])
        _ = scheduler.startNext()
        let joinedRunning = scheduler.join(FetchRequest(url: "http://a/x"), waiter: "late")
        #expect(joinedRunning)
        let flight = scheduler.finish(id)
        #expect(flight?.waiters == ["first", "second", "late"])
        // Once ended, the same request makes a new flight.
        let joinedEnded = scheduler.join(FetchRequest(url: "http://a/x"), waiter: "after")
        #expect(!joinedEnded)
    }

    @Test("The deadline counts from submission: time queued comes out of the budget; queued flights expire, running ones do not")
    func deadlines() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits(maxConnectionsPerHost: 1, maxConcurrent: 16))
        submit(&scheduler, "a", "first", at: 0)
        let queued = submit(&scheduler, "a", "second", at: 1)
        #expect(startNext(&scheduler) == ["http://a/first"])
        #expect(scheduler.earliestQueuedDeadline == at(11))
        // Started at 10 s (when the first ends), the second has 1 s left of its 10.
        _ = scheduler.finish(0)
        #expect(startNext(&scheduler) == ["http://a/second"])
        #expect(scheduler.timeLeft(queued, now: at(10)) == .seconds(1))
        #expect(scheduler.timeLeft(queued, now: at(11.5)) == .milliseconds(-500))
        // A flight still queued at its deadline leaves the queue.
        let late = submit(&scheduler, "a", "third", at: 2)
        let expired = [scheduler.takeExpired(now: at(11.9)), scheduler.takeExpired(now: at(12)), scheduler.takeExpired(now: at(100))]
        #expect(expired.map { $0.map(\.id) } == [[], [late], []])
        #expect(scheduler.flights[queued] != nil)
        #expect(scheduler.earliestQueuedDeadline == nil)
    }

    @Test("A redirect gives up its slot and waits again in its place by age, for a slot on its new host")
    func redirect() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits(maxConnectionsPerHost: 1, maxConcurrent: 2))
        let first = submit(&scheduler, "a", "1")
        let second = submit(&scheduler, "b", "2")
        submit(&scheduler, "c", "3")
        #expect(startNext(&scheduler) == ["http://a/1", "http://b/2"])
        scheduler.addReceived(10, to: first)
        scheduler.redirect(first, to: "http://b/moved", host: "b")
        // Older than the third, but its new host is busy: the third goes first.
        #expect(startNext(&scheduler) == ["http://c/3"])
        _ = scheduler.finish(second)
        #expect(startNext(&scheduler) == ["http://b/moved"])
        #expect(scheduler.flights[first]?.redirects == 1)
        scheduler.addReceived(5, to: first)
        let flight = scheduler.finish(first)
        #expect(flight?.bytesReceived == 15)
    }

    @Test("finishAll ends queued and running flights, oldest first")
    func finishAll() {
        var scheduler = FetchScheduler<String>(limits: FetchLimits(maxConnectionsPerHost: 1, maxConcurrent: 1))
        submit(&scheduler, "a", "1")
        submit(&scheduler, "a", "2")
        _ = scheduler.startNext()
        let ended = scheduler.finishAll()
        #expect(ended.flatMap(\.waiters) == ["1", "2"])
        #expect(scheduler.flights.isEmpty)
        // The slots were freed.
        submit(&scheduler, "a", "3")
        #expect(startNext(&scheduler) == ["http://a/3"])
    }
}
