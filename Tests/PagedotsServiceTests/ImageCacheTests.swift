import HTTPServer
import Synchronization
import Testing
@testable import PagedotsService

@Suite struct ImageCacheTests {
    /// An image whose body has `bodyBytes` bytes.
    static func image(_ bodyBytes: Int, tag: UInt8 = 0) -> CachedImage {
        CachedImage(image: EncodedImage(bytes: [UInt8](repeating: tag, count: bodyBytes), contentType: "image/png"))
    }

    static let noWaiter: ImageCache.Waiter = { _ in }

    @Test func missThenHit() {
        let cache = ImageCache(capacity: 1 << 20)
        guard case .mustRender = cache.lookup("a", waiter: Self.noWaiter) else {
            Issue.record("first lookup must ask to render")
            return
        }
        let image = Self.image(10)
        #expect(cache.fulfil("a", with: image).isEmpty)
        guard case .hit(let found) = cache.lookup("a", waiter: Self.noWaiter) else {
            Issue.record("second lookup must hit")
            return
        }
        #expect(found === image)
        #expect(cache.usage.entries == 1)
        #expect(cache.usage.bytes == image.byteCount + 1)
    }

    @Test func concurrentMissesJoinOneRender() {
        let cache = ImageCache(capacity: 1 << 20)
        let told = Mutex<[Bool]>([])
        let waiter: ImageCache.Waiter = { image in told.withLock { $0.append(image != nil) } }
        guard case .mustRender = cache.lookup("a", waiter: waiter) else {
            Issue.record("first lookup must ask to render")
            return
        }
        for _ in 0..<3 {
            guard case .joined = cache.lookup("a", waiter: waiter) else {
                Issue.record("later lookups must join")
                return
            }
        }
        let waiters = cache.fulfil("a", with: Self.image(10))
        #expect(waiters.count == 3)
        for waiter in waiters { waiter(Self.image(1)) }
        #expect(told.withLock { $0 } == [true, true, true])
    }

    @Test func abandonedRenderReleasesWaitersAndCanBeRetried() {
        let cache = ImageCache(capacity: 1 << 20)
        _ = cache.lookup("a", waiter: Self.noWaiter)
        _ = cache.lookup("a", waiter: Self.noWaiter)
        #expect(cache.abandon("a").count == 1)
        guard case .mustRender = cache.lookup("a", waiter: Self.noWaiter) else {
            Issue.record("after abandon, the next lookup renders again")
            return
        }
    }

    @Test func evictsLeastRecentlyUsedToStayInBudget() {
        let one = Self.image(100)
        let capacity = 3 * (one.byteCount + 1)
        let cache = ImageCache(capacity: capacity)
        for key in ["a", "b", "c"] {
            _ = cache.lookup(key, waiter: Self.noWaiter)
            _ = cache.fulfil(key, with: Self.image(100))
        }
        #expect(cache.cached("a") != nil)  // a is now the most recently used
        _ = cache.lookup("d", waiter: Self.noWaiter)
        _ = cache.fulfil("d", with: Self.image(100))
        #expect(cache.cached("b") == nil)
        #expect(cache.cached("a") != nil)
        #expect(cache.cached("c") != nil)
        #expect(cache.cached("d") != nil)
        #expect(cache.usage.evictions == 1)
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes <= capacity)
    }

    @Test func imageLargerThanBudgetIsServedButNotKept() {
        let cache = ImageCache(capacity: 10)
        _ = cache.lookup("a", waiter: Self.noWaiter)
        _ = cache.lookup("a", waiter: Self.noWaiter)
        #expect(cache.fulfil("a", with: Self.image(100)).count == 1)
        #expect(cache.cached("a") == nil)
        #expect(cache.usage.bytes == 0)
    }
}

@Suite struct CachedImageTests {
    let image = ImageCacheTests.image(20, tag: 7)

    @Test func entityTagIsQuotedHexOfTheBody() {
        #expect(image.entityTag.count == 34)
        #expect(image.entityTag.hasPrefix("\"") && image.entityTag.hasSuffix("\""))
        #expect(image.entityTag == ImageCacheTests.image(20, tag: 7).entityTag)
        #expect(image.entityTag != ImageCacheTests.image(20, tag: 8).entityTag)
    }

    @Test func ifNoneMatchComparesWeakly() {
        let tag = image.entityTag
        #expect(image.isMatched(byIfNoneMatch: tag))
        #expect(image.isMatched(byIfNoneMatch: "W/\(tag)"))
        #expect(image.isMatched(byIfNoneMatch: "\"other\", \(tag) "))
        #expect(image.isMatched(byIfNoneMatch: "*"))
        #expect(!image.isMatched(byIfNoneMatch: "\"other\""))
        #expect(!image.isMatched(byIfNoneMatch: String(tag.dropLast())))
        #expect(!image.isMatched(byIfNoneMatch: ""))
    }

    @Test func responsesCarryTheCachingHeaders() {
        #expect(image.ok.status == 200)
        #expect(image.notModified.status == 304)
        #expect(image.byteCount > 20)
    }
}
