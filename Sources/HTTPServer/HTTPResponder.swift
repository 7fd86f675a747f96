/// Answers one request, once, from any thread.
///
/// A small value: the loop, the connection and the request's number on it.
/// Sent on the loop's own thread (inside `handle`), the response goes straight
/// into the connection's output; sent from another thread, it is posted to the
/// loop, which writes it. A second send, or a send after the connection
/// closed, does nothing.
public struct HTTPResponder: Sendable {
    private enum Destination: Sendable {
        case connection(EventLoop, ResponseAddress)
        case callback(@Sendable (PreparedResponse, [HTTPHeaderField]) -> Void)
    }

    private let destination: Destination

    init(loop: EventLoop, address: ResponseAddress) {
        destination = .connection(loop, address)
    }

    /// A responder that hands what is sent to `deliver`, e.g. to test a
    /// handler without a server.
    public init(_ deliver: @escaping @Sendable (_ response: PreparedResponse, _ extraHeaders: [HTTPHeaderField]) -> Void) {
        destination = .callback(deliver)
    }

    /// Sends a prepared response, with `extraHeaders` added to its head. For a
    /// `HEAD` request the body is left out (its `Content-Length` stays).
    public func send(_ response: PreparedResponse, extraHeaders: [HTTPHeaderField] = []) {
        switch destination {
        case .connection(let loop, let address):
            loop.respond(to: address, with: response, extraHeaders: extraHeaders)
        case .callback(let deliver):
            deliver(response, extraHeaders)
        }
    }

    /// Prepares and sends a one-off response.
    public func send(_ response: HTTPResponse) {
        send(PreparedResponse(response))
    }
}
