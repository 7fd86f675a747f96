@testable import HTTPServer
import Locking
import Testing
import PagedotsCore
@testable import PagedotsService

@Suite struct ImageCacheTests {
    /// An image whose body has `bodyBytes` bytes.
    static func image(_ bodyBytes: Int, tag: UInt8 = 0) -> CachedImage {
        CachedImage(image: EncodedImage(bytes: [UInt8](repeating: tag, count: bodyBytes), contentType: "image/png"))
    }

    static let noWaiter: ImageCache.Waiter = { _ in }

    /// A URL for the tests: `/indicator?<query>`.
    static func url(_ query: String) -> ImageCache.URLKey {
        ImageCache.URLKey(ImageCache.SentURL(path: "/indicator", query: query))
    }

    /// The key of the image called `name`: a one-page bar titled `name`.
    static func key(_ name: String) -> ImageCache.Key {
        var spec = IndicatorSpec(pages: 1)
        spec.style = .bar
        spec.labels = [Label(name)]
        return ImageCache.Key(.indicator(spec))
    }

    /// Bytes the key of an image with a one-character name adds.
    static let keyBytes = key("a").value.value.storageBytes

    /// Bytes a URL adds: its path and query.
    static func cost(_ url: ImageCache.URLKey) -> Int {
        url.path.utf8.count + url.query.utf8.count
    }

    /// Looks `key` up for `url`; renders (fulfils with `image`) when asked to.
    /// Returns whether it was a hit.
    @discardableResult
    static func request(
        _ cache: ImageCache, _ name: String, url: ImageCache.URLKey, image: @autoclosure () -> CachedImage = image(100),
        extraHeaders: [HTTPHeaderField] = []
    ) -> Bool {
        switch cache.lookup(Self.key(name), url: url, extraHeaders: extraHeaders, waiter: noWaiter) {
        case .hit: return true
        case .joined, .refused: return false
        case .mustRender:
            _ = cache.fulfil(Self.key(name), with: image(), url: url, extraHeaders: extraHeaders)
            return false
        }
    }

