import HTTPServer
import PagedotsCore
import Locking

/// The in-memory LRU of drawn images, bounded in bytes, in two levels:
///
/// - images, keyed by their `IndicatorSpec` (the normalised parameters),
///   with concurrent misses for one key drawn once: the first asks to render,
///   the others wait for it;
/// - in front of them, the URLs (path and query exactly as sent) that were
///   answered with each image, with the headers that belong to the URL, so
///   that a URL seen before is answered without parsing its parameters or
///   building its key.
///
/// A URL stays only as long as its image, at most `maxURLsPerImage` of them
/// per image (the oldest goes first), and its bytes count against the budget:
/// URLs that differ only in unknown parameters cannot grow the cache, nor keep
/// an evicted image alive. A URL whose answer depends on the time (a
/// calendar page, an expiring signature) is not remembered, and all URLs are
/// forgotten when the presets change. Safe from any thread.
final class ImageCache: Sendable {
    /// Told the outcome of a render it waited for: the image, or nil when the
    /// render could not be done (e.g. the render queue was full).
    typealias Waiter = @Sendable (CachedImage?) -> Void

    /// An image URL as sent: path and query, still percent-encoded.
    struct SentURL: Hashable, Sendable {
        var path: String
        var query: String
    }

    typealias URLKey = Prehashed<SentURL>

    /// What an image is, held once however many tables hold the key.
    typealias Key = Prehashed<Shared<ImageIdentity>>

    /// What a URL is answered with: the image, and headers of that URL's own
    /// (`Cache-Control`, `X-Ignored-Parameters`); for a URL carousel, until
    /// when (seconds since 1970) its sources are fresh, which its
    /// `Cache-Control` counts down to.
    struct Answer: Sendable {
        var image: CachedImage
        var extraHeaders: [HTTPHeaderField]
        var freshUntil: Int64?

        /// The headers to send at `now`: a fresh answer's `max-age` is the seconds left.
        func headers(now: Int64) -> [HTTPHeaderField] {
            guard let freshUntil else { return extraHeaders }
            return [HTTPHeaderField("Cache-Control", "public, max-age=\(max(freshUntil - now, 0))")] + extraHeaders
        }
    }

    /// What a lookup by key found.
    enum Lookup {
        case hit(CachedImage)
        /// Another request is drawing this image; the waiter will be told.
        case joined
        /// Nobody is drawing it: the caller must render and then `fulfil` or `abandon`.
        case mustRender
        /// Nobody is drawing it, and `mayRender` said no: nothing was registered.
        case refused
    }

    /// Sizes and counts, for metrics.
    struct Usage: Sendable {
        /// What counts against the budget: responses, keys, URLs, overhead.
        var bytes = 0
        /// The stored responses alone (body and headers).
        var storedBytes = 0
        var entries = 0
        var evictions = 0
    }

    /// URLs remembered per image; a ninth replaces the oldest.
    static let maxURLsPerImage = 8

    private struct Entry {
        var image: CachedImage
        /// The URLs that lead here, oldest first.
        var urls: [URLKey] = []
    }

    /// A URL's way to its image: the image's slot in the LRU, and its answer.
    private struct Shortcut {
        var slot: LRUIndex<Key, Entry>.Slot
        var answer: Answer
        /// Bytes this URL adds to the cache.
        var cost: Int
    }

    private struct State {
        var images = LRUIndex<Key, Entry>()
        /// Each URL's entry is in `images`, and lists the URL.
        var shortcuts: [URLKey: Shortcut] = [:]
        var waiters: [Key: [Waiter]] = [:]
        var usage = Usage()
        /// The presets' generation that the remembered URLs were read under.
        var urlGeneration = 0
        /// Bytes of the budget kept free for renders in progress (`reserving`).
        var reserved = 0

        /// What the entries and URLs may hold now: the budget less what is
        /// reserved, and at least half of it.
        func room(in capacity: Int) -> Int { max(capacity - reserved, capacity / 2) }

        /// Makes `url` lead to the image in `slot`, if it was read under the current presets.
        mutating func remember(
            _ url: URLKey?, extraHeaders: [HTTPHeaderField], freshUntil: Int64?, generation: Int, slot: LRUIndex<Key, Entry>.Slot, capacity: Int
        ) {
            guard let url, generation == urlGeneration, shortcuts[url] == nil, let image = images[slot]?.image else { return }
            let cost = url.path.utf8.count + url.query.utf8.count
                + extraHeaders.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
            let replaced = images.update(slot) { entry -> URLKey? in
                entry.urls.append(url)
                return entry.urls.count > ImageCache.maxURLsPerImage ? entry.urls.removeFirst() : nil
            }
            if let replaced = replaced ?? nil { forget(replaced) }
            shortcuts[url] = Shortcut(slot: slot, answer: Answer(image: image, extraHeaders: extraHeaders, freshUntil: freshUntil), cost: cost)
            usage.bytes += cost
            evict(toFit: capacity)
        }

        /// Drops least recently used images, and their URLs, until the bytes fit.
        mutating func evict(toFit capacity: Int) {
            while usage.bytes > capacity, let (key, entry) = images.removeOldest() {
                usage.bytes -= ImageCache.cost(key, entry.image)
                usage.storedBytes -= entry.image.responseBytes
                entry.urls.forEach { forget($0) }
                usage.evictions += 1
            }
            usage.entries = images.count
        }

        mutating func forget(_ url: URLKey) {
            if let shortcut = shortcuts.removeValue(forKey: url) { usage.bytes -= shortcut.cost }
        }

