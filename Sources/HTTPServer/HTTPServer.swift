/// A response serialised once (status line and headers, body kept beside
/// them) so that it can be sent many times, e.g. from a cache.
public final class PreparedResponse: Sendable {
    public let status: Int
    public let label: Int
    /// Bytes held: serialised head plus body.
    public let byteCount: Int
    let head: [UInt8]
    let body: [UInt8]

    public init(_ response: HTTPResponse) {
        status = response.status
        label = response.label
        var text = "HTTP/1.1 \(response.status) \r\n"
        for field in response.headers { text += "\(field.name): \(field.value)\r\n" }
        head = Array(text.utf8)
        body = response.body
        byteCount = head.count + body.count
    }
}

/// Answers one request, once, from any thread.
public struct HTTPResponder: Sendable {
    /// Sends a prepared response, with `extraHeaders` added to its head. For a
    /// `HEAD` request the body is left out (its `Content-Length` stays).
    public func send(_ response: PreparedResponse, extraHeaders: [HTTPHeaderField] = []) {}

    /// Prepares and sends a one-off response.
    public func send(_ response: HTTPResponse) {
        send(PreparedResponse(response))
    }
}

/// Why the server could not start, in one line.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// A generic HTTP/1.1 server over non-blocking sockets and epoll.
public final class HTTPServer: Sendable {
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, observer: (any HTTPServerObserver)? = nil) {}

    /// Binds and listens; after it returns, `port` is the bound port.
    public func start() throws(HTTPServerError) {}

    /// The bound port (useful after asking for port 0).
    public var port: Int { 0 }

    /// Blocks until the server has stopped (after `shutdown` and the drain).
    public func wait() {}

    /// Begins a graceful stop; safe from any thread, idempotent.
    public func shutdown() {}
}
