import Locking
import PagedotsCore
import PagedotsFetch

/// The sources of URL slides, fetched and kept (docs/carousel.md, "Carousels
/// from URLs"): each with its `ETag` and `Last-Modified`, used as it is
/// while fresh (`SourceFreshness`), then asked again of its origin with
/// `If-None-Match` / `If-Modified-Since` (a `304` keeps it).
///
/// The bytes are moved to temporary files as they arrive (`SpooledFile`,
/// in memory where none can be made), and all sources kept together are at
/// most `capacity` bytes, the least recently used let go of first; a
/// source larger than that is used once and not kept. Fetches go through
/// the `Fetcher`, which makes identical fetches in flight once and limits
/// them per host and in all. Safe from any thread.
final class SourceStore: Sendable {
    /// A source as a carousel uses it.
    struct Source: Sendable {
        /// Its URL, normalised.
        var url: String
        var bytes: ImageBytes
        /// The SHA-256 of its bytes: what tells a changed source from an unchanged one.
        var digest: [UInt8]
        var entityTag: String?
        var lastModified: String?
        /// Seconds since 1970 until which it is used without asking again; nil: it is not kept.
        var freshUntil: Int64?
    }

    /// Why a slide's source could not be had: the answer's status and what happened.
    struct Refusal: Error, Equatable, Sendable {
        var status: Int
        var reason: String
        /// Whether it ran out of time (`pagedots_source_fetches_total{result="timeout"}`).
        var timedOut = false
    }

    private struct State {
        var sources: [String: Source] = [:]
        /// URLs, least recently used first.
        var order: [String] = []
        var bytes = 0
    }

    private let capacity: Int
    private let fetcher: Fetcher
    private let clock: @Sendable () -> Int64
    private let metrics: Metrics
    private let log: ProblemLog
    private let state = Locked(State())

    init(capacity: Int, fetcher: Fetcher, clock: @escaping @Sendable () -> Int64, metrics: Metrics, log: ProblemLog) {
        self.capacity = capacity
        self.fetcher = fetcher
        self.clock = clock
        self.metrics = metrics
        self.log = log
    }

    /// Has every one of `urls` (slide `n` is `urls[n - 1]`), kept or fetched
    /// in parallel, and calls `completion` once, on a fetcher thread, with
    /// each source or its refusal, in order.
    func sources(for urls: [SourceURL], completion: @escaping @Sendable ([Result<Source, Refusal>]) -> Void) {
        let results = Locked([Result<Source, Refusal>?](repeating: nil, count: urls.count))
        let remaining = Locked(urls.count)
        for (index, url) in urls.enumerated() {
            source(for: url) { result in
                results.withLock { $0[index] = result }
                let done = remaining.withLock { count in
                    count -= 1
                    return count == 0
                }
                if done { completion(results.withLock { $0.compactMap { $0 } }) }
            }
        }
    }

    /// One source: kept and fresh, or asked of its origin (again).
    private func source(for url: SourceURL, completion: @escaping @Sendable (Result<Source, Refusal>) -> Void) {
        let now = clock()
        let kept: Source? = state.withLock { state in
            guard let source = state.sources[url.text] else { return nil }
            state.order.removeAll { $0 == url.text }
            state.order.append(url.text)
            return source
        }
        if let kept, let freshUntil = kept.freshUntil, now < freshUntil {
            metrics.recordSource(.fresh)
            return completion(.success(kept))
        }
        let request = FetchRequest(url: url.text, ifNoneMatch: kept?.entityTag, ifModifiedSince: kept?.entityTag == nil ? kept?.lastModified : nil)
        fetcher.fetch(request) { [self] outcome in
            completion(received(outcome, for: url, kept: kept))
        }
    }

    /// What a fetch brought: the new source (kept if it may be), the kept
    /// one refreshed by a `304`, or the refusal.
    private func received(_ outcome: FetchOutcome, for url: SourceURL, kept: Source?) -> Result<Source, Refusal> {
        let seconds = outcome.joined ? nil : outcome.elapsedSeconds
        switch outcome.result {
        case .failure(let failure):
            let refusal = Self.refusal(failure)
            metrics.recordSource(
                refusal.timedOut ? .timeout : failure.kind.isRefusal ? .refused : .failed, seconds: seconds, bytes: outcome.joined ? 0 : outcome.bytesReceived
            )
            // The message names the host first.
            log.write("source \(failure.message)")
            return .failure(refusal)
        case .success(let response):
            let freshness = SourceFreshness(cacheControl: response.headers["Cache-Control"], age: response.headers["Age"])
            let freshUntil = freshness.seconds.map { clock() + Int64($0) }
            if response.status == 304, var source = kept {
                metrics.recordSource(.revalidated, seconds: seconds)
                source.freshUntil = freshUntil
                source.entityTag = response.headers["ETag"] ?? source.entityTag
                source.lastModified = response.headers["Last-Modified"] ?? source.lastModified
                keep(source)
                return .success(source)
            }
            guard (200...299).contains(response.status) else {
                metrics.recordSource(.failed, seconds: seconds, bytes: outcome.joined ? 0 : outcome.bytesReceived)
                log.write("source \(url.host): answered \(response.status)")
                let status = response.status == 404 || response.status == 410 ? 404 : 502
                return .failure(Refusal(status: status, reason: "its source answered \(response.status)"))
            }
            metrics.recordSource(.fetched, seconds: seconds, bytes: outcome.joined ? 0 : outcome.bytesReceived)
            let body = response.body
            let spooled = body.withUnsafeBytes { SpooledFile($0) }
            let source = Source(
                url: url.text, bytes: spooled.map { .spooled($0, 0..<body.count) } ?? .memory(SharedBytes(body)),
                digest: Digest.sha256(body), entityTag: response.headers["ETag"], lastModified: response.headers["Last-Modified"],
                freshUntil: freshUntil
            )
            if freshUntil != nil { keep(source) } else { forget(url.text) }
            return .success(source)
        }
    }

    /// Keeps `source` (replacing the one of its URL), letting go of the
    /// least recently used while all are over `capacity`.
    private func keep(_ source: Source) {
        guard source.bytes.count <= capacity else { return forget(source.url) }
        state.withLock { state in
            if let old = state.sources.updateValue(source, forKey: source.url) {
                state.bytes -= old.bytes.count
                state.order.removeAll { $0 == source.url }
            }
            state.order.append(source.url)
            state.bytes += source.bytes.count
            while state.bytes > capacity, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.sources.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
    }

    private func forget(_ url: String) {
        state.withLock { state in
            guard let old = state.sources.removeValue(forKey: url) else { return }
            state.bytes -= old.bytes.count
            state.order.removeAll { $0 == url }
        }
    }

    /// The answer a failed fetch gives (docs/carousel.md: `403` for what
    /// was not allowed, `504` for time, `413` for size, `502` otherwise).
    static func refusal(_ failure: FetchFailure) -> Refusal {
        switch failure.kind {
        case .addressRefused: Refusal(status: 403, reason: "\(failure.message)")
        case .redirectRefused: Refusal(status: 403, reason: "\(failure.message)")
        case .tooLarge: Refusal(status: 413, reason: failure.message)
        case .timeout: Refusal(status: 504, reason: failure.message, timedOut: true)
        default: Refusal(status: 502, reason: failure.message)
        }
    }
}

extension FetchFailure.Kind {
    /// Whether the fetch was refused by a policy rather than failing.
    var isRefusal: Bool {
        switch self {
        case .addressRefused, .redirectRefused: true
        default: false
        }
    }
}
