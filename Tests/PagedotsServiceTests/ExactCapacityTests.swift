@testable import HTTPServer
import Testing
@testable import PagedotsService

/// Cached bodies hold only their bytes, so that the cache budget is the heap's.
struct ExactCapacityTests {
    @Test func aGrownBufferIsCopiedToItsOwnSize() {
        var grown: [UInt8] = []
        for byte in 0..<1000 { grown.append(UInt8(truncatingIfNeeded: byte)) }
        #expect(grown.capacity > grown.count)
        let exact = grown.withExactCapacity()
        #expect(exact == grown)
        #expect(exact.capacity == exact.count)
    }

    @Test func anImageEntersTheCacheWithoutItsEncodersSpareCapacity() {
        var bytes = [UInt8](repeating: 7, count: 3000)
        bytes.reserveCapacity(6000)
        let entry = CachedImage(image: EncodedImage(bytes: bytes, contentType: "image/gif"))
        #expect(entry.responses.identity.ok.body.capacity == 3000)
    }
}