    @Test("mayRender is asked only when the image would be drawn; a refusal registers nothing")
    func aRefusedRenderLeavesNoTrace() {
        let cache = ImageCache(capacity: 1 << 20)
        var asked = 0
        let refuse = { () -> Bool in
            asked += 1
            return false
        }
        guard case .refused = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter, mayRender: refuse) else {
            Issue.record("a refused render must say so")
            return
        }
        #expect(asked == 1)
        // Nobody is drawing it: the next request must draw it, not wait.
        guard case .mustRender = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("after a refusal, the image must be drawn by the next request")
            return
        }
        // Joining the render in progress, and a hit, do not ask.
        guard case .joined = cache.lookup(Self.key("a"), url: Self.url("2"), extraHeaders: [], waiter: Self.noWaiter, mayRender: refuse) else {
            Issue.record("a second request must join the render")
            return
        }
        _ = cache.fulfil(Self.key("a"), with: Self.image(10), url: Self.url("1"), extraHeaders: [])
        guard case .hit = cache.lookup(Self.key("a"), url: Self.url("3"), extraHeaders: [], waiter: Self.noWaiter, mayRender: refuse) else {
            Issue.record("a drawn image must be a hit")
            return
        }
        #expect(asked == 1)
    }

    @Test func missThenHit() {
        let cache = ImageCache(capacity: 1 << 20)
        let url = Self.url("pages=1")
        guard case .mustRender = cache.lookup(Self.key("a"), url: url, extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("first lookup must ask to render")
            return
        }
        let image = Self.image(10)
        #expect(cache.fulfil(Self.key("a"), with: image, url: url, extraHeaders: []).isEmpty)
        guard case .hit(let found) = cache.lookup(Self.key("a"), url: Self.url("pages=01"), extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("second lookup must hit")
            return
        }
        #expect(found === image)
        #expect(cache.usage.entries == 1)
        #expect(cache.usage.bytes == image.byteCount + Self.keyBytes + Self.cost(url) + Self.cost(Self.url("pages=01")))
    }

    @Test func aURLAnsweredOnceIsAnsweredWithoutItsKey() {
        let cache = ImageCache(capacity: 1 << 20)
        let rendered = Self.url("pages=3&utm=x")
        let ignored = [HTTPHeaderField("X-Ignored-Parameters", "utm")]
        #expect(cache.answer(for: rendered, now: 0) == nil)
        Self.request(cache, "k", url: rendered, image: Self.image(10, tag: 1), extraHeaders: ignored)
        let answer = cache.answer(for: rendered, now: 0)
        #expect(answer?.image.responses.identity.entityTag == Self.image(10, tag: 1).responses.identity.entityTag)
        #expect(answer?.extraHeaders == ignored)

        // Another spelling of the same image is not known until looked up by key,
        // and then it keeps its own headers.
        let respelled = Self.url("pages=03")
        #expect(cache.answer(for: respelled, now: 0) == nil)
        #expect(Self.request(cache, "k", url: respelled))
        #expect(cache.answer(for: respelled, now: 0)?.image === answer?.image)
        #expect(cache.answer(for: respelled, now: 0)?.extraHeaders == [])
        #expect(cache.answer(for: rendered, now: 0)?.extraHeaders == ignored)
    }

    @Test func concurrentMissesJoinOneRender() {
        let cache = ImageCache(capacity: 1 << 20)
        let told = Locked<[Bool]>([])
        let waiter: ImageCache.Waiter = { image in told.withLock { $0.append(image != nil) } }
        guard case .mustRender = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: waiter) else {
            Issue.record("first lookup must ask to render")
            return
        }
        for query in ["2", "3", "4"] {
            guard case .joined = cache.lookup(Self.key("a"), url: Self.url(query), extraHeaders: [], waiter: waiter) else {
                Issue.record("later lookups must join")
                return
            }
        }
        let waiters = cache.fulfil(Self.key("a"), with: Self.image(10), url: Self.url("1"), extraHeaders: [])
        #expect(waiters.count == 3)
        for waiter in waiters { waiter(Self.image(1)) }
        #expect(told.withLock { $0 } == [true, true, true])
    }

    @Test func abandonedRenderReleasesWaitersAndCanBeRetried() {
        let cache = ImageCache(capacity: 1 << 20)
        _ = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter)
        _ = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter)
        #expect(cache.abandon(Self.key("a")).count == 1)
        #expect(cache.answer(for: Self.url("1"), now: 0) == nil)
        guard case .mustRender = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("after abandon, the next lookup renders again")
            return
        }
    }

    @Test func evictsLeastRecentlyUsedToStayInBudget() {
        let url = Self.url("x")
        let one = Self.image(100).byteCount + Self.keyBytes + Self.cost(url)
        let cache = ImageCache(capacity: 3 * one)
        for key in ["a", "b", "c"] {
            Self.request(cache, key, url: Self.url(key))
        }
        #expect(cache.answer(for: Self.url("a"), now: 0) != nil)  // a is now the most recently used
        Self.request(cache, "d", url: Self.url("d"))
        #expect(cache.answer(for: Self.url("b"), now: 0) == nil)
        #expect(cache.answer(for: Self.url("a"), now: 0) != nil)
        #expect(cache.answer(for: Self.url("c"), now: 0) != nil)
        #expect(cache.answer(for: Self.url("d"), now: 0) != nil)
        #expect(!Self.request(cache, "b", url: Self.url("b")), "b must be drawn again")
        #expect(cache.usage.evictions == 2)
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes == 3 * one)
        #expect(cache.usage.storedBytes == 3 * Self.image(100).responseBytes)
    }

    @Test func anEvictedImageIsNeitherServedByItsURLsNorKeptAlive() {
        // Room for two images with a URL each, and a little more.
        let cache = ImageCache(capacity: 2 * (Self.image(300).byteCount + Self.keyBytes + Self.cost(Self.url("a"))) + 20)
        weak var first: CachedImage?
        do {
            let image = Self.image(300, tag: 1)
            first = image
            Self.request(cache, "a", url: Self.url("a"), image: image)
            Self.request(cache, "a", url: Self.url("a&utm=1"))
        }
        Self.request(cache, "b", url: Self.url("b"), image: Self.image(300, tag: 2))
        Self.request(cache, "c", url: Self.url("c"), image: Self.image(300, tag: 3))
        #expect(cache.usage.evictions == 1)
        #expect(first == nil, "the evicted image is released")
        #expect(cache.answer(for: Self.url("a"), now: 0) == nil)
        #expect(cache.answer(for: Self.url("a&utm=1"), now: 0) == nil)
        // Drawn again, it is served again, and the other images are still theirs.
        Self.request(cache, "a", url: Self.url("a"), image: Self.image(300, tag: 4))
        #expect(cache.answer(for: Self.url("a"), now: 0)?.image.responses.identity.entityTag == Self.image(300, tag: 4).responses.identity.entityTag)
        #expect(cache.answer(for: Self.url("c"), now: 0)?.image.responses.identity.entityTag == Self.image(300, tag: 3).responses.identity.entityTag)
    }

    @Test func urlsPerImageAreBoundedAndCountedInTheBudget() {
        let cache = ImageCache(capacity: 1 << 20)
        let image = Self.image(100)
        let base = image.byteCount + Self.keyBytes
        Self.request(cache, "a", url: Self.url("u=0"), image: image)
        for index in 1...20 {
            #expect(Self.request(cache, "a", url: Self.url("u=\(index)")))
        }
        let kept = (13...20).map { Self.url("u=\($0)") }
        #expect(kept.count == ImageCache.maxURLsPerImage)
        for url in kept { #expect(cache.answer(for: url, now: 0) != nil) }
        for index in 0...12 { #expect(cache.answer(for: Self.url("u=\(index)"), now: 0) == nil) }
        #expect(cache.usage.bytes == base + kept.map(Self.cost).reduce(0, +))
        #expect(cache.usage.entries == 1)
    }

    @Test func urlsCannotPushTheCacheOverBudget() {
        let image = Self.image(100)
        let capacity = image.byteCount + Self.keyBytes + 20
        let cache = ImageCache(capacity: capacity)
        Self.request(cache, "a", url: Self.url("short"), image: image)
        #expect(cache.usage.bytes <= capacity)
        // A URL that does not fit beside its image evicts it, and itself with it.
        #expect(Self.request(cache, "a", url: Self.url(String(repeating: "u", count: 40))))
        #expect(cache.usage.bytes <= capacity)
        #expect(cache.usage.bytes == 0)
        #expect(cache.answer(for: Self.url("short"), now: 0) == nil)
    }

    @Test("A URL given no key is not remembered; the image is cached as ever")
    func timeDependentURLsAreNotRemembered() {
        let cache = ImageCache(capacity: 1 << 20)
        guard case .mustRender = cache.lookup(Self.key("a"), url: nil, extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("expected a render")
            return
        }
        _ = cache.fulfil(Self.key("a"), with: Self.image(100), url: nil, extraHeaders: [])
        guard case .hit = cache.lookup(Self.key("a"), url: nil, extraHeaders: [], waiter: Self.noWaiter) else {
            Issue.record("expected a hit")
            return
        }
        #expect(cache.usage.bytes == Self.image(100).byteCount + Self.keyBytes)
    }

    @Test("When the presets change, every URL is forgotten and only URLs read under the new ones are remembered")
    func forgettingURLs() {
        let cache = ImageCache(capacity: 1 << 20)
        let image = Self.image(100)
        Self.request(cache, "a", url: Self.url("preset=brand"), image: image)
        Self.request(cache, "a", url: Self.url("style=pill"))
        #expect(cache.answer(for: Self.url("preset=brand"), now: 0) != nil)
        cache.forgetURLs(generation: 1)
        #expect(cache.answer(for: Self.url("preset=brand"), now: 0) == nil && cache.answer(for: Self.url("style=pill"), now: 0) == nil)
        #expect(cache.usage.bytes == image.byteCount + Self.keyBytes && cache.usage.entries == 1)
        // A request read under the old presets that finishes now is not remembered.
        _ = cache.lookup(Self.key("a"), url: Self.url("preset=brand"), extraHeaders: [], generation: 0, waiter: Self.noWaiter)
        #expect(cache.answer(for: Self.url("preset=brand"), now: 0) == nil)
        _ = cache.lookup(Self.key("a"), url: Self.url("preset=brand"), extraHeaders: [], generation: 1, waiter: Self.noWaiter)
        #expect(cache.answer(for: Self.url("preset=brand"), now: 0) != nil)
        // The image's list of URLs was emptied too: nine new ones evict only the first of them.
        for index in 0..<8 {
            _ = cache.lookup(Self.key("a"), url: Self.url("u=\(index)"), extraHeaders: [], generation: 1, waiter: Self.noWaiter)
        }
        #expect(cache.answer(for: Self.url("preset=brand"), now: 0) == nil && cache.answer(for: Self.url("u=0"), now: 0) != nil)
        #expect(cache.usage.bytes == image.byteCount + Self.keyBytes + (0..<8).map { Self.cost(Self.url("u=\($0)")) }.reduce(0, +))
    }

    @Test func imageLargerThanBudgetIsServedButNotKept() {
        let cache = ImageCache(capacity: 10)
        _ = cache.lookup(Self.key("a"), url: Self.url("1"), extraHeaders: [], waiter: Self.noWaiter)
        _ = cache.lookup(Self.key("a"), url: Self.url("2"), extraHeaders: [], waiter: Self.noWaiter)
        #expect(cache.fulfil(Self.key("a"), with: Self.image(100), url: Self.url("1"), extraHeaders: []).count == 1)
        #expect(cache.answer(for: Self.url("1"), now: 0) == nil)
        #expect(cache.usage.bytes == 0)
    }

    /// A cache full of eight images, "a" (the oldest) to "h", each with one
    /// URL; and the bytes each costs.
    static func fullCache() -> (ImageCache, one: Int) {
        let one = image(100).byteCount + keyBytes + cost(url("a"))
        let cache = ImageCache(capacity: 8 * one)
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            request(cache, name, url: url(name))
        }
        return (cache, one)
    }

    @Test("A render's reservation evicts the oldest images to make room, which nothing fills until it ends")
    func aReservationMakesRoomForARendersScratch() {
        let (cache, one) = Self.fullCache()
        #expect(cache.usage.entries == 8)
        let drawn = cache.reserving(2 * one) { () -> Int in
            #expect(cache.usage.entries == 6 && cache.usage.bytes == 6 * one)
            #expect(cache.answer(for: Self.url("a"), now: 0) == nil && cache.answer(for: Self.url("b"), now: 0) == nil)
            #expect(cache.answer(for: Self.url("c"), now: 0) != nil)
            // Stored within the room left: d, now the oldest, goes.
            Self.request(cache, "i", url: Self.url("i"))
            #expect(cache.usage.bytes == 6 * one)
            #expect(cache.answer(for: Self.url("d"), now: 0) == nil && cache.answer(for: Self.url("i"), now: 0) != nil)
            return 42
        }
        #expect(drawn == 42)
        Self.request(cache, "j", url: Self.url("j"))
        Self.request(cache, "k", url: Self.url("k"))
        #expect(cache.usage.entries == 8 && cache.usage.bytes == 8 * one, "the whole budget again")
        #expect(cache.usage.evictions == 3)
    }

    @Test("A reservation takes at most a quarter of the budget, all of them together at most half; none evicts nothing")
    func reservationsAreBounded() {
        let (cache, one) = Self.fullCache()
        cache.reserving(0) { #expect(cache.usage.entries == 8) }
        cache.reserving(8 * one) {
            #expect(cache.usage.entries == 6)
            cache.reserving(8 * one) {
                #expect(cache.usage.entries == 4)
                cache.reserving(8 * one) { #expect(cache.usage.entries == 4) }
            }
        }
    }
}

@Suite struct CachedImageTests {
    let image = ImageCacheTests.image(20, tag: 7)

    @Test func entityTagIsQuotedHexOfTheBody() throws {
        let tag = try #require(image.responses.identity.entityTag)
        #expect(tag.count == 34)
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(tag == ImageCacheTests.image(20, tag: 7).responses.identity.entityTag)
        #expect(tag != ImageCacheTests.image(20, tag: 8).responses.identity.entityTag)
    }

    @Test func ifNoneMatchComparesWeakly() throws {
        let tag = try #require(image.responses.identity.entityTag)
        let matches = { (value: String) in Representations.Variant.matches(tag, ifNoneMatch: value) }
        #expect(matches(tag))
        #expect(matches("W/\(tag)"))
        #expect(matches("\"other\", \(tag) "))
        #expect(matches("\t\(tag)\t,\"other\""))
        #expect(matches("*"))
        #expect(!matches("\"other\""))
        #expect(!matches(String(tag.dropLast())))
        #expect(!matches(""))
        #expect(!matches(Representations.Variant.gzipTag(of: tag)))
    }

    @Test func responsesCarryTheCachingHeaders() {
        #expect(image.responses.identity.ok.status == 200)
        #expect(image.responses.identity.notModified?.status == 304)
        #expect(image.byteCount > 20)
    }

    @Test("An answer's lifetime: immutable, else until the page changes or the signature expires, at least a second")
    func lifetimes() {
        let now: Int64 = 1_000_000
        #expect(ImageLifetime(calendar: nil, expires: nil, now: now) == .immutable)
        #expect(ImageLifetime(calendar: nil, expires: nil, now: now).cacheControl.value == "public, max-age=31536000, immutable")
        #expect(ImageLifetime(calendar: CalendarPosition(page: 6, nextChange: nil), expires: nil, now: now) == .immutable)
        let page = CalendarPosition(page: 2, nextChange: now + 3600)
        #expect(ImageLifetime(calendar: page, expires: nil, now: now) == .seconds(3600))
        #expect(ImageLifetime(calendar: page, expires: nil, now: now).cacheControl.value == "public, max-age=3600")
        #expect(ImageLifetime(calendar: page, expires: now + 60, now: now) == .seconds(60))
        #expect(ImageLifetime(calendar: page, expires: now + 7200, now: now) == .seconds(3600))
        #expect(ImageLifetime(calendar: CalendarPosition(page: 6, nextChange: nil), expires: now + 60, now: now) == .seconds(60))
        #expect(ImageLifetime(calendar: nil, expires: now + 1, now: now) == .seconds(1))
        #expect(ImageLifetime(calendar: CalendarPosition(page: 0, nextChange: now), expires: nil, now: now) == .seconds(1))
        #expect(ImageLifetime(calendar: nil, expires: now + 10 * Int64(ImageLifetime.year), now: now) == .seconds(ImageLifetime.year))
    }

    @Test("A PNG has one variant; an SVG also a gzip one, counted in the budget")
    func onlyTextHasAGzipVariant() throws {
        #expect(image.responses.gzip == nil)
        let svg = CachedImage(image: EncodedImage(bytes: GzipTests.text, contentType: "image/svg+xml"))
        let gzip = try #require(svg.responses.gzip)
        #expect(gzip.entityTag == Representations.Variant.gzipTag(of: try #require(svg.responses.identity.entityTag)))
        #expect(gunzip(gzip.ok.body) == GzipTests.text)
        #expect(svg.responseBytes == svg.responses.identity.byteCount + gzip.byteCount)
        #expect(svg.byteCount == svg.responseBytes + CachedImage.heapOverhead + CachedImage.variantOverhead)
    }
}
