/// Something a client did that the server answers itself, with a status and a
/// one-line reason, and then closes the connection. The one place where
/// protocol errors become responses (`response`).
enum HTTPProtocolError: Error, Equatable, Sendable {
    /// RFC 9112 §3: not `method SP request-target SP HTTP-version`.
    case malformedRequestLine
    /// RFC 9112 §3.2: not origin-form, absolute-form, or `*` with `OPTIONS`.
    case invalidTarget
    /// RFC 9112 §2.3: a version this server does not speak (505).
    case unsupportedVersion
    /// RFC 9112 §3: the request line is longer than the limit (414).
    case requestLineTooLong(limit: Int)
    /// RFC 6585 §5: the header section is larger than the limit (431).
    case headerSectionTooLarge(limit: Int)
    /// RFC 6585 §5: more header lines than the limit (431).
    case tooManyHeaderLines(limit: Int)
    /// RFC 9112 §2.2: a CR not followed by LF, or an LF without its CR.
    case bareLineEnding
    /// RFC 9112 §5.2: a field line that starts with whitespace (obs-fold).
    case obsoleteLineFolding
    /// RFC 9112 §5.1: whitespace between a field name and its colon.
    case whitespaceBeforeColon
    /// RFC 9110 §5.1 and §5.5: a field line without a colon, a name that is not
    /// a token, or a value with a control character.
    case invalidHeaderField
    /// RFC 9112 §3.2: an HTTP/1.1 request without `Host`.
    case missingHost
    /// RFC 9112 §3.2: more than one `Host`.
    case multipleHosts
    /// RFC 9112 §3.2: a `Host` value that is not an authority.
    case invalidHost
    /// RFC 9112 §6.3: `Content-Length` that is not digits.
    case invalidContentLength
    /// RFC 9112 §6.3: several `Content-Length` values that differ.
    case conflictingContentLength
    /// RFC 9112 §6.1: both `Content-Length` and `Transfer-Encoding`.
    case contentLengthWithTransferEncoding
    /// RFC 9112 §6.1: a transfer coding other than a single `chunked`, or any
    /// `Transfer-Encoding` on HTTP/1.0.
    case unsupportedTransferEncoding
    /// RFC 9112 §7.1: a chunked body that breaks the chunk grammar.
    case invalidChunkedBody
    /// RFC 9110 §15.5.14: a body larger than the server reads (413).
    case bodyTooLarge(limit: Int)
    /// The head (and a body thrown away) did not arrive within the header timeout (408).
    case requestTimeout(seconds: Double)
    /// An accepted body did not arrive within the body timeout (408).
    case bodyTimeout(seconds: Double)
    /// The bodies the server holds already fill its upload budget (503).
    case uploadsBusy
    /// More open connections than the server takes (503).
    case tooManyConnections

    /// The status code of the answer.
    var status: Int {
        switch self {
        case .unsupportedVersion: 505
        case .requestLineTooLong: 414
        case .headerSectionTooLarge, .tooManyHeaderLines: 431
        case .bodyTooLarge: 413
        case .requestTimeout, .bodyTimeout: 408
        case .tooManyConnections, .uploadsBusy: 503
        default: 400
        }
    }

    /// The one-line reason sent as the body and given to access records.
    var reason: String {
        switch self {
        case .malformedRequestLine: "malformed request line: expected \"METHOD /target HTTP/1.1\" with single spaces"
        case .invalidTarget: "invalid request target: expected \"/path?query\", \"http://host/path\" or \"*\" with OPTIONS"
        case .unsupportedVersion: "HTTP version not supported: use HTTP/1.1 or HTTP/1.0"
        case .requestLineTooLong(let limit): "request line longer than \(limit) bytes"
        case .headerSectionTooLarge(let limit): "header section larger than \(limit) bytes"
        case .tooManyHeaderLines(let limit): "more than \(limit) header lines"
        case .bareLineEnding: "lines must end with CRLF (bare CR or LF)"
        case .obsoleteLineFolding: "header line starts with whitespace (obsolete line folding)"
        case .whitespaceBeforeColon: "whitespace between header name and colon"
        case .invalidHeaderField: "malformed header line"
        case .missingHost: "HTTP/1.1 request without a Host header"
        case .multipleHosts: "more than one Host header"
        case .invalidHost: "invalid Host header"
        case .invalidContentLength: "invalid Content-Length"
        case .conflictingContentLength: "conflicting Content-Length headers"
        case .contentLengthWithTransferEncoding: "Content-Length together with Transfer-Encoding"
        case .unsupportedTransferEncoding: "unsupported Transfer-Encoding: only chunked, on HTTP/1.1"
        case .invalidChunkedBody: "malformed chunked body"
        case .bodyTooLarge(let limit):
            "request body larger than \(limit) bytes" + (limit >= 1 << 20 && limit % (1 << 20) == 0 ? " (\(limit >> 20) MiB)" : "")
        case .requestTimeout(let seconds): "request not received within \(seconds.formatted) s"
        case .bodyTimeout(let seconds): "request body not received within \(seconds.formatted) s"
        case .uploadsBusy: "too many uploads in progress; retry later"
        case .tooManyConnections: "too many connections; retry later"
        }
    }

    /// The server's answer: `text/plain`, `no-store`, the reason as body.
    /// (`Connection: close` is added when it is sent.)
    var response: PreparedResponse {
        var headers = [
            HTTPHeaderField("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeaderField("Cache-Control", "no-store"),
        ]
        if status == 503 { headers.append(HTTPHeaderField("Retry-After", "1")) }
        return PreparedResponse(HTTPResponse(status: status, headers: headers, body: Array((reason + "\n").utf8)))
    }
}

extension Double {
    /// `10` for 10.0, `2.5` for 2.5.
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
