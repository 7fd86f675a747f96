@testable import HTTPServer
import Testing

/// Drives one `HTTPConnection` the way the socket loop does, with a fake
/// clock and a pretend socket: bytes the client sends wait "in the kernel"
/// until the machine asks to read; the socket takes at most `writeCapacity`
/// bytes (nil: all).
struct ConnectionHarness {
    static let dateLine = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"

    var machine: HTTPConnection
    /// Seconds on the fake clock.
    var now: Double = 0
    /// Bytes the socket takes before it is full; nil for no limit.
    var writeCapacity: Int?
    /// Bytes one read returns at most.
    var readChunk = Int.max
    /// Answers each dispatched request at once (the synchronous path) when it returns a response.
    var handler: ((HTTPRequest) -> HTTPResponse?)?

    /// The requests handed out, with the bodies handed out with them.
    private(set) var dispatched: [(request: HTTPRequest, body: HTTPRequestBody?, sequence: UInt64)] = []
    private(set) var sent: [UInt8] = []
    private(set) var sendCalls = 0
    private(set) var completed: [CompletedResponse] = []
    private(set) var outputShutDown = false
    private(set) var closed = false
    /// Closed with a reset (an abandoned response).
    private(set) var reset = false
    /// Bytes sent by the client and not read yet.
    private(set) var unread: [UInt8] = []
    private var clientClosed = false
    private var endOfInputDelivered = false

    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }, accessRecords: Bool = false, adjust: (inout ConnectionSettings) -> Void = { _ in }) {
        var configuration = HTTPServerConfiguration()
        configuration.headerTimeout = 10
        configuration.idleTimeout = 5
        configuration.sendTimeout = 30
        configure(&configuration)
        var settings = ConnectionSettings(configuration, keepsAccessRecords: accessRecords)
        adjust(&settings)
        machine = HTTPConnection(settings: settings, now: MonotonicTime(nanoseconds: 0))
    }

    init(rejecting error: HTTPProtocolError) {
        let settings = ConnectionSettings(HTTPServerConfiguration(), keepsAccessRecords: false)
        machine = HTTPConnection(
            settings: settings, rejectingWith: error,
            at: Moment(time: MonotonicTime(nanoseconds: 0), dateLine: Array(ConnectionHarness.dateLine.utf8))
        )
    }

    var moment: Moment {
        Moment(time: time(now), dateLine: Array(ConnectionHarness.dateLine.utf8))
    }

    func time(_ seconds: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: UInt64((seconds * 1e9).rounded()))
    }

    var sentText: String { String(decoding: sent, as: UTF8.self) }

    var dispatchedPaths: [String] { dispatched.map(\.request.path) }

    mutating func clientSends(_ text: String) {
        clientSends(Array(text.utf8))
    }

    mutating func clientSends(_ bytes: [UInt8]) {
        unread.append(contentsOf: bytes)
    }

    mutating func clientCloses() {
        clientClosed = true
    }

    /// Performs the machine's actions until it waits or closes.
    mutating func run() {
        for _ in 0..<100_000 {
            let canRead = !unread.isEmpty || (clientClosed && !endOfInputDelivered)
            switch machine.nextAction(at: moment, canRead: canRead, canWrite: writeCapacity != 0) {
            case .dispatch(let request, let sequence):
                dispatched.append((request, machine.takeBody(), sequence))
                if let response = handler?(request) { respond(sequence, response) }
            case .read:
                if unread.isEmpty {
                    endOfInputDelivered = true
                    machine.receivedEndOfInput()
                } else {
                    let count = min(readChunk, unread.count)
                    unread.withUnsafeBytes { machine.received(UnsafeRawBufferPointer(rebasing: $0[..<count]), now: time(now)) }
                    unread.removeFirst(count)
                }
            case .send:
                sendCalls += 1
                let count = machine.withPendingOutput { bytes in
                    let count = min(bytes.count, writeCapacity ?? bytes.count)
                    sent.append(contentsOf: bytes[..<count])
                    return count
                }
                writeCapacity = writeCapacity.map { $0 - count }
                machine.wrote(count, now: time(now))
                while let response = machine.takeCompletedResponse() { completed.append(response) }
            case .shutdownOutput:
                outputShutDown = true
            case .close:
                closed = true
                return
            case .reset:
                closed = true
                reset = true
                return
            case .wait:
                return
            }
        }
        Issue.record("the connection never settled")
    }

    /// The handler answers the request dispatched with `sequence` (later, from the loop's view).
    mutating func respond(_ sequence: UInt64, _ response: HTTPResponse, extraHeaders: [HTTPHeaderField] = []) {
        machine.responseReady(sequence: sequence, PreparedResponse(response), extraHeaders: extraHeaders, at: moment)
    }

    /// The client sends `request`; the handler answers it with `response` after the machine hands it out.
    mutating func exchange(_ request: String, _ response: HTTPResponse) {
        clientSends(request)
        run()
        guard let sequence = dispatched.last?.sequence else {
            Issue.record("no request was dispatched")
            return
        }
        respond(sequence, response)
        run()
    }

    /// Moves the clock to `seconds`, lets the due timer fire and runs.
    mutating func advance(to seconds: Double) {
        now = seconds
        machine.timerFired(at: moment)
        run()
    }

    /// Drops the requests handed out so far (and the bodies they hold).
    mutating func forgetDispatched() {
        dispatched.removeAll()
    }

    mutating func takeSentText() -> String {
        defer { sent.removeAll() }
        return sentText
    }
}

/// `200 OK`, `text/plain`, with `body`.
func okResponse(_ body: String = "ok", label: Int = 1) -> HTTPResponse {
    HTTPResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "text/plain")], body: Array(body.utf8), label: label)
}

/// The wire form of `okResponse(body)` with the harness's date and `connection` lines.
func okWire(_ body: String = "ok", connection: String? = nil) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n" + ConnectionHarness.dateLine
        + (connection.map { "Connection: \($0)\r\n" } ?? "") + "\r\n" + body
}
