import HTTPServer

/// One drawn image with the responses that serve it, prepared once.
final class CachedImage: Sendable {
    /// The strong entity tag, quoted.
    let entityTag: String
    /// `200` with the body.
    let ok: PreparedResponse
    /// `304` for a matching `If-None-Match`.
    let notModified: PreparedResponse

    /// Bytes this entry holds in memory: both responses as stored, plus
    /// `heapOverhead`. What the cache budget counts, so that `--cache-mb`
    /// bounds the process's memory and not only the bytes it could send.
    var byteCount: Int { responseBytes + Self.heapOverhead }

    /// Both responses as stored, head and body: what `pagedots_cache_bytes` shows.
    var responseBytes: Int { ok.byteCount + notModified.byteCount }

    /// Heap an entry takes beyond its response bytes and key: this object,
    /// the tag, two response objects, three buffer headers, allocator
    /// rounding, and the cache index's node and slot. bench/memory measured
    /// ~840 bytes per small PNG (1,504 resident for 661 counted); rounded up,
    /// since a flood of small images is where the overhead dominates.
    static let heapOverhead = 1024

    /// The cache lifetime of an image: a year, never revalidated (docs/http.md, "Images").
    static let cacheControl = HTTPHeaderField("Cache-Control", "public, max-age=31536000, immutable")

    init(image: EncodedImage) {
        entityTag = Digest.entityTag(of: image.bytes)
        let label = Route.indicator.rawValue
        let validators = [Self.cacheControl, HTTPHeaderField("ETag", entityTag)]
        ok = PreparedResponse(HTTPResponse(
            status: 200,
            headers: [HTTPHeaderField("Content-Type", image.contentType)] + validators,
            body: image.bytes,
            label: label
        ))
        notModified = PreparedResponse(HTTPResponse(status: 304, headers: validators, label: label))
    }

    /// Whether an `If-None-Match` value names this image (weak comparison, as
    /// RFC 9110 §13.1.2 asks; `*` matches any).
    func isMatched(byIfNoneMatch value: String) -> Bool {
        for candidate in value.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == entityTag { return true }
        }
        return false
    }
}
