import Glibc
import HTTPServer
import Synchronization

/// The service's Prometheus metrics (SPEC.md "Metrics"). Counters are atomics,
/// so recording is cheap from any thread; `exposition` writes the text format.
final class Metrics: HTTPServerObserver {
    private let requests = Mutex<[RequestKey: Int]>([:])
    private let requestDuration = Histogram(bounds: Histogram.latencyBounds)
    private let renderDuration = Histogram(bounds: Histogram.latencyBounds)
    private let cacheHits = Atomic<Int>(0)
    private let cacheMisses = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let version: String

    private struct RequestKey: Hashable {
        var route: Int
        var status: Int
    }

    init(version: String) {
        self.version = version
    }

    // MARK: HTTPServerObserver

    func connectionOpened() { openConnections.wrappingAdd(1, ordering: .relaxed) }

    func connectionClosed() { openConnections.wrappingSubtract(1, ordering: .relaxed) }

    func responseSent(label: Int, status: Int, seconds: Double) {
        requests.withLock { $0[RequestKey(route: label, status: status), default: 0] += 1 }
        requestDuration.observe(seconds)
    }

    // MARK: Service events

    func recordCacheHit() { cacheHits.wrappingAdd(1, ordering: .relaxed) }

    func recordCacheMiss() { cacheMisses.wrappingAdd(1, ordering: .relaxed) }

    func recordRender(seconds: Double) { renderDuration.observe(seconds) }

    /// The Prometheus text exposition (format 0.0.4) of every metric.
    func exposition(cache: ImageCache.Usage, renderQueueDepth: Int) -> String {
        var text = ""
        text.family("pagedots_requests_total", "counter", "Responses sent, by route and status.")
        let counts = requests.withLock { $0 }.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }
        for (key, count) in counts {
            let route = (Route(rawValue: key.route) ?? .other).name
            text += "pagedots_requests_total{route=\"\(route)\",status=\"\(key.status)\"} \(count)\n"
        }
        text.family("pagedots_request_duration_seconds", "histogram", "From a request's last header byte to its last response byte.")
        requestDuration.write(name: "pagedots_request_duration_seconds", into: &text)
        text.family("pagedots_render_duration_seconds", "histogram", "Time to draw and encode one image.")
        renderDuration.write(name: "pagedots_render_duration_seconds", into: &text)
        text.sample("pagedots_cache_hits_total", "counter", "Image requests answered from the cache.", cacheHits.load(ordering: .relaxed))
        text.sample("pagedots_cache_misses_total", "counter", "Image requests not answered from the cache.", cacheMisses.load(ordering: .relaxed))
        text.sample("pagedots_cache_evictions_total", "counter", "Cache entries dropped to stay under the budget.", cache.evictions)
        text.sample("pagedots_cache_bytes", "gauge", "Bytes held by the cache (responses, keys and per-entry overhead).", cache.bytes)
        text.sample("pagedots_cache_entries", "gauge", "Images held by the cache.", cache.entries)
        text.sample("pagedots_render_queue_depth", "gauge", "Cache misses waiting for a render thread.", renderQueueDepth)
        text.sample("pagedots_open_connections", "gauge", "Client connections open now.", openConnections.load(ordering: .relaxed))
        text.family("pagedots_build_info", "gauge", "Always 1; the label carries the version.")
        text += "pagedots_build_info{version=\"\(version)\"} 1\n"
        return text
    }
}

/// A Prometheus histogram with fixed bucket bounds, in seconds.
final class Histogram: Sendable {
    /// From 100 µs to 10 s.
    static let latencyBounds = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let bounds: [Double]
    private let state: Mutex<(buckets: [Int], sum: Double, count: Int)>

    init(bounds: [Double]) {
        self.bounds = bounds
        state = Mutex((buckets: Array(repeating: 0, count: bounds.count), sum: 0, count: 0))
    }

    func observe(_ value: Double) {
        let bucket = bounds.firstIndex { value <= $0 }
        state.withLock { state in
            if let bucket { state.buckets[bucket] += 1 }
            state.sum += value
            state.count += 1
        }
    }

    func write(name: String, into text: inout String) {
        let (buckets, sum, count) = state.withLock { $0 }
        var cumulative = 0
        for (bound, bucket) in zip(bounds, buckets) {
            cumulative += bucket
            text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(sum)\n\(name)_count \(count)\n"
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
