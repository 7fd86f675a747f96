import CCurl

/// What the fetcher must know of a URL before fetching it, read by libcurl's
/// own URL parser (`curl_url`), so it is the URL libcurl will ask for.
struct FetchTarget {
    /// The host, lower-cased (an IPv6 literal in brackets): the key of the per-host limit
    /// and the name in log messages.
    let host: String

    /// Reads `url`; refuses (`invalidRequest`) a URL libcurl does not read, a
    /// scheme other than http or https, and user information (never sent).
    init(_ url: String) throws(FetchFailure) {
        guard let handle = curl_url() else { throw FetchFailure(.other, message: "libcurl is out of memory") }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
              let scheme = Self.part(CURLUPART_SCHEME, of: handle),
              let host = Self.part(CURLUPART_HOST, of: handle)?.lowercased()
        else {
            throw FetchFailure(.invalidRequest, message: "a URL libcurl does not read")
        }
        guard scheme == "http" || scheme == "https" else {
            throw FetchFailure(.invalidRequest, message: "\(host): not an http or https URL")
        }
        guard Self.part(CURLUPART_USER, of: handle) == nil, Self.part(CURLUPART_PASSWORD, of: handle) == nil else {
            throw FetchFailure(.invalidRequest, message: "\(host): the URL has user information")
        }
        self.host = host
    }

    /// A part of a parsed URL; nil when the URL has none.
    private static func part(_ part: CURLUPart, of handle: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
