/// One GET to make: a URL and the validators of a copy already held, if any.
///
/// Two requests that are equal (same URL, same validators) are made once when
/// one is in flight as the other arrives (single flight).
public struct FetchRequest: Hashable, Sendable {
    /// An absolute `http` or `https` URL, as libcurl parses it (`curl_url`), without user information.
    public var url: String
    /// Sent as `If-None-Match` (an entity tag as the origin gave it, quotes included).
    public var ifNoneMatch: String?
    /// Sent as `If-Modified-Since` (an HTTP date as the origin gave it).
    public var ifModifiedSince: String?

    public init(url: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
    }
}

/// The caller's reason for not following a redirect (see `FetchPolicy.followsRedirect`).
public struct FetchRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A short reason fit for a log line (it should name the target's host, not its query).
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
