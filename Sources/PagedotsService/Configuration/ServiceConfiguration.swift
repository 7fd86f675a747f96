import Glibc
import HTTPServer
import PagedotsCore

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
    /// When set, image URLs must be signed with one of its keys (docs/operating.md, "Signed URLs"). Default: none.
    public var signer: URLSigner?
    /// The file of `--presets`, read by `loadPresets` (docs/operating.md, "Presets"). Default: none.
    public var presetsFile: PresetsFile?
    /// The presets drawn at start (`loadPresets` reads them). Default: none.
    public var presets: Presets = .none
    /// Image URLs must name a preset and may set only what `Presets.allowedWithOnlyPresets` lists. Default false.
    public var onlyPresets = false
    /// `--now`: the time calendar URLs are drawn for, seconds since 1970;
    /// nil for the real clock (the default).
    public var fixedNow: Int64?
    /// Where time zones come from. Default: the system's tzdata.
    var zones: any TimeZoneSource = TimeZoneDatabase.system
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
    /// Where URL slides may come from (`--allow-source`); empty, the
    /// default, refuses every URL slide (docs/security.md).
    public var allowedSources = SourceAllowList.none
    /// Whether a fetch may connect to loopback and private addresses (an
    /// internal CDN; tests). Default false.
    public var allowPrivateSources = false
    /// The most bytes one fetched source may have. Default 16 MiB.
    public var maxSourceBytes = 16 << 20
    /// Seconds a source's whole fetch may take, its redirects included. Default 10.
    public var sourceTimeout = 10.0
    /// Bytes of fetched sources kept for reuse and revalidation. Default 64 MiB.
    public var sourceCacheBytes = 64 << 20

    public init() {}

    /// Reads `presetsFile` into `presets`, or says in one line why it cannot.
    public mutating func loadPresets() throws(PresetsFileError) {
        guard let presetsFile else { return }
        presets = try presetsFile.load(zones: zones)
    }

    /// The seconds since 1970 that calendar URLs and expiring signatures are judged at.
    var clock: @Sendable () -> Int64 {
        if let fixedNow { return { fixedNow } }
        return wallClockSeconds
    }
}

/// The wall clock in whole seconds since 1970, as the `Date` header reads it.
@Sendable func wallClockSeconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME_COARSE, &now)
    return Int64(now.tv_sec)
}

/// The version of this build.
public let pagedotsVersion = "0.1.0"
