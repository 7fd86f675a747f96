/// What a fetcher may do, for every fetch it makes.
///
/// The two hooks run on the fetcher's thread, in the middle of its work:
/// they must be quick and pure (no I/O, no waiting, no call back into the
/// fetcher).
public struct FetchPolicy: Sendable {
    /// The most body bytes a response may have (default 16 MiB); more is `tooLarge`.
    public var maxBytes: Int
    /// The most time to connect (name resolution included) on each hop (default 3 s).
    public var connectTimeout: Duration
    /// The most time for the whole fetch (default 10 s), counted from the call to
    /// `fetch`: time queued behind the limits and every redirect's hop come out of it.
    public var totalTimeout: Duration
    /// The most redirects followed (default 3); another one is `tooManyRedirects`.
    public var maxRedirects: Int
    /// The `User-Agent` header (e.g. `pagedots/1.4.0`).
    public var userAgent: String
    /// The `Accept` header (default `*/*`).
    public var accept: String
    /// Whether a connection may use this address: asked for every address
    /// before `connect`, and again with the address connected to before each
    /// request is sent (also on a reused connection).
    public var allowsAddress: @Sendable (FetchAddress) -> Bool
    /// Given a redirect's absolute target, the URL to fetch next (normalised as
    /// the caller sees fit), or a refusal; the target is never asked if refused.
    public var followsRedirect: @Sendable (_ location: String) -> Result<String, FetchRefusal>

    public init(
        maxBytes: Int = 16 << 20,
        connectTimeout: Duration = .seconds(3),
        totalTimeout: Duration = .seconds(10),
        maxRedirects: Int = 3,
        userAgent: String,
        accept: String = "*/*",
        allowsAddress: @escaping @Sendable (FetchAddress) -> Bool,
        followsRedirect: @escaping @Sendable (_ location: String) -> Result<String, FetchRefusal>
    ) {
        self.maxBytes = maxBytes
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
        self.accept = accept
        self.allowsAddress = allowsAddress
        self.followsRedirect = followsRedirect
    }

    /// The timeouts a policy may set.
    static let timeouts: ClosedRange<Duration> = Duration.milliseconds(1)...Duration.seconds(86400)

    /// Why this policy cannot be used, or nil.
    var problem: String? {
        if maxBytes < 0 { return "maxBytes must not be negative" }
        if maxRedirects < 0 { return "maxRedirects must not be negative" }
        if !Self.timeouts.contains(connectTimeout) || !Self.timeouts.contains(totalTimeout) {
            return "timeouts must be between 1 ms and a day"
        }
        if !isHeaderValue(userAgent) { return "the User-Agent has a line break or NUL in it" }
        if !isHeaderValue(accept) { return "the Accept header has a line break or NUL in it" }
        return nil
    }
}

/// How many fetches run at once; the others wait, first come first served.
public struct FetchLimits: Sendable {
    /// At most this many fetches at once to one host name, lower-cased (default 4).
    public var maxConnectionsPerHost: Int
    /// At most this many fetches at once in all (default 16).
    public var maxConcurrent: Int

    public init(maxConnectionsPerHost: Int = 4, maxConcurrent: Int = 16) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxConcurrent = maxConcurrent
    }
}

/// True when `value` can be sent as a header value as it is: no CR, LF or NUL
/// (libcurl sends header strings unchecked, so one could add headers).
func isHeaderValue(_ value: String) -> Bool {
    !value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
}
