/// A response serialised once (status line and headers, body kept beside
/// them) so that it can be sent many times, e.g. from a cache.
///
/// The head holds the status line, the handler's headers and `Content-Length`
/// (left out for 1xx, 204 and 304, which have no body). Headers the server
/// owns — `Content-Length`, `Date`, `Connection`, `Transfer-Encoding`,
/// `Keep-Alive` — are dropped from `HTTPResponse.headers`; CR, LF and NUL in
/// names or values become spaces, so a header cannot split the response.
public final class PreparedResponse: Sendable {
    public let status: Int
    public let label: Int
    /// Bytes held: serialised head plus body (a body file's bytes are not held).
    public let byteCount: Int
    /// `HTTP/1.1 200 OK\r\n`, header lines with CRLF; no blank line yet.
    let head: [UInt8]
    /// Empty when the status allows no body, or when the body is `bodyFile`'s.
    let body: [UInt8]
    /// The body, when it is sent from a file (and the status allows one).
    let bodyFile: HTTPBodyFile?

    public init(_ response: HTTPResponse) {
        status = response.status
        label = response.label
        let hasBody = PreparedResponse.allowsBody(status: response.status)
        var head: [UInt8] = []
        head.reserveCapacity(64 + response.headers.count * 40)
        head.append(contentsOf: "HTTP/1.1 ".utf8)
        head.append(contentsOf: String(response.status).utf8)
        head.append(ASCII.space)
        head.append(contentsOf: PreparedResponse.reasonPhrase(for: response.status).utf8)
        head.append(contentsOf: "\r\n".utf8)
        for field in response.headers where !PreparedResponse.isServerOwned(field.name) {
            head.appendHeaderLine(field)
        }
        if hasBody {
            head.appendHeaderLine(HTTPHeaderField("Content-Length", String(response.bodyFile?.count ?? response.body.count)))
        }
        self.head = head
        body = hasBody && response.bodyFile == nil ? response.body : []
        bodyFile = hasBody ? response.bodyFile : nil
        byteCount = head.count + body.count
    }

    /// The body's length, wherever it is kept.
    var bodyCount: Int { bodyFile?.count ?? body.count }

    /// RFC 9110 §6.4.1: 1xx, 204 and 304 responses end with their header section.
    static func allowsBody(status: Int) -> Bool {
        !(100...199).contains(status) && status != 204 && status != 304
    }

    /// The headers the server writes itself, lowercase.
    private static let serverOwnedNames = ["content-length", "date", "connection", "transfer-encoding", "keep-alive"]

    private static func isServerOwned(_ name: String) -> Bool {
        serverOwnedNames.contains { ASCII.equalsIgnoringCase(name.utf8, $0.utf8) }
    }

    /// The standard reason phrase (RFC 9110 §15), or empty for an unknown status.
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}

/// How a response ends its head: what `Connection` says.
enum ConnectionDisposition {
    /// HTTP/1.1 keep-alive: no `Connection` header.
    case keepAlive
    /// HTTP/1.0 keep-alive: `Connection: keep-alive`.
    case keepAliveHTTP10
    /// `Connection: close`, then the server closes.
    case close
}

extension ByteBuffer {
    /// Appends a whole response as it goes on the wire: the prepared head, the
    /// extra headers, `Date`, `Connection` when needed, the blank line, and the
    /// body unless `includeBody` is false (HEAD); a body file's bytes are
    /// left for the caller to append as they are sent.
    mutating func appendResponse(
        _ response: PreparedResponse, extraHeaders: [HTTPHeaderField], dateLine: [UInt8],
        disposition: ConnectionDisposition, includeBody: Bool
    ) {
        append(response.head)
        for field in extraHeaders { appendHeaderLine(field) }
        append(dateLine)
        switch disposition {
        case .keepAlive: break
        case .keepAliveHTTP10: append("Connection: keep-alive\r\n")
        case .close: append("Connection: close\r\n")
        }
        append("\r\n")
        if includeBody {
            append(response.body)
        }
    }
}

extension [UInt8] {
    /// Appends `Name: value\r\n`, with CR, LF and NUL turned into spaces.
    mutating func appendHeaderLine(_ field: HTTPHeaderField) {
        appendNeutralized(field.name.utf8)
        append(ASCII.colon)
        append(ASCII.space)
        appendNeutralized(field.value.utf8)
        append(ASCII.cr)
        append(ASCII.lf)
    }

    /// Appends `text` whole (one copy), then turns CR, LF and NUL in what was appended into spaces.
    private mutating func appendNeutralized(_ text: String.UTF8View) {
        let start = count
        append(contentsOf: text)
        for index in start..<count where self[index] == ASCII.cr || self[index] == ASCII.lf || self[index] == 0 {
            self[index] = ASCII.space
        }
    }
}
