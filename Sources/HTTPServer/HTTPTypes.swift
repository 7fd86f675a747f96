/// The request methods the server tells apart.
public enum HTTPMethod: Hashable, Sendable {
    case get
    case head
    case post
    /// Any other syntactically valid method, as sent (methods are case-sensitive).
    case other(String)

    /// The method as it appears on the request line.
    public var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .other(let name): name
        }
    }
}

/// `HTTP/1.0` or `HTTP/1.1`: the only versions the server accepts.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// One header line: a name and its value, without surrounding whitespace.
public struct HTTPHeaderField: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A parsed request head. The server has already enforced the limits and
/// RFC 9112's rules; what reaches a handler is well formed.
///
/// The header section is kept as the bytes received and searched only when a
/// handler asks for a field, so requests cost no work for headers nobody reads.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var version: HTTPVersion
    /// The target's path, still percent-encoded (`/indicator@2x.png`). For an
    /// absolute-form target (`http://host/p`) the path part (`/p`); `*` for `OPTIONS *`.
    public var path: String
    /// The target's query without the `?`, still percent-encoded; empty when absent.
    public var query: String
    /// The header section as received: field lines, each ending in CRLF.
    var fieldBytes: [UInt8]
    /// The IP address of the connection's peer, network order: 4 bytes for
    /// IPv4, 16 for IPv6; empty for a request that came from no socket.
    public var peerAddress: [UInt8] = []

    public init(method: HTTPMethod, version: HTTPVersion, path: String, query: String, headers: [HTTPHeaderField]) {
        self.init(method: method, version: version, path: path, query: query, fieldBytes: HTTPRequest.serialize(headers))
    }

    init(method: HTTPMethod, version: HTTPVersion, path: String, query: String, fieldBytes: [UInt8]) {
        self.method = method
        self.version = version
        self.path = path
        self.query = query
        self.fieldBytes = fieldBytes
    }

    /// The header lines in the order received.
    public var headers: [HTTPHeaderField] {
        get {
            var fields: [HTTPHeaderField] = []
            forEachField { name, value in
                fields.append(HTTPHeaderField(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                return false
            }
            return fields
        }
        set { fieldBytes = HTTPRequest.serialize(newValue) }
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        var value: String?
        withHeader(name) { bytes in value = bytes.map { String(decoding: $0, as: UTF8.self) } }
        return value
    }

    /// Calls `body` once, with the bytes of the first header named `name`
    /// (case-insensitive), trimmed, or with nil when there is none. Copies
    /// nothing; the bytes are valid only inside `body`. (Not generic, so that
    /// a caller in another module pays no generic instantiation per call.)
    public func withHeader(_ name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        var wanted = name
        let found = wanted.withUTF8 { wantedName in
            var found = false
            forEachField { fieldName, value in
                guard ASCII.equalsIgnoringCase(fieldName, wantedName) else { return false }
                body(value)
                found = true
                return true
            }
            return found
        }
        if !found { body(nil) }
    }

    /// The trimmed values of every field line named `name` (case-insensitive),
    /// in the order received: a list field sent on several lines is one list
    /// (RFC 9110 §5.3). Copies only the values it returns.
    public func fieldValues(_ name: String) -> [Substring] {
        var wanted = name
        return wanted.withUTF8 { wantedName in
            var values: [Substring] = []
            forEachField { fieldName, value in
                if ASCII.equalsIgnoringCase(fieldName, wantedName) {
                    values.append(Substring(decoding: value, as: UTF8.self))
                }
                return false
            }
            return values
        }
    }

    /// Calls `body` with each field's name and trimmed value until it returns true.
    private func forEachField(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        fieldBytes.withUnsafeBufferPointer { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != ASCII.lf { lineEnd += 1 }
                let next = lineEnd + 1
                if lineEnd > lineStart, bytes[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
                var colon = lineStart
                while colon < lineEnd, bytes[colon] != ASCII.colon { colon += 1 }
                if colon < lineEnd {
                    let name = UnsafeBufferPointer(rebasing: bytes[lineStart..<colon])
                    let value = ASCII.trimmingWhitespace(UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<lineEnd]))
                    if body(name, value) { return }
                }
                lineStart = next
            }
        }
    }

    private static func serialize(_ headers: [HTTPHeaderField]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in headers {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        return bytes
    }
}

/// A response as a handler builds it. The server adds `Date`,
/// `Content-Length` (except for 1xx, 204 and 304) and `Connection` itself.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeaderField]
    public var body: [UInt8]
    /// A body sent from a file instead, read as the client takes it; `body`
    /// is then empty.
    public var bodyFile: HTTPBodyFile?
    /// A number the server hands back to `HTTPServerObserver.responseSent`
    /// (e.g. a route for metrics); 0 for the responses the server makes itself.
    public var label: Int

    public init(status: Int, headers: [HTTPHeaderField] = [], body: [UInt8] = [], label: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.label = label
    }

    /// A response whose body is `bodyFile`'s.
    public init(status: Int, headers: [HTTPHeaderField] = [], bodyFile: HTTPBodyFile, label: Int = 0) {
        self.init(status: status, headers: headers, label: label)
        self.bodyFile = bodyFile
    }
}
