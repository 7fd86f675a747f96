import Foundation

/// A scripted HTTP/1.1 origin for tests that fetch: it listens on 127.0.0.1
/// (or `::1`) on a free port, answers each path as the test scripted it,
/// records every connection and request it receives, and stops when told or
/// when it is released (`stop`, `deinit`), ending every connection.
///
/// Nothing in it depends on timing: a response `.whenReleased` starts when
/// the test calls `release`, one that `.never` starts waits until the origin
/// stops, and tests wait for events (`waitForRequests`), not for time.
/// Connections are served on a thread each (at most `maxConnections` at once;
/// more are closed unanswered), kept alive between requests, and end when
/// the client closes, after 30 s without a byte, or when the origin stops.
public final class LoopbackOrigin: @unchecked Sendable {
    /// The loopback address to listen on.
    public enum Address: Sendable {
        case ipv4
        case ipv6
    }

    /// A scripted answer.
    public struct Response: Sendable {
        /// When the answer starts.
        public enum Start: Sendable {
            case immediately
            /// When the test has called `release` once for it (one release lets one held answer go, any one).
            case whenReleased
            /// Not before the origin stops (a source that never answers).
            case never
        }

        /// Instead of answering, once the answer may start.
        public enum HangUp: Sendable {
            /// Close the connection (the client reads an end of file).
            case close
            /// Reset the connection (the client reads ECONNRESET).
            case reset
        }

        /// How the body is framed.
        public enum Framing: Sendable, Equatable {
            /// `Content-Length` of the body's bytes.
            case contentLength
            /// `Content-Length` of this many bytes, whatever the body (say, more than is sent).
            case declaredLength(Int)
            /// `Transfer-Encoding: chunked`, one chunk per part.
            case chunked
        }

        public var status: Int
        /// Header lines as sent, `Name: value` (framing headers are added).
        public var headers: [String]
        /// The body, sent part by part.
        public var parts: [[UInt8]]
        public var framing: Framing
        public var start: Start
        /// After the last part, send nothing more (no final chunk) and keep the connection open until the origin stops.
        public var hangsAfterBody: Bool
        /// Hang up instead of answering.
        public var hangUp: HangUp?

        public init(
            status: Int = 200, headers: [String] = [], parts: [[UInt8]] = [], framing: Framing = .contentLength,
            start: Start = .immediately, hangsAfterBody: Bool = false, hangUp: HangUp? = nil
        ) {
            self.status = status
            self.headers = headers
            self.parts = parts
            self.framing = framing
            self.start = start
            self.hangsAfterBody = hangsAfterBody
            self.hangUp = hangUp
        }

        /// A status with `body` and headers.
        public static func status(_ status: Int, _ body: [UInt8] = [], headers: [String] = []) -> Response {
            Response(status: status, headers: headers, parts: [body])
        }

        /// A `200` with `body` and headers.
        public static func ok(_ body: [UInt8], headers: [String] = []) -> Response {
            status(200, body, headers: headers)
        }

        /// A redirect to `location` (sent as given: relative or absolute).
        public static func redirect(_ status: Int = 302, to location: String) -> Response {
            Response(status: status, headers: ["Location: \(location)"])
        }

        /// An answer that never comes.
        public static let never = Response(start: .never)

        /// No answer: the connection is closed (`.close`) or reset (`.reset`).
        public static func hangUp(_ how: HangUp) -> Response {
            Response(hangUp: how)
        }

        /// A `200` with `body`, sent when the test releases it.
        public static func held(_ body: [UInt8] = []) -> Response {
            Response(parts: [body], start: .whenReleased)
        }
    }

    /// A request as received.
    public struct Request: Sendable {
        public var method: String
        /// The request target: path and query.
        public var target: String
        /// Header fields in order, names lower-cased.
        public var headers: [(name: String, value: String)]
        /// How many times `release` had been called when this request arrived.
        public var releasesBefore: Int

        /// The target without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The first value of a header (name in any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }
    }

    /// The most connections served at once.
    public static let maxConnections = 64

