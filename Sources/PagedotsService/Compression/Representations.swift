import HTTPServer

/// The prepared answers that serve one body (docs/http.md, "Compression"):
/// its `200` and, when it has an entity tag, its `304`; for a text body both
/// also gzip-compressed, with their own entity tag. Each is made once; a
/// request picks one by its `Accept-Encoding` and `If-None-Match`.
final class Representations: Sendable {
    /// The body in one coding: its tag and its answers.
    struct Variant: Sendable {
        /// The strong entity tag, quoted; nil for a body served without one.
        let entityTag: String?
        /// `200` with the body.
        let ok: PreparedResponse
        /// `304` for a matching `If-None-Match`; nil without an entity tag.
        let notModified: PreparedResponse?

        /// Both answers as stored, head and body.
        var byteCount: Int { ok.byteCount + (notModified?.byteCount ?? 0) }

        /// `response` in `coding`: its body compressed for gzip, with
        /// `Content-Encoding`, `Vary: Accept-Encoding` when the body can be
        /// sent in more than one coding (`varies`), and, when `entityTag` is
        /// given (the identity body's), the tag of this coding and a `304`.
        init(_ response: HTTPResponse, coding: ContentCoding, varies: Bool, entityTag identityTag: String?) {
            var response = response
            if coding == .gzip {
                response.body = Gzip.compress(response.body)
                response.headers.append(HTTPHeaderField("Content-Encoding", coding.token))
            }
            entityTag = identityTag.map { coding == .gzip ? Self.gzipTag(of: $0) : $0 }
            if let entityTag { response.headers.append(HTTPHeaderField("ETag", entityTag)) }
            if varies { response.headers.append(Representations.vary) }
            ok = PreparedResponse(response)
            notModified = entityTag.map { _ in
                PreparedResponse(HTTPResponse(
                    status: 304,
                    headers: response.headers.filter { Self.isKeptIn304($0.name) },
                    label: response.label
                ))
            }
        }

        /// The answer to `request`: `notModified` when its `If-None-Match`
        /// names this variant (looked for only when the variant has a tag), else `ok`.
        func response(to request: HTTPRequest) -> PreparedResponse {
            guard let notModified, let entityTag, let ifNoneMatch = request.header("If-None-Match"),
                  Self.matches(entityTag, ifNoneMatch: ifNoneMatch) else { return ok }
            return notModified
        }

        /// Whether an `If-None-Match` value names `tag` (weak comparison, as
        /// RFC 9110 §13.1.2 asks; `*` matches any).
        static func matches(_ tag: String, ifNoneMatch value: String) -> Bool {
            for candidate in value.split(separator: ",") {
                var listed = candidate.trimmingSpacesAndTabs
                if listed == "*" { return true }
                if listed.hasPrefix("W/") { listed = listed.dropFirst(2) }
                if listed == tag { return true }
            }
            return false
        }

        /// The gzip variant's tag: the identity tag with `-gz` inside the quotes.
        static func gzipTag(of identityTag: String) -> String {
            identityTag.hasSuffix("\"") ? identityTag.dropLast() + "-gz\"" : identityTag + "-gz"
        }

        /// The headers a `304` repeats from its `200` (RFC 9110 §15.4.5), and
        /// `Content-Encoding`, so that the variant it confirms is named.
        private static let namesKeptIn304: Set<String> = ["cache-control", "content-encoding", "etag", "expires", "vary"]

        private static func isKeptIn304(_ name: String) -> Bool {
            namesKeptIn304.contains(name.lowercased())
        }
    }

    /// `Vary: Accept-Encoding`, on every response whose body has a gzip variant.
    static let vary = HTTPHeaderField("Vary", "Accept-Encoding")

    /// The body as sent to a request that does not accept gzip.
    let identity: Variant
    /// The body gzip-compressed; nil when it is never compressed.
    let gzip: Variant?

    /// Both answers of every variant as stored, head and body.
    var byteCount: Int { identity.byteCount + (gzip?.byteCount ?? 0) }

    /// The variants of `response`: tagged with the body's hash when
    /// `validated` (the 304s need it), gzip-compressed too when `compressible`.
    init(_ response: HTTPResponse, validated: Bool, compressible: Bool) {
        let tag = validated ? Digest.entityTag(of: response.body) : nil
        identity = Variant(response, coding: .identity, varies: compressible, entityTag: tag)
        gzip = compressible ? Variant(response, coding: .gzip, varies: true, entityTag: tag) : nil
    }

    /// The answer to `request`: the variant its `Accept-Encoding` picks (read
    /// only when there is a choice), `304` when its `If-None-Match` names it.
    func response(to request: HTTPRequest) -> PreparedResponse {
        // Each variant is read in place, not copied out: this runs on every hit.
        if let gzip, ContentCoding.negotiate(for: request) == .gzip { return gzip.response(to: request) }
        return identity.response(to: request)
    }
}

extension ContentCoding {
    /// The coding `request`'s `Accept-Encoding` field lines pick.
    static func negotiate(for request: HTTPRequest) -> ContentCoding {
        negotiate(acceptEncoding: request.fieldValues("Accept-Encoding"))
    }

    /// Whether a body of this `Content-Type` is worth compressing: text
    /// (SVG, HTML, JSON). PNG, GIF and APNG are compressed already.
    static func isCompressible(contentType: String) -> Bool {
        let mediaType = contentType.prefix { $0 != ";" }.lowercased()
        return ["image/svg+xml", "text/html", "application/json"].contains(mediaType)
    }
}