        /// Forgets every URL; from now on only URLs read under `generation` are remembered.
        mutating func forgetURLs(generation: Int) {
            urlGeneration = generation
            usage.bytes -= shortcuts.values.reduce(0) { $0 + $1.cost }
            shortcuts = [:]
            images.updateAll { $0.urls = [] }
        }
    }

    private let capacity: Int
    private let state = Locked(State())

    /// A cache that holds at most `capacity` bytes: responses, keys and URLs.
    init(capacity: Int) {
        self.capacity = capacity
    }

    var usage: Usage { state.withLock { $0.usage } }

    /// The answer for a URL seen before whose image is still cached (which
    /// becomes the most recently used), and still fresh at `now` (seconds
    /// since 1970) if its freshness runs out; nil otherwise (a stale URL is
    /// forgotten: its image stays, to be found again by its key).
    func answer(for url: URLKey, now: Int64) -> Answer? {
        state.withLock { state in
            guard let shortcut = state.shortcuts[url] else { return nil }
            if let freshUntil = shortcut.answer.freshUntil, freshUntil <= now {
                state.forget(url)
                return nil
            }
            state.images.markUsed(shortcut.slot)
            return shortcut.answer
        }
    }

    /// The image for `key` if cached (and then `url`, unless nil, will lead to
    /// it, with `extraHeaders`, when `generation` is still the presets'); else
    /// joins or starts its render. When the result is `.joined` (only then),
    /// `waiter` will be called. `mayRender` is asked, under the cache's lock,
    /// only when the image would have to be drawn: false refuses (and nobody
    /// can join a render that will not happen).
    func lookup(
        _ key: Key, url: URLKey?, extraHeaders: [HTTPHeaderField], freshUntil: Int64? = nil, generation: Int = 0, waiter: @escaping Waiter,
        mayRender: () -> Bool = { true }
    ) -> Lookup {
        state.withLock { state in
            if let slot = state.images.slot(of: key), let image = state.images[slot]?.image {
                state.images.markUsed(slot)
                state.remember(
                    url, extraHeaders: extraHeaders, freshUntil: freshUntil, generation: generation, slot: slot, capacity: state.room(in: capacity)
                )
                return .hit(image)
            }
            if state.waiters[key] != nil {
                state.waiters[key]?.append(waiter)
                return .joined
            }
            guard mayRender() else { return .refused }
            state.waiters[key] = []
            return .mustRender
        }
    }

    /// Stores a rendered image (evicting the least recently used to stay within
    /// budget, less what renders in progress reserve), lets `url` lead to it
    /// (as `lookup` does), and returns the requests that were waiting for it.
    /// An image larger than that room is not kept.
    func fulfil(
        _ key: Key, with image: CachedImage, url: URLKey?, extraHeaders: [HTTPHeaderField], freshUntil: Int64? = nil, generation: Int = 0
    ) -> [Waiter] {
        let cost = Self.cost(key, image)
        return state.withLock { state in
            let room = state.room(in: capacity)
            if cost <= room, state.images.slot(of: key) == nil {
                let slot = state.images.insert(key, Entry(image: image))
                state.usage.bytes += cost
                state.usage.storedBytes += image.responseBytes
                // The new image is the most recent: it is evicted last, and it fits alone.
                state.evict(toFit: room)
                state.remember(url, extraHeaders: extraHeaders, freshUntil: freshUntil, generation: generation, slot: slot, capacity: room)
            }
            return state.waiters.removeValue(forKey: key) ?? []
        }
    }

    /// Forgets every remembered URL (the images stay): the presets have
    /// changed to `generation`, and a URL may now draw another image.
    func forgetURLs(generation: Int) {
        state.withLock { $0.forgetURLs(generation: generation) }
    }

    /// Runs `render` with `bytes` of the budget (at most a quarter of it;
    /// all renders together at most half) kept free for the memory it works
    /// in: least recently used images are evicted to make that room, and
    /// none is stored into it until `render` returns. So the budget bounds
    /// the cached images and the renders' scratch together: a render works
    /// in memory that evicted images held, not beside a full cache.
    func reserving<Result>(_ bytes: Int, while render: () -> Result) -> Result {
        let reservation = min(bytes, capacity / 4)
        guard reservation > 0 else { return render() }
        state.withLock { state in
            state.reserved += reservation
            state.evict(toFit: state.room(in: capacity))
        }
        defer { state.withLock { $0.reserved -= reservation } }
        return render()
    }

    /// Gives up a render that `lookup` asked for; returns its waiters.
    func abandon(_ key: Key) -> [Waiter] {
        state.withLock { $0.waiters.removeValue(forKey: key) ?? [] }
    }

    private static func cost(_ key: Key, _ image: CachedImage) -> Int {
        key.value.value.storageBytes + image.byteCount
    }
}

/// What a cached image is: what tells it from every other.
enum ImageIdentity: Hashable, Sendable {
    /// An indicator, by its normalised spec.
    case indicator(IndicatorSpec)
    /// A carousel of URL slides, by its validated spec and its sources' SHA-256 digests.
    case urlCarousel(CarouselSpec, sources: [[UInt8]])

    /// Bytes the key takes in memory, roughly.
    var storageBytes: Int {
        switch self {
        case .indicator(let spec): spec.storageBytes
        case .urlCarousel(let spec, let sources): spec.indicator.storageBytes + 256 + 48 * sources.count
        }
    }
}