    public let port: Int
    /// The host as it goes in a URL: `127.0.0.1` or `[::1]`.
    public let host: String
    private let state: OriginState

    /// An origin listening on a free port of `address`; unknown paths get a `404`.
    public init(_ address: Address = .ipv4) throws {
        let listener = try Self.listen(on: address)
        var bound = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        // sin_port and sin6_port are at the same offset.
        port = Int(UInt16(bigEndian: bound.sin6_port))
        host = address == .ipv4 ? "127.0.0.1" : "[::1]"
        state = OriginState(listener: listener)
        let state = self.state
        state.startThread { state.acceptConnections() }
    }

    deinit {
        state.stop()
    }

    /// `http://host:port` followed by `path` (which starts with `/`).
    public func url(_ path: String) -> String {
        "http://\(host):\(port)\(path)"
    }

    /// Answers requests for `path` (the target without its query) with `response` from now on.
    public func respond(to path: String, with response: Response) {
        state.locked { $0.responses[path] = response }
    }

    /// Every request received so far, in order of arrival.
    public var requests: [Request] { state.locked { $0.requests } }

    /// How many connections were accepted so far.
    public var connections: Int { state.locked { $0.connections } }

    /// Lets `count` held answers (`.whenReleased`) go, now or when they arrive.
    public func release(_ count: Int = 1) {
        state.locked { $0.releases += count }
    }

    /// Waits until at least `count` requests have arrived; false if they have
    /// not within `limitSeconds` (a bound on a broken test, not a timing).
    public func waitForRequests(_ count: Int, limitSeconds: Double = 30) -> Bool {
        state.wait(until: Date() + limitSeconds) { $0.requests.count >= count }
    }

    /// Closes every connection and the listener, and waits for the threads to end.
    public func stop() {
        state.stop()
    }

    private static func listen(on address: Address) throws -> Int32 {
        let family = address == .ipv4 ? AF_INET : AF_INET6
        let listener = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ServerProcessError(message: "socket failed: errno \(errno)") }
        let status: Int32
        if address == .ipv4 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_addr = in6addr_loopback
            status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard status == 0, Glibc.listen(listener, 128) == 0 else {
            let code = errno
            close(listener)
            throw ServerProcessError(message: "cannot listen on loopback: errno \(code)")
        }
        return listener
    }
}

/// What the origin's threads share, under one condition.
private final class OriginState: @unchecked Sendable {
    struct Shared {
        var responses: [String: LoopbackOrigin.Response] = [:]
        var requests: [LoopbackOrigin.Request] = []
        var connections = 0
        var releases = 0
        var releasesTaken = 0
        var clients: Set<Int32> = []
        var threads = 0
        var listening = true
        var stopped = false
    }

    private let condition = NSCondition()
    private var shared = Shared()
    private let listener: Int32

    init(listener: Int32) {
        self.listener = listener
    }

