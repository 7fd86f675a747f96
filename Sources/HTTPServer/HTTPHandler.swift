/// The application behind the server.
public protocol HTTPHandler: Sendable {
    /// Called on an event-loop thread for every complete request head, in the
    /// order of each connection. Must not block: answer with `responder.send`
    /// before returning, or hand `responder` to other work that answers later
    /// from any thread. Each responder must be used exactly once.
    func handle(_ request: HTTPRequest, responder: HTTPResponder)
}

/// Told about connections and responses, e.g. to keep metrics. Called on
/// event-loop threads: must be cheap and must not block.
public protocol HTTPServerObserver: Sendable {
    func connectionOpened()
    func connectionClosed()
    /// A response's last byte was handed to the kernel, `seconds` after its
    /// request's last header byte arrived. `label` is `HTTPResponse.label`.
    func responseSent(label: Int, status: Int, seconds: Double)
}
