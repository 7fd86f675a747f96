/// The application behind the server. A class: the loops call it for every
/// request, and a class's existential is one reference, copied and called
/// for less than a value's.
public protocol HTTPHandler: AnyObject, Sendable {
    /// Called on an event-loop thread for every complete request without a
    /// body to hand over, in the order of each connection: at once for a
    /// request without a body; after reading and dropping a body the handler
    /// did not accept; or at once, before such a body, when the client waits
    /// for a word before sending it (`Expect: 100-continue`). Must not block:
    /// answer with `responder.send` before returning, or hand `responder` to
    /// other work that answers later from any thread. Each responder must be
    /// used exactly once; the next request on the same connection waits for
    /// the answer.
    func handle(_ request: HTTPRequest, responder: HTTPResponder)

    /// As `handle(_:responder:)`, for a request whose body the handler
    /// accepted (`acceptsBody`), once `body` has been read whole. (A separate
    /// call, so that requests without bodies carry nothing for them.) The
    /// default drops the body and calls `handle(_:responder:)`.
    func handle(_ request: HTTPRequest, body: HTTPRequestBody, responder: HTTPResponder)

    /// Whether the handler takes the body of `request`, read whole and handed
    /// to `handle(_:body:responder:)` (at most
    /// `HTTPServerConfiguration.maxUploadBytes`, within `bodyTimeout`).
    /// Called on an event-loop thread, once for each
    /// request whose head announces a body (`Content-Length` above 0, or
    /// chunked), before any of it is read; never for the others. Must be
    /// cheap and must not block. Default false: the body is read and dropped
    /// (at most `maxDiscardedBodyBytes`), or, when the client sent `Expect:
    /// 100-continue`, not read at all: `handle` answers at once and the
    /// connection closes after the answer.
    func acceptsBody(of request: HTTPRequest) -> Bool
}

extension HTTPHandler {
    public func acceptsBody(of request: HTTPRequest) -> Bool { false }

    public func handle(_ request: HTTPRequest, body: HTTPRequestBody, responder: HTTPResponder) {
        handle(request, responder: responder)
    }
}

/// Told about connections and responses, e.g. to keep metrics or an access
/// log. Called on event-loop threads, for every response: must be cheap and
/// must not block. A class, as `HTTPHandler` is.
public protocol HTTPServerObserver: AnyObject, Sendable {
    func connectionOpened()
    func connectionClosed()
    /// A response's last byte was handed to the kernel, `seconds` after its
    /// request's last header byte arrived (or after the server detected the
    /// error it answers). `label` is `HTTPResponse.label`; 0 for responses
    /// the server makes itself (400, 408, 413, 414, 431, 503, 505).
    func responseSent(label: Int, status: Int, seconds: Double)
    /// Whether to build an `HTTPAccessRecord` for every response. Read once,
    /// when the server starts; when false, only the responses the server
    /// makes itself (protocol errors, which are rare) get records, and the
    /// others cost nothing. Default false.
    var wantsAccessRecords: Bool { get }
    /// One access-log entry, after `responseSent`: for every response when
    /// `wantsAccessRecords`, else only for those with a `problem`, so that an
    /// error log always learns who was refused and why.
    func accessRecord(_ record: HTTPAccessRecord)
}

extension HTTPServerObserver {
    public var wantsAccessRecords: Bool { false }
    public func accessRecord(_ record: HTTPAccessRecord) {}
}

/// What an access log needs about one response. Built without copying or
/// formatting anything: the request and the peer's text are shared, so that
/// a log can write its line straight from them.
public struct HTTPAccessRecord: Sendable {
    /// The client's address and port: `127.0.0.1:54321`, `[::1]:54321`
    /// (worked out once per connection).
    public var peer: String
    /// The request as the handler got it; nil when the server answered
    /// before understanding the request line.
    public var request: HTTPRequest?
    public var status: Int
    /// Body bytes sent (0 for `HEAD`, 304 and the like).
    public var bodyBytes: Int
    /// Seconds from the request's last header byte to the response's last byte.
    public var seconds: Double
    /// `HTTPResponse.label`; 0 for responses the server makes itself.
    public var label: Int
    /// For a response the server made itself: the protocol error, in one line
    /// (`request line longer than 8192 bytes`); nil otherwise.
    public var problem: String?
    /// The event loop that sent the response, from 0 to
    /// `HTTPServerConfiguration.eventLoops` - 1. One loop's records come from
    /// one thread, in order, so an observer can keep state per loop and take
    /// no lock that the loops share.
    public var loop: Int

    public init(
        peer: String, request: HTTPRequest?, status: Int, bodyBytes: Int, seconds: Double, label: Int,
        problem: String?, loop: Int = 0
    ) {
        self.peer = peer
        self.request = request
        self.status = status
        self.bodyBytes = bodyBytes
        self.seconds = seconds
        self.label = label
        self.problem = problem
        self.loop = loop
    }

    /// The request method; empty when the request was not understood.
    public var method: String { request?.method.name ?? "" }

    /// The path and query as sent; empty when not understood.
    public var target: String {
        guard let request else { return "" }
        return request.query.isEmpty ? request.path : request.path + "?" + request.query
    }
}
