import Foundation

/// A response as the test client read it.
public struct TestResponse: Sendable {
    public var status: Int
    public var statusLine: String
    /// Header names lowercased, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// The first value of a header (name case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking HTTP/1.1 client on one loopback connection, for tests: sends
/// raw bytes and reads responses framed by `Content-Length`.
public final class HTTPTestClient {
    private let socket: Int32
    private var buffer: [UInt8] = []

    public init(port: Int) throws {
        socket = try connectToLoopback(port: port)
    }

    deinit { close(socket) }

    /// Sends text as it is.
    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Sends bytes as they are.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Sends a request for `target` with a `Host` header and `headers`.
    public func request(_ target: String, method: String = "GET", headers: [String] = []) {
        send("\(method) \(target) HTTP/1.1\r\nHost: test\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
    }

    /// Reads one response; `bodyless` for answers to HEAD (no body whatever the length).
    public func readResponse(bodyless: Bool = false) throws -> TestResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw ServerProcessError(message: "bad status line: \(statusLine)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = TestResponse(status: status, statusLine: statusLine, headers: headers, body: [])
        if !bodyless, status != 304, let length = response.header("content-length").flatMap(Int.init) {
            try fill(length)
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return response
    }

    /// Reads until the server closes; true if it did (and sent nothing more).
    public func readUntilClosed() -> Bool {
        while true {
            guard let count = try? readMore() else { return false }
            if count == 0 { return buffer.isEmpty }
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if buffer.count >= marker.count {
                for start in 0...(buffer.count - marker.count) where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
            }
            guard try readMore() > 0 else { throw ServerProcessError(message: "connection closed before a response") }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try readMore() > 0 else { throw ServerProcessError(message: "connection closed inside a body") }
        }
    }

    private func readMore() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw ServerProcessError(message: "read failed: errno \(errno)") }
        buffer += chunk[..<count]
        return count
    }
}
