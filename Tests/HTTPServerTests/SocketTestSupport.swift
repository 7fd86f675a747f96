import Dispatch
import HTTPServer
import Locking
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client on 127.0.0.1. A read that waits 10 s gives up, so
/// that a server bug fails the test instead of hanging it; nothing waits on
/// time otherwise.
final class TestClient {
    private let descriptor: Int32
    private var buffered: [UInt8] = []
    /// The errno of the read that ended the input, if it failed (ECONNRESET for a reset).
    private(set) var lastError: Int32?

    init(port: Int) throws(LoopbackConnectError) {
        descriptor = try connectToLoopback(port: port)
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Sends FIN: the client will send nothing more.
    func shutdownOutput() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads more bytes into the buffer; false at end of input (or reset, or the 60 s guard).
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count < 0 {
                lastError = errno
                if errno == EAGAIN { Issue.record("no answer from the server within 60 s") }
            }
            return false
        }
        buffered.append(contentsOf: chunk[..<count])
        return true
    }

    /// Everything until the server closes the connection.
    func readToEnd() -> String {
        while fill() {}
        defer { buffered.removeAll() }
        return String(decoding: buffered, as: UTF8.self)
    }

    /// One response: its head, and as many body bytes as its Content-Length
    /// says (none for HEAD when `head` is true). Nil if the connection ends first.
    func readResponse(head: Bool = false) -> String? {
        readResponseBytes(head: head).map { String(decoding: $0, as: UTF8.self) }
    }

    /// One response's bytes, as `readResponse` finds them.
    func readResponseBytes(head: Bool = false) -> [UInt8]? {
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            headEnd = buffered.indices.first { buffered[$0...].starts(with: separator) }.map { $0 + 4 }
            if headEnd != nil { break }
            guard fill() else { return nil }
        }
        guard let headEnd else { return nil }
        let headText = String(decoding: buffered[..<headEnd], as: UTF8.self)
        let length = head ? 0 : headText.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " }) } ?? 0
        while buffered.count < headEnd + length {
            guard fill() else { return nil }
        }
        defer { buffered.removeFirst(headEnd + length) }
        return Array(buffered[..<(headEnd + length)])
    }
}

/// A handler for the wire tests. Paths: `/hello` (text "hello"), `/echo`
/// (method, path, query and `X-Test`), `/big?n` (n bytes), `/file?n` (n
/// bytes of `patternedBytes`, from a temporary file), `/deferred`
/// (answered later by the test through `nextDeferred`), and `POST /upload`,
/// which takes its body and answers `uploadSummary` of it.
final class TestHandler: HTTPHandler {
    func acceptsBody(of request: HTTPRequest) -> Bool {
        request.method == .post && request.path == "/upload"
    }

    func handle(_ request: HTTPRequest, body: HTTPRequestBody, responder: HTTPResponder) {
        responder.send(HTTPResponse(status: 200, body: Array(uploadSummary(body.bytes).utf8), label: 4))
    }

    private let deferred = Locked<[HTTPResponder]>([])
    private let deferredArrived = DispatchSemaphore(value: 0)

    func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        switch request.path {
        case "/hello":
            responder.send(HTTPResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "text/plain")], body: Array("hello".utf8), label: 1))
        case "/echo":
            let text = "\(request.method.name) \(request.path) \(request.query) \(request.header("X-Test") ?? "-")"
            responder.send(HTTPResponse(status: 200, body: Array(text.utf8), label: 2))
        case "/big":
            responder.send(HTTPResponse(status: 200, body: [UInt8](repeating: 0x62, count: Int(request.query) ?? 0), label: 3))
        case "/file":
            guard let file = try? temporaryBodyFile(patternedBytes(Int(request.query) ?? 0)) else {
                return responder.send(HTTPResponse(status: 500, body: Array("no temporary file".utf8)))
            }
            responder.send(HTTPResponse(status: 200, bodyFile: file, label: 5))
        case "/upload":
            responder.send(HTTPResponse(status: 200, body: Array("no body".utf8), label: 4))
        case "/deferred":
            deferred.withLock { $0.append(responder) }
            deferredArrived.signal()
        default:
            responder.send(HTTPResponse(status: 404, body: Array("not found".utf8)))
        }
    }

    /// The responder of the next `/deferred` request, once the handler has it.
    func nextDeferred() -> HTTPResponder? {
        guard deferredArrived.wait(timeout: .now() + 10) == .success else {
            Issue.record("no /deferred request reached the handler within 10 s")
            return nil
        }
        return deferred.withLock { $0.removeFirst() }
    }
}

/// What `POST /upload` answers for a body: its length and a checksum.
func uploadSummary(_ bytes: [UInt8]) -> String {
    let sum = bytes.withUnsafeBufferPointer { bytes in
        var sum = 0
        for byte in bytes { sum = (sum &* 31 &+ Int(byte)) & 0xFFFF_FFFF }
        return sum
    }
    return "\(bytes.count) bytes, sum \(sum)"
}

/// Counts what the server reports, and keeps its access records.
final class RecordingObserver: HTTPServerObserver {
    struct Counts: Equatable {
        var opened = 0
        var closed = 0
        var responses: [Int] = []
    }

    private let counts = Locked(Counts())
    private let records = Locked<[HTTPAccessRecord]>([])
    private let closings = DispatchSemaphore(value: 0)

    var current: Counts { counts.withLock { $0 } }
    var accessRecords: [HTTPAccessRecord] { records.withLock { $0 } }

    func connectionOpened() { counts.withLock { $0.opened += 1 } }
    func connectionClosed() {
        counts.withLock { $0.closed += 1 }
        closings.signal()
    }

    /// Waits until the server has closed a connection (at most 10 s); false if none closed.
    func waitForClosedConnection() -> Bool {
        closings.wait(timeout: .now() + 10) == .success
    }
    func responseSent(label: Int, status: Int, seconds: Double) { counts.withLock { $0.responses.append(status) } }
    var wantsAccessRecords: Bool { true }
    func accessRecord(_ record: HTTPAccessRecord) { records.withLock { $0.append(record) } }
}

/// A started server on 127.0.0.1, a free port, with `TestHandler` and `RecordingObserver`.
final class TestServer {
    let server: HTTPServer
    let handler = TestHandler()
    let observer = RecordingObserver()

    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configure(&configuration)
        server = HTTPServer(configuration: configuration, handler: handler, observer: observer)
        try server.start()
    }

    var port: Int { server.port }

    func client() throws -> TestClient {
        try TestClient(port: port)
    }

    /// Shuts down and waits for the drain to end.
    func stop() {
        server.shutdown()
        server.wait()
    }

    deinit {
        stop()
    }
}