    func locked<Result>(_ body: (inout Shared) -> Result) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body(&shared)
    }

    /// Waits until `isDone` holds or `limit` passes; whether it holds.
    func wait(until limit: Date, _ isDone: (Shared) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isDone(shared) {
            guard condition.wait(until: limit) else { return isDone(shared) }
        }
        return true
    }

    /// Runs `body` on a thread of its own, counted so that `stop` can wait for it.
    func startThread(_ body: @escaping @Sendable () -> Void) {
        locked { $0.threads += 1 }
        Thread.detachNewThread { [self] in
            body()
            locked { $0.threads -= 1 }
        }
    }

    /// Wakes the accept loop and every blocked read, write and hold, and waits for their threads.
    /// (Sockets are shut down under the lock, before their threads can close them.)
    func stop() {
        locked { shared in
            guard !shared.stopped else { return }
            shared.stopped = true
            if shared.listening { shutdown(listener, Int32(SHUT_RDWR)) }
            for client in shared.clients {
                shutdown(client, Int32(SHUT_RDWR))
            }
        }
        _ = wait(until: Date() + 30) { $0.threads == 0 }
    }

    func acceptConnections() {
        defer {
            locked { shared in
                shared.listening = false
                close(listener)
            }
        }
        while true {
            let client = accept(listener, nil, nil)
            let acceptError = errno
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            let (accepted, stopped) = locked { shared -> (Bool, Bool) in
                guard client >= 0, !shared.stopped else { return (false, shared.stopped) }
                shared.connections += 1
                guard shared.clients.count < LoopbackOrigin.maxConnections else { return (false, false) }
                shared.clients.insert(client)
                return (true, false)
            }
            guard accepted else {
                if client >= 0 { close(client) }
                if stopped || (client < 0 && acceptError != EINTR && acceptError != ECONNABORTED) { return }
                continue
            }
            startThread { [self] in serve(client) }
        }
    }

    /// Reads requests on `client` and answers them as scripted, until either side closes.
    private func serve(_ client: Int32) {
        defer {
            locked { _ = $0.clients.remove(client) }
            close(client)
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        while let head = readHead(client, &buffer) {
            // Not HTTP (say, a TLS ClientHello): a 400, and the connection closes.
            guard let first = head.first, (65...90).contains(first), let request = parse(head) else {
                _ = send(client, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                return
            }
            let response = locked { shared -> LoopbackOrigin.Response in
                var request = request
                request.releasesBefore = shared.releases
                shared.requests.append(request)
                return shared.responses[request.path] ?? .status(404, Array("no such path\n".utf8))
            }
            guard waitToStart(response.start), answer(client, response) else { return }
            if request.header("connection")?.lowercased() == "close" { return }
        }
    }

    /// Waits until a response may start; false if the origin stopped first.
    private func waitToStart(_ start: LoopbackOrigin.Response.Start) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !shared.stopped {
            switch start {
            case .immediately:
                return true
            case .whenReleased where shared.releases > shared.releasesTaken:
                shared.releasesTaken += 1
                return true
            case .whenReleased, .never:
                condition.wait()
            }
        }
        return false
    }

    /// Sends a response; false when the connection must end.
    private func answer(_ client: Int32, _ response: LoopbackOrigin.Response) -> Bool {
        switch response.hangUp {
        case .close:
            return false
        case .reset:
            // A zero linger makes close send RST.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            return false
        case nil:
            break
        }
        let body = response.parts.flatMap { $0 }
        var head = "HTTP/1.1 \(response.status) Scripted\r\n" + response.headers.map { $0 + "\r\n" }.joined()
        switch response.framing {
        case .contentLength: head += "Content-Length: \(body.count)\r\n"
        case .declaredLength(let length): head += "Content-Length: \(length)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        }
        guard send(client, Array((head + "\r\n").utf8)) else { return false }
        for part in response.parts where !part.isEmpty {
            let framed = response.framing == .chunked ? Array((String(part.count, radix: 16) + "\r\n").utf8) + part + [13, 10] : part
            guard send(client, framed) else { return false }
        }
        if response.hangsAfterBody {
            _ = waitToStart(.never)
            return false
        }
        if response.framing == .chunked {
            return send(client, Array("0\r\n\r\n".utf8))
        }
        return true
    }

    /// The next request head (through its blank line) from `buffer` and the
    /// socket, the rest kept in `buffer`; nil when the connection ends first.
    private func readHead(_ client: Int32, _ buffer: inout [UInt8]) -> [UInt8]? {
        let end: [UInt8] = [13, 10, 13, 10]
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            if let start = buffer.indices.dropLast(3).first(where: { buffer[$0..<$0 + 4].elementsEqual(end) }) {
                let head = Array(buffer[..<start])
                buffer.removeFirst(start + 4)
                return head
            }
            // Not an HTTP request head: answer what arrived (the caller sends a 400).
            if let first = buffer.first, !(65...90).contains(first) { return buffer }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    private func parse(_ head: [UInt8]) -> LoopbackOrigin.Request? {
        var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return LoopbackOrigin.Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, releasesBefore: 0)
    }

    /// Sends all of `bytes`; false if the connection broke.
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

