/// The request methods the server tells apart.
public enum HTTPMethod: Hashable, Sendable {
    case get
    case head
    /// Any other syntactically valid method, as sent.
    case other(String)
}

/// `HTTP/1.0` or `HTTP/1.1`: the only versions the server accepts.
public struct HTTPVersion: Hashable, Sendable {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
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
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var version: HTTPVersion
    /// The target's path, still percent-encoded (`/indicator@2x.png`).
    public var path: String
    /// The target's query without the `?`, still percent-encoded; empty when absent.
    public var query: String
    /// The header lines in the order received.
    public var headers: [HTTPHeaderField]

    public init(method: HTTPMethod, version: HTTPVersion, path: String, query: String, headers: [HTTPHeaderField]) {
        self.method = method
        self.version = version
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A response as a handler builds it. The server adds `Date`,
/// `Content-Length` (except for 304) and `Connection` itself.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeaderField]
    public var body: [UInt8]
    /// A number the server hands back to `HTTPServerObserver.responseSent`
    /// (e.g. a route for metrics); 0 for the responses the server makes itself.
    public var label: Int

    public init(status: Int, headers: [HTTPHeaderField] = [], body: [UInt8] = [], label: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.label = label
    }
}
