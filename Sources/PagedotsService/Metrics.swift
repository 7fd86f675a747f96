import Glibc
import HTTPServer
import Synchronization

/// The service's Prometheus metrics (docs/operating.md, "Metrics"). Every count is an
/// atomic in a slot fixed in advance, so recording takes no lock and allocates
/// nothing, from any thread; `exposition` writes the text format.
final class Metrics: HTTPServerObserver {
    /// Responses by route and status: a counter per route and status 0...999.
    private let requests = AtomicCounters(count: Route.allCases.count * Metrics.statusSlots)
    private let requestDuration = Histogram(bounds: Histogram.latencyBounds)
    private let renderDuration = Histogram(bounds: Histogram.latencyBounds)
    private let cacheHits = Atomic<Int>(0)
    private let cacheMisses = Atomic<Int>(0)
    private let rateLimited = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let version: String

    /// Statuses are three digits (RFC 9110 §15).
    private static let statusSlots = 1000

    init(version: String) {
        self.version = version
    }

    // MARK: HTTPServerObserver

    func connectionOpened() { openConnections.wrappingAdd(1, ordering: .relaxed) }

    func connectionClosed() { openConnections.wrappingSubtract(1, ordering: .relaxed) }

    func responseSent(label: Int, status: Int, seconds: Double) {
        let route = Route(rawValue: label) ?? .other
        requests.add(1, at: route.rawValue * Self.statusSlots + min(max(status, 0), Self.statusSlots - 1))
        requestDuration.observe(seconds)
    }

    // MARK: Service events

    func recordCacheHit() { cacheHits.wrappingAdd(1, ordering: .relaxed) }

    func recordCacheMiss() { cacheMisses.wrappingAdd(1, ordering: .relaxed) }

    func recordRender(seconds: Double) { renderDuration.observe(seconds) }

    func recordRateLimited() { rateLimited.wrappingAdd(1, ordering: .relaxed) }

    /// The Prometheus text exposition (format 0.0.4) of every metric.
    func exposition(cache: ImageCache.Usage, renderQueueDepth: Int) -> String {
        var text = ""
        text.family("pagedots_requests_total", "counter", "Responses sent, by route and status.")
        for route in Route.allCases {
            for status in 0..<Self.statusSlots {
                let count = requests.load(at: route.rawValue * Self.statusSlots + status)
                guard count > 0 else { continue }
                text += "pagedots_requests_total{route=\"\(route.name)\",status=\"\(status)\"} \(count)\n"
            }
        }
        text.family("pagedots_request_duration_seconds", "histogram", "From a request's last header byte to its last response byte.")
        requestDuration.write(name: "pagedots_request_duration_seconds", into: &text)
        text.family("pagedots_render_duration_seconds", "histogram", "Time to draw and encode one image.")
        renderDuration.write(name: "pagedots_render_duration_seconds", into: &text)
        text.sample("pagedots_cache_hits_total", "counter", "Image requests answered from the cache.", cacheHits.load(ordering: .relaxed))
        text.sample("pagedots_cache_misses_total", "counter", "Image requests not answered from the cache.", cacheMisses.load(ordering: .relaxed))
        text.sample("pagedots_cache_evictions_total", "counter", "Cache entries dropped to stay under the budget.", cache.evictions)
        text.sample("pagedots_cache_bytes", "gauge", "Bytes of the responses the cache holds (body and headers).", cache.storedBytes)
        text.sample("pagedots_cache_budget_used_bytes", "gauge",
                    "Bytes counted against --cache-mb: responses, keys, URLs and a fixed per-entry overhead.", cache.bytes)
        text.sample("pagedots_cache_entries", "gauge", "Images held by the cache.", cache.entries)
        text.sample("pagedots_render_queue_depth", "gauge", "Cache misses waiting for a render thread.", renderQueueDepth)
        text.sample("pagedots_open_connections", "gauge", "Client connections open now.", openConnections.load(ordering: .relaxed))
        text.sample("pagedots_rate_limited_total", "counter", "Image requests refused with 429: over --client-miss-rate.",
                    rateLimited.load(ordering: .relaxed))
        text.family("pagedots_build_info", "gauge", "Always 1; the label carries the version.")
        text += "pagedots_build_info{version=\"\(version)\"} 1\n"
        return text
    }
}

/// A Prometheus histogram with fixed bucket bounds, in seconds: a counter per
/// bucket and the sum in nanoseconds, all atomic. The count is the buckets'
/// total (the last bucket takes what is above every bound), so the `+Inf`
/// bucket always equals `_count`.
final class Histogram: Sendable {
    /// From 100 µs to 10 s.
    static let latencyBounds = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let bounds: [Double]
    private let buckets: AtomicCounters
    private let sumNanoseconds = Atomic<Int>(0)

    init(bounds: [Double]) {
        self.bounds = bounds
        buckets = AtomicCounters(count: bounds.count + 1)
    }

    func observe(_ value: Double) {
        buckets.add(1, at: bounds.firstIndex { value <= $0 } ?? bounds.count)
        sumNanoseconds.wrappingAdd(Int(exactly: (value * 1e9).rounded()) ?? 0, ordering: .relaxed)
    }

    func write(name: String, into text: inout String) {
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += buckets.load(at: index)
            text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += buckets.load(at: bounds.count)
        let sum = Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9
        text += "\(name)_bucket{le=\"+Inf\"} \(cumulative)\n\(name)_sum \(sum)\n\(name)_count \(cumulative)\n"
    }
}

/// A fixed number of atomic counters, for metrics recorded from many threads.
/// (`@unchecked`: the pointer never changes and every access is atomic.)
final class AtomicCounters: @unchecked Sendable {
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int

    /// `count` counters at 0.
    init(count: Int) {
        self.count = count
        counters = .allocate(capacity: count)
        for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: count)
        counters.deallocate()
    }

    func add(_ value: Int, at index: Int) {
        counters[index].wrappingAdd(value, ordering: .relaxed)
    }

    func load(at index: Int) -> Int {
        counters[index].load(ordering: .relaxed)
    }
}

private extension String {
    mutating func family(_ name: String, _ type: String, _ help: String) {
        self += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ type: String, _ help: String, _ value: Int) {
        family(name, type, help)
        self += "\(name) \(value)\n"
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
