#if canImport(Glibc)
import Glibc
#endif

/// How the server listens, what it tolerates, and how it sizes its buffers.
/// The defaults are documented in docs/operating.md (flags and fixed limits).
public struct HTTPServerConfiguration: Sendable {
    /// Address to listen on: an IPv4 or IPv6 address or a host name. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (see `HTTPServer.port`). Default 8080.
    public var port: Int = 8080
    /// Event-loop threads, each with its own listening socket. Default: one per core.
    public var eventLoops: Int = defaultEventLoops
    /// Longest request line, CRLF not counted; longer is `414`. Default 8192.
    public var maxRequestLineBytes: Int = 8192
    /// Largest header section (header lines with their CRLFs); larger is `431`. Default 16384.
    public var maxHeaderBytes: Int = 16384
    /// Most header lines; more is `431`. Default 100.
    public var maxHeaderLines: Int = 100
    /// Largest request body taken by a handler that accepts bodies
    /// (`HTTPHandler.acceptsBody`), chunk framing not counted; larger is
    /// `413`, as soon as `Content-Length` or a chunk's size says so. Default 32 MiB.
    public var maxUploadBytes: Int = 32 << 20
    /// Bytes of accepted bodies the server holds at once, all connections
    /// together: those being read, and those a handler still holds. A body
    /// that would pass it is refused with `503` and `Retry-After: 1` (before
    /// it is read, when its `Content-Length` is known). Default 128 MiB.
    public var maxHeldUploadBytes: Int = 128 << 20
    /// Seconds from the end of a request head to the last byte of a body the
    /// handler accepts (a deadline: trickling bytes does not extend it); then
    /// `408`. Default 30.
    public var bodyTimeout: Double = 30
    /// Largest body read and thrown away for a handler that does not accept
    /// it (so that its bytes are never taken for the next request), chunk
    /// framing not counted; larger is `413`. It comes under `headerTimeout`. Default 65536.
    public var maxDiscardedBodyBytes: Int = 65536
    /// Most open client connections; a connection beyond them is answered
    /// `503` with `Retry-After: 1` and closed. Default 10000.
    public var maxConnections: Int = 10000
    /// Seconds from a request head's first byte to its last (and to the last
    /// byte of a body that is thrown away); then `408`. Default 10.
    public var headerTimeout: Double = 10
    /// Seconds a connection may sit with no request in progress; then it is closed. Default 5.
    public var idleTimeout: Double = 5
    /// Seconds a response may make no progress (the client reads none of
    /// it); then it is abandoned and the connection closed. Default 30.
    public var sendTimeout: Double = 30
    /// Seconds a graceful stop waits for requests in flight. Default 10.
    public var drainTimeout: Double = 10

    // Tunables: no client of an image service needs them changed; they are
    // here so that every size and duration the server uses is in one place.

    /// Seconds a connection closed after a refusal keeps reading (and
    /// dropping) what the client still sends, so that the refusal is not lost
    /// to a reset; then it is closed. Default 2.
    public var lingerTimeout: Double = 2
    /// Most bytes dropped while lingering; then the connection is closed.
    /// Default 1048576 (1 MiB).
    public var maxLingerBytes: Int = 1 << 20
    /// Unsent output above which a connection stops reading and stops handing
    /// requests to the handler until the client reads. Default 65536.
    public var maxBufferedOutputBytes: Int = 64 * 1024
    /// Storage a connection's input or output buffer keeps when it empties;
    /// above it the storage is given back, so that an idle connection does
    /// not hold a large response's memory. Default 65536.
    public var retainedBufferBytes: Int = 64 * 1024
    /// Bytes one `recv` takes at most (one buffer per event loop). Default 65536.
    public var readBufferBytes: Int = 64 * 1024
    /// Reads one connection gets in a row before its loop turns to the
    /// others, so that a fast upload does not hold them up. Default 16.
    public var readsPerTurn: Int = 16
    /// Connections accepted per wake-up of a loop's listener, so that a burst
    /// of new connections does not starve the open ones. Default 64.
    public var acceptBatch: Int = 64
    /// Readiness events one `epoll_wait` returns at most. Default 256.
    public var eventsPerWait: Int = 256

    public init() {}

    /// One event loop per core.
    public static var defaultEventLoops: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The first setting that cannot work, as a one-line error.
    func validate() throws(HTTPServerError) {
        func check(_ valid: Bool, _ message: String) throws(HTTPServerError) {
            if !valid { throw HTTPServerError(message) }
        }
        try check((0...65535).contains(port), "port must be from 0 to 65535; got \(port)")
        try check((1...1024).contains(eventLoops), "event loops must be from 1 to 1024; got \(eventLoops)")
        try check(maxRequestLineBytes > 0, "maxRequestLineBytes must be positive")
        try check(maxHeaderBytes > 0, "maxHeaderBytes must be positive")
        try check(maxHeaderLines > 0, "maxHeaderLines must be positive")
        try check(maxUploadBytes >= 0, "maxUploadBytes must not be negative")
        try check(maxHeldUploadBytes >= maxUploadBytes, "maxHeldUploadBytes must be at least maxUploadBytes")
        try check(maxDiscardedBodyBytes >= 0, "maxDiscardedBodyBytes must not be negative")
        try check(maxConnections > 0, "maxConnections must be positive")
        try check(maxLingerBytes >= 0, "maxLingerBytes must not be negative")
        try check(maxBufferedOutputBytes > 0, "maxBufferedOutputBytes must be positive")
        try check(retainedBufferBytes >= 0, "retainedBufferBytes must not be negative")
        try check(readBufferBytes > 0, "readBufferBytes must be positive")
        try check(readsPerTurn > 0, "readsPerTurn must be positive")
        try check(acceptBatch > 0, "acceptBatch must be positive")
        try check(eventsPerWait > 0, "eventsPerWait must be positive")
        for (name, seconds) in [
            ("header timeout", headerTimeout), ("idle timeout", idleTimeout),
            ("send timeout", sendTimeout), ("drain timeout", drainTimeout), ("linger timeout", lingerTimeout),
            ("body timeout", bodyTimeout),
        ] {
            try check(seconds > 0 && seconds.isFinite, "\(name) must be a positive number of seconds; got \(seconds)")
        }
    }
}
