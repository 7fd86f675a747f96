/// How the server listens and what it tolerates. Every default is SPEC.md's.
public struct HTTPServerConfiguration: Sendable {
    /// Address to listen on. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (see `HTTPServer.port`). Default 8080.
    public var port: Int = 8080
    /// Event-loop threads. Default: one per core.
    public var eventLoops: Int = defaultEventLoops
    /// Longest request line, CRLF not counted; longer is `414`. Default 8192.
    public var maxRequestLineBytes: Int = 8192
    /// Largest header section (header lines with their CRLFs); larger is `431`. Default 16384.
    public var maxHeaderBytes: Int = 16384
    /// Most header lines; more is `431`. Default 100.
    public var maxHeaderLines: Int = 100
    /// Seconds from a request head's first byte to its last; then `408`. Default 10.
    public var headerTimeout: Double = 10
    /// Seconds a connection may sit with no request in progress; then it is closed. Default 5.
    public var idleTimeout: Double = 5
    /// Seconds a graceful stop waits for requests in flight. Default 10.
    public var drainTimeout: Double = 10

    public init() {}

    /// One event loop per core.
    public static var defaultEventLoops: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

#if canImport(Glibc)
import Glibc
#endif
