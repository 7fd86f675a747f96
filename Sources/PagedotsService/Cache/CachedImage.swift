import HTTPServer

/// One drawn image with the responses that serve it, prepared once: the
/// `200` and the `304`, and for an SVG the same gzip-compressed (made here,
/// on the render thread that drew the image). Their `Cache-Control` is the
/// URL's, sent with each answer (`ImageLifetime`): one image may serve a URL
/// for good and a calendar URL until its page changes.
final class CachedImage: Sendable {
    /// The answers, in each coding the image is sent in.
    let responses: Representations

    /// Bytes this entry holds in memory: every response as stored, plus
    /// `heapOverhead` (and `variantOverhead` for a gzip variant). What the
    /// cache budget counts, so that `--cache-mb` bounds the process's memory
    /// and not only the bytes it could send.
    var byteCount: Int { responseBytes + Self.heapOverhead + (responses.gzip == nil ? 0 : Self.variantOverhead) }

    /// Every response as stored, head and body: what `pagedots_cache_bytes` shows.
    var responseBytes: Int { responses.byteCount }

    /// Heap an entry takes beyond its response bytes and key: this object,
    /// the tag, two response objects, three buffer headers, allocator
    /// rounding, and the cache index's node and slot. bench/memory measured
    /// ~840 bytes per small PNG (1,504 resident for 661 counted); rounded up,
    /// since a flood of small images is where the overhead dominates.
    static let heapOverhead = 1024

    /// What a gzip variant adds beyond its bytes: its tag, two more response
    /// objects and their buffers, rounded up as `heapOverhead` is.
    static let variantOverhead = 512

    /// `image` with headers of its own besides its `Content-Type` (a
    /// carousel's size and encoding), its answers counted under `route`.
    init(image: EncodedImage, headers: [HTTPHeaderField] = [], route: Route = .indicator) {
        responses = Representations(
            HTTPResponse(
                status: 200,
                headers: [HTTPHeaderField("Content-Type", image.contentType)] + headers,
                body: image.bytes.withExactCapacity(),
                label: route.rawValue
            ),
            validated: true,
            compressible: ContentCoding.isCompressible(contentType: image.contentType)
        )
    }
}
