/// Which fetches run and which wait, and who waits for each: the fetcher's
/// bookkeeping, without libcurl or a clock of its own (every time is given),
/// so that its tests can use any times.
///
/// A flight is one fetch and everyone waiting for it: a request equal to one
/// queued or running joins its flight instead of making another (single
/// flight). Queued flights start oldest first when their host has fewer than
/// `maxConnectionsPerHost` running and fewer than `maxConcurrent` run in all;
/// a flight whose host is full does not hold back younger flights to other
/// hosts. A flight's deadline is fixed when it is submitted, so time spent
/// queued comes out of its budget, and a queued flight whose deadline passes
/// leaves the queue (`takeExpired`).
struct FetchScheduler<Waiter> {
    /// One fetch, queued or running, and its waiters.
    struct Flight {
        /// Increasing with submission: the queue's order.
        let id: Int
        let request: FetchRequest
        let deadline: ContinuousClock.Instant
        var waiters: [Waiter]
        /// The URL of the hop to make (or being made): the request's, then each redirect's.
        var url: String
        /// `url`'s host, lower-cased: the per-host limit's key.
        var host: String
        var redirects = 0
        var bytesReceived = 0
        var isRunning = false
    }

    let limits: FetchLimits
    private(set) var flights: [Int: Flight] = [:]
    private var flightByRequest: [FetchRequest: Int] = [:]
    /// Queued flights' ids, ascending.
    private var queue: [Int] = []
    private var runningByHost: [String: Int] = [:]
    private var runningCount = 0
    private var nextID = 0

    init(limits: FetchLimits) {
        self.limits = limits
    }

    /// Adds `waiter` to the flight of an equal request if there is one; true if it did.
    mutating func join(_ request: FetchRequest, waiter: Waiter) -> Bool {
        guard let id = flightByRequest[request] else { return false }
        flights[id]?.waiters.append(waiter)
        return true
    }

    /// Queues a new flight for `request` (to `host`) with a deadline of
    /// `submitted + budget`; returns its id.
    mutating func submit(
        _ request: FetchRequest, host: String, waiter: Waiter, submitted: ContinuousClock.Instant, budget: Duration
    ) -> Int {
        let id = nextID
        nextID += 1
        flights[id] = Flight(
            id: id, request: request, deadline: submitted + budget, waiters: [waiter],
            url: request.url, host: host
        )
        flightByRequest[request] = id
        queue.append(id)
        return id
    }

    /// The queued flights that may start now, oldest first; they count as running from here.
    mutating func startNext() -> [Int] {
        var started: [Int] = []
        var stillQueued: [Int] = []
        for id in queue {
            guard let host = flights[id]?.host else { continue }
            if runningCount < limits.maxConcurrent, runningByHost[host, default: 0] < limits.maxConnectionsPerHost {
                runningCount += 1
                runningByHost[host, default: 0] += 1
                flights[id]?.isRunning = true
                started.append(id)
            } else {
                stillQueued.append(id)
            }
        }
        queue = stillQueued
        return started
    }

    /// Removes and returns the queued flights whose deadline is at or before `now`.
    mutating func takeExpired(now: ContinuousClock.Instant) -> [Flight] {
        let expired = queue.filter { flights[$0].map { $0.deadline <= now } ?? false }
        return expired.compactMap { finish($0) }
    }

    /// The earliest deadline among queued flights (running ones are timed by libcurl).
    var earliestQueuedDeadline: ContinuousClock.Instant? {
        queue.compactMap { flights[$0]?.deadline }.min()
    }

    /// True when `startNext` would start something.
    var canStart: Bool {
        runningCount < limits.maxConcurrent
            && queue.contains { flights[$0].map { runningByHost[$0.host, default: 0] < limits.maxConnectionsPerHost } ?? false }
    }

    /// What is left at `now` of a flight's time (zero or less: none).
    func timeLeft(_ id: Int, now: ContinuousClock.Instant) -> Duration? {
        flights[id].map { $0.deadline - now }
    }

    /// Counts body bytes a running flight's hop received.
    mutating func addReceived(_ bytes: Int, to id: Int) {
        flights[id]?.bytesReceived += bytes
    }

    /// A running flight's hop ended in a redirect to `url` on `host`: the flight
    /// gives up its slot and waits again, in its place by age, for one on that host.
    mutating func redirect(_ id: Int, to url: String, host: String) {
        guard var flight = flights[id], flight.isRunning else { return }
        release(flight)
        flight.isRunning = false
        flight.url = url
        flight.host = host
        flight.redirects += 1
        flights[id] = flight
        queue.insert(id, at: queue.firstIndex { $0 > id } ?? queue.endIndex)
    }

    /// Removes a flight, queued or running (its slot freed), and returns it.
    mutating func finish(_ id: Int) -> Flight? {
        guard let flight = flights.removeValue(forKey: id) else { return nil }
        flightByRequest[flight.request] = nil
        if flight.isRunning {
            release(flight)
        } else {
            queue.removeAll { $0 == id }
        }
        return flight
    }

    /// Removes every flight, oldest first.
    mutating func finishAll() -> [Flight] {
        flights.keys.sorted().compactMap { finish($0) }
    }

    private mutating func release(_ flight: Flight) {
        runningCount -= 1
        runningByHost[flight.host, default: 1] -= 1
        if runningByHost[flight.host] == 0 { runningByHost[flight.host] = nil }
    }
}
