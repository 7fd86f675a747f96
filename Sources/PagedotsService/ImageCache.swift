import Synchronization

/// The in-memory LRU of drawn images, keyed by `IndicatorSpec.cacheKey`,
/// bounded in bytes, with concurrent misses for one key drawn once: the first
/// asks to render, the others wait for it. Safe from any thread.
final class ImageCache: Sendable {
    /// Told the outcome of a render it waited for: the image, or nil when the
    /// render could not be done (e.g. the render queue was full).
    typealias Waiter = @Sendable (CachedImage?) -> Void

    /// What a lookup found.
    enum Lookup {
        case hit(CachedImage)
        /// Another request is drawing this image; the waiter will be told.
        case joined
        /// Nobody is drawing it: the caller must render and then `fulfil` or `abandon`.
        case mustRender
    }

    /// Sizes and counts, for metrics.
    struct Usage: Sendable {
        var bytes = 0
        var entries = 0
        var evictions = 0
    }

    private struct State {
        var images = LRUIndex<String, CachedImage>()
        var waiters: [String: [Waiter]] = [:]
        var usage = Usage()
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache that holds at most `capacity` bytes of entries (keys included).
    init(capacity: Int) {
        self.capacity = capacity
    }

    var usage: Usage { state.withLock { $0.usage } }

    /// The image for `key` if cached; else joins or starts its render. When
    /// the result is `.joined` (only then), `waiter` will be called.
    func lookup(_ key: String, waiter: @escaping Waiter) -> Lookup {
        state.withLock { state in
            if let image = state.images.touch(key) { return .hit(image) }
            if state.waiters[key] != nil {
                state.waiters[key]?.append(waiter)
                return .joined
            }
            state.waiters[key] = []
            return .mustRender
        }
    }

    /// The image for `key` if cached, without joining a render.
    func cached(_ key: String) -> CachedImage? {
        state.withLock { $0.images.touch(key) }
    }

    /// Stores a rendered image (evicting the least recently used to stay within
    /// budget) and returns the requests that were waiting for it.
    func fulfil(_ key: String, with image: CachedImage) -> [Waiter] {
        let cost = Self.cost(key, image)
        return state.withLock { state in
            if cost <= capacity {
                state.images.insert(key, image)
                state.usage.bytes += cost
                while state.usage.bytes > capacity, let evicted = state.images.removeOldest() {
                    state.usage.bytes -= Self.cost(evicted.key, evicted.value)
                    state.usage.evictions += 1
                }
                state.usage.entries = state.images.count
            }
            return state.waiters.removeValue(forKey: key) ?? []
        }
    }

    /// Gives up a render that `lookup` asked for; returns its waiters.
    func abandon(_ key: String) -> [Waiter] {
        state.withLock { $0.waiters.removeValue(forKey: key) ?? [] }
    }

    private static func cost(_ key: String, _ image: CachedImage) -> Int {
        key.utf8.count + image.byteCount
    }
}
