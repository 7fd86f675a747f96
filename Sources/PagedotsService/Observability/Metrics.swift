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
    /// Image requests answered from the cache (0) and not (1).
    private let cacheOutcomes = AtomicCounters(count: 2)
    private let rateLimited = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let logLinesDropped = Atomic<Int>(0)
    /// URL slides' sources, by what became of each (`SourceResult`).
    private let sourceResults = AtomicCounters(count: SourceResult.allCases.count)
    private let sourceFetchDuration = Histogram(bounds: Histogram.latencyBounds)
    private let sourceBytes = Atomic<Int>(0)
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

    func recordCacheHit() { cacheOutcomes.add(1, at: 0) }

    func recordCacheMiss() { cacheOutcomes.add(1, at: 1) }

    func recordRender(seconds: Double) { renderDuration.observe(seconds) }

    func recordRateLimited() { rateLimited.wrappingAdd(1, ordering: .relaxed) }
    /// A log line its output could not take (`AccessLog`).
    func recordLogLineDropped() { logLinesDropped.wrappingAdd(1, ordering: .relaxed) }

    /// A URL slide's source: what became of it, and, when it was asked of
    /// its origin, how long that took and the body bytes that came.
    func recordSource(_ result: SourceResult, seconds: Double? = nil, bytes: Int = 0) {
        sourceResults.add(1, at: result.slot)
        if let seconds { sourceFetchDuration.observe(seconds) }
        if bytes > 0 { sourceBytes.wrappingAdd(bytes, ordering: .relaxed) }
    }

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
        text.sample("pagedots_cache_hits_total", "counter", "Image requests answered from the cache.", cacheOutcomes.load(at: 0))
        text.sample("pagedots_cache_misses_total", "counter", "Image requests not answered from the cache.", cacheOutcomes.load(at: 1))
        text.sample("pagedots_cache_evictions_total", "counter", "Cache entries dropped to stay under the budget.", cache.evictions)
        text.sample("pagedots_cache_bytes", "gauge", "Bytes of the responses the cache holds (body and headers).", cache.storedBytes)
        text.sample("pagedots_cache_budget_used_bytes", "gauge",
                    "Bytes counted against --cache-mb: responses, keys, URLs and a fixed per-entry overhead.", cache.bytes)
        text.sample("pagedots_cache_entries", "gauge", "Images held by the cache.", cache.entries)
        text.sample("pagedots_render_queue_depth", "gauge", "Cache misses waiting for a render thread.", renderQueueDepth)
        text.sample("pagedots_open_connections", "gauge", "Client connections open now.", openConnections.load(ordering: .relaxed))
        text.sample("pagedots_rate_limited_total", "counter", "Image requests refused with 429: over --client-miss-rate.",
                    rateLimited.load(ordering: .relaxed))
        text.sample("pagedots_log_lines_dropped_total", "counter",
                    "Access and error log lines dropped because their output did not keep up.", logLinesDropped.load(ordering: .relaxed))
        text.family("pagedots_source_fetches_total", "counter", "URL slides' sources, by result: fetched, fresh (reused), revalidated, refused, failed, timeout.")
        for result in SourceResult.allCases {
            text += "pagedots_source_fetches_total{result=\"\(result.rawValue)\"} \(sourceResults.load(at: result.slot))\n"
        }
        text.family("pagedots_source_fetch_seconds", "histogram", "Time to fetch or revalidate one source, its redirects included.")
        sourceFetchDuration.write(name: "pagedots_source_fetch_seconds", into: &text)
        text.sample("pagedots_source_bytes_total", "counter", "Body bytes received from URL slides' origins.", sourceBytes.load(ordering: .relaxed))
        text.family("pagedots_build_info", "gauge", "Always 1; the label carries the version.")
        text += "pagedots_build_info{version=\"\(version)\"} 1\n"
        return text
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

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    Double(monotonicNanoseconds()) / 1e9
}

/// What became of a URL slide's source (`pagedots_source_fetches_total`).
enum SourceResult: String, CaseIterable, Sendable {
    /// Fetched from its origin (200).
    case fetched
    /// Reused from the source cache while fresh.
    case fresh
    /// Asked again of its origin, which said it had not changed (304).
    case revalidated
    /// Not asked: its URL, its address or a redirect was not allowed.
    case refused
    /// Asked, and not had: a status, a connection, TLS, too large, not an image.
    case failed
    /// Not had within `--source-timeout`.
    case timeout

    var slot: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

