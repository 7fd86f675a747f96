import PagedotsCore
@testable import PagedotsService
import Testing

/// Keys that carry their hash: they behave as the values they wrap.
@Suite struct PrehashedTests {
    @Test func equalValuesAreOneKeyAndOthersAreNot() {
        let long = String(repeating: "v1;png;dots;p5;c2;", count: 5)
        var table: [Prehashed<String>: Int] = [Prehashed(long): 1, Prehashed("a"): 2]
        #expect(table[Prehashed(String(long))] == 1)
        #expect(table[Prehashed("a")] == 2)
        #expect(table[Prehashed("b")] == nil)
        table[Prehashed(long)] = nil
        #expect(table.count == 1)
        #expect(Prehashed("a") != Prehashed("b"))
        #expect(Prehashed("a").hashValue == Prehashed("a").hashValue)
    }

    @Test func fieldsReadThrough() {
        let url = ImageCache.URLKey(ImageCache.SentURL(path: "/indicator", query: "pages=5"))
        #expect(url.path == "/indicator" && url.query == "pages=5")
        #expect(url == ImageCache.URLKey(ImageCache.SentURL(path: "/indicator", query: "pages=5")))
        #expect(url != ImageCache.URLKey(ImageCache.SentURL(path: "/indicator.png", query: "pages=5")))
    }

    /// An image key holds its spec by reference (`Shared`): two words in
    /// each table, however large the spec, and equal to the key of an equal spec.
    @Test func imageKeysHoldTheirSpecOnce() {
        #expect(MemoryLayout<ImageCache.Key>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<IndicatorSpec>.size > 8 * MemoryLayout<ImageCache.Key>.size)
        var spec = IndicatorSpec(pages: 5)
        spec.labels = ["One"]
        var table: [ImageCache.Key: Int] = [ImageCache.Key(.indicator(spec)): 1]
        var same = IndicatorSpec(pages: 5)
        same.labels = ["One"]
        #expect(table[ImageCache.Key(.indicator(same))] == 1)
        same.labels = ["Two"]
        #expect(table[ImageCache.Key(.indicator(same))] == nil)
        table[ImageCache.Key(.indicator(spec))] = nil
        #expect(table.isEmpty)
        #expect(ImageCache.Key(.indicator(spec)).storageBytes == spec.storageBytes)
    }
}
