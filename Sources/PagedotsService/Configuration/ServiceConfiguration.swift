import HTTPServer

/// Everything `pagedots serve` can be told, validated before use. Every
/// field documents its default.
public struct ServiceConfiguration: Sendable {
    /// Sockets, limits and timeouts (host `127.0.0.1`, port 8080, …).
    public var server = HTTPServerConfiguration()
    /// Budget of the image cache in bytes of stored responses. Default 64 MiB.
    public var cacheBytes: Int = 64 << 20
    /// Threads that draw and encode still images; animations get one fewer
    /// (at least one), at a lower priority (`RenderLanes`). Default: one per core.
    public var renderThreads: Int = HTTPServerConfiguration.defaultEventLoops
    /// Still-image misses that may wait for a render thread; beyond, `503`. Default 256.
    public var renderQueueLimit: Int = 256
    /// Animation misses that may wait for a render thread, in a queue of
    /// their own: an eighth of `renderQueueLimit` (at least one), since
    /// each costs as much as tens of still images or more.
    var animationQueueLimit: Int { max(1, renderQueueLimit / 8) }
    /// When set, image URLs must be signed with this key (docs/operating.md, "Signed URLs"). Default: none.
    public var signer: URLSigner?
    /// New images a second that one client address may cause, on average
    /// (a burst of twice that); 0 turns the limit off (docs/operating.md,
    /// "Fair use"). Default 100.
    public var clientMissRate: Double = 100
    /// Peers whose `X-Forwarded-For` names the client (docs/operating.md, "Fair use"). Default: none.
    var trustedProxies = TrustedProxies()
    /// One line per response on standard output, and in which format. Default `combined`.
    public var accessLog: AccessLogFormat = .combined
    /// The version reported by `pagedots_build_info`.
    public var version: String = pagedotsVersion

    public init() {}
}

/// The version of this build.
public let pagedotsVersion = "0.1.0"
