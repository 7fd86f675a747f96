#if canImport(Glibc)
import Glibc
#endif

/// How the body after a request head is delimited (RFC 9112 §6.3).
enum BodyFraming: Equatable, Sendable {
    case none
    case length(Int)
    case chunked
}

/// A request head that passed every check.
struct ParsedHead {
    var request: HTTPRequest
    /// Bytes the head occupies, from its first byte to its final CRLF inclusive.
    var length: Int
    var framing: BodyFraming
    /// Whether the client lets the connection stay open after the response
    /// (RFC 9112 §9.3: HTTP/1.1 unless `close`; HTTP/1.0 only with `keep-alive`).
    var keepAlive: Bool
    /// `Expect: 100-continue` (RFC 9110 §10.1.1) on an HTTP/1.1 request.
    var expectsContinue: Bool
}

/// An incremental parser of one request head (RFC 9112 §2–§5), fed the head's
/// bytes as they arrive, in any chunking.
///
/// Each call to `parse` gets all the bytes received so far from the head's
/// first byte on (and maybe more after it); the parser remembers how far it
/// looked, so every byte is examined once. Lines must end in CRLF: RFC 9112
/// §2.2 lets a recipient accept a bare LF, but this parser rejects it (400),
/// because a proxy in front that splits lines differently would see other
/// header boundaries than the server (request smuggling). Empty lines before
/// the request line are skipped (§2.2).
struct RequestHeadParser {
    /// The sizes beyond which a head is refused.
    struct Limits: Sendable {
        /// Longest request line, CRLF not counted (414 beyond).
        var maxRequestLineBytes: Int
        /// Largest header section: field lines with their CRLFs (431 beyond).
        var maxHeaderBytes: Int
        /// Most field lines (431 beyond).
        var maxHeaderLines: Int
    }

    /// What `parse` found. A plain value: a complete head is taken with
    /// `head(in:)`, so that the request is made once and never copied here.
    enum Result {
        case incomplete
        case complete
        case invalid(HTTPProtocolError)
    }

    let limits: Limits

    /// Where the line being read starts.
    private var lineStart = 0
    /// Everything before this was searched for LF.
    private var scanned = 0
    /// Where the field lines start; nil while reading the request line.
    private var fieldsStart: Int?
    private var fieldLines = 0
    private var requestLine = RequestLine()
    private var fields = FieldFacts()
    /// Where the head ends (after its blank line), once it is complete.
    private var headEnd: Int?

    init(limits: Limits) {
        self.limits = limits
    }

    /// Forgets the head parsed, ready for the next one.
    mutating func reset() {
        self = RequestHeadParser(limits: limits)
    }

    /// Examines `bytes`: the head from its first byte on, as received so far.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        while let lf = findLineFeed(in: bytes, from: scanned) {
            scanned = lf + 1
            guard lf > lineStart, bytes[lf - 1] == ASCII.cr else { return .invalid(.bareLineEnding) }
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<(lf - 1)])
            let lineOffset = lineStart
            lineStart = scanned
            guard let fieldsStart else {
                if line.isEmpty { continue }
                guard line.count <= limits.maxRequestLineBytes else {
                    return .invalid(.requestLineTooLong(limit: limits.maxRequestLineBytes))
                }
                if let error = requestLine.parse(line, at: lineOffset) { return .invalid(error) }
                self.fieldsStart = scanned
                continue
            }
            if line.isEmpty { return finish(headEnd: scanned) }
            fieldLines += 1
            guard fieldLines <= limits.maxHeaderLines else {
                return .invalid(.tooManyHeaderLines(limit: limits.maxHeaderLines))
            }
            guard scanned - fieldsStart <= limits.maxHeaderBytes else {
                return .invalid(.headerSectionTooLarge(limit: limits.maxHeaderBytes))
            }
            if let error = fields.parse(line) { return .invalid(error) }
        }
        scanned = bytes.count
        return checkPartialLine(bytes)
    }

    private func findLineFeed(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        guard offset < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + offset, Int32(ASCII.lf), bytes.count - offset)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Applies the limits to a line whose LF has not arrived, so that a client
    /// cannot make the server buffer an endless line.
    private func checkPartialLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        let partial = bytes.count - lineStart
        let endsInCR = partial > 0 && bytes[bytes.count - 1] == ASCII.cr
        // The line's length without its CRLF is at least this:
        let contentAtLeast = endsInCR ? partial - 1 : partial
        guard let fieldsStart else {
            if contentAtLeast > limits.maxRequestLineBytes {
                return .invalid(.requestLineTooLong(limit: limits.maxRequestLineBytes))
            }
            return .incomplete
        }
        // An empty line so far may be the end of the head, which is not a field line.
        guard contentAtLeast > 0 else { return .incomplete }
        if fieldLines + 1 > limits.maxHeaderLines {
            return .invalid(.tooManyHeaderLines(limit: limits.maxHeaderLines))
        }
        if lineStart - fieldsStart + contentAtLeast + 2 > limits.maxHeaderBytes {
            return .invalid(.headerSectionTooLarge(limit: limits.maxHeaderBytes))
        }
        return .incomplete
    }

    /// The checks that need the whole head (RFC 9112 §3.2, §6.1, §6.3).
    private mutating func finish(headEnd: Int) -> Result {
        let version = requestLine.version
        if fields.hostCount == 0, version == .http1_1 { return .invalid(.missingHost) }
        if fields.hostCount > 1 { return .invalid(.multipleHosts) }
        if fields.chunked {
            if fields.contentLength != nil { return .invalid(.contentLengthWithTransferEncoding) }
            if version == .http1_0 { return .invalid(.unsupportedTransferEncoding) }
        }
        self.headEnd = headEnd
        return .complete
    }

    /// The head that `parse` found complete, its request made from `bytes`
    /// (the bytes `parse` was given, or more of them).
    func head(in bytes: UnsafeBufferPointer<UInt8>) -> ParsedHead {
        guard let headEnd, let fieldsStart else { preconditionFailure("head(in:) before a complete head") }
        let version = requestLine.version
        let framing: BodyFraming =
            fields.chunked ? .chunked : (fields.contentLength ?? 0) > 0 ? .length(fields.contentLength ?? 0) : .none
        let keepAlive = !fields.connectionClose && (version == .http1_1 || fields.connectionKeepAlive)
        let request = HTTPRequest(
            method: RequestLine.method(UnsafeBufferPointer(rebasing: bytes[requestLine.method])),
            version: version,
            // Only an absolute-form target (`http://host`) can have an empty path.
            path: requestLine.path.isEmpty ? "/" : String(decoding: bytes[requestLine.path], as: UTF8.self),
            query: String(decoding: bytes[requestLine.query], as: UTF8.self),
            fieldBytes: Array(bytes[fieldsStart..<(headEnd - 2)])
        )
        return ParsedHead(
            request: request, length: headEnd, framing: framing, keepAlive: keepAlive,
            expectsContinue: fields.expectsContinue && version == .http1_1
        )
    }
}

/// The request line, once parsed (RFC 9112 §3): where its parts are in the
/// head's bytes. Plain offsets, not strings, so that the parser copies and
/// resets without reference counting; the strings are made once, with the request.
private struct RequestLine {
    var method = 0..<0
    var version = HTTPVersion.http1_1
    /// The target's path (`*` for `OPTIONS *`; empty for an absolute-form target without one).
    var path = 0..<0
    /// The target's query, without its `?`; empty when absent.
    var query = 0..<0

    /// Parses `method SP request-target SP HTTP-version`, the line starting
    /// at `offset` in the head; nil when valid.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) -> HTTPProtocolError? {
        guard let firstSpace = line.firstIndex(of: ASCII.space) else { return .malformedRequestLine }
        let methodBytes = line[..<firstSpace]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(ASCII.isTokenChar) else { return .malformedRequestLine }
        guard let secondSpace = line[(firstSpace + 1)...].firstIndex(of: ASCII.space) else { return .malformedRequestLine }
        let target = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let versionBytes = line[(secondSpace + 1)...]
        // HTTP-version = "HTTP/" DIGIT "." DIGIT (§2.3): exactly 8 bytes.
        guard versionBytes.count == 8, ASCII.equals(UnsafeBufferPointer(rebasing: versionBytes.prefix(5)), "HTTP/"),
              ASCII.isDigit(line[secondSpace + 6]), line[secondSpace + 7] == UInt8(ascii: "."),
              ASCII.isDigit(line[secondSpace + 8])
        else { return .malformedRequestLine }
        version = HTTPVersion(major: Int(line[secondSpace + 6] - 0x30), minor: Int(line[secondSpace + 8] - 0x30))
        guard version == .http1_1 || version == .http1_0 else { return .unsupportedVersion }
        method = offset..<(offset + firstSpace)
        return parseTarget(target, isOptions: ASCII.equals(UnsafeBufferPointer(rebasing: methodBytes), "OPTIONS"), at: offset + firstSpace + 1)
    }

    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if ASCII.equals(bytes, "GET") { return .get }
        if ASCII.equals(bytes, "HEAD") { return .head }
        if ASCII.equals(bytes, "POST") { return .post }
        return .other(String(decoding: bytes, as: UTF8.self))
    }

    /// origin-form, absolute-form (`http://` or `https://`), or `*` for OPTIONS
    /// (§3.2); `target` starts at `offset` in the head.
    private mutating func parseTarget(_ target: UnsafeBufferPointer<UInt8>, isOptions: Bool, at offset: Int) -> HTTPProtocolError? {
        guard !target.isEmpty, target.allSatisfy(ASCII.isTargetChar) else { return .invalidTarget }
        if target[0] == ASCII.slash {
            splitPathAndQuery(target, at: offset)
            return nil
        }
        if target.count == 1, target[0] == UInt8(ascii: "*") {
            guard isOptions else { return .invalidTarget }
            path = offset..<(offset + 1)
            return nil
        }
        for scheme in ["http://", "https://"] where target.count >= scheme.utf8.count
            && ASCII.equalsIgnoringCase(target.prefix(scheme.utf8.count), scheme.utf8) {
            let rest = target[scheme.utf8.count...]
            let authorityEnd = rest.firstIndex { $0 == ASCII.slash || $0 == ASCII.question } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            guard !authority.isEmpty, authority.allSatisfy(ASCII.isAuthorityChar) else { return .invalidTarget }
            splitPathAndQuery(UnsafeBufferPointer(rebasing: rest[authorityEnd...]), at: offset + authorityEnd)
            return nil
        }
        return .invalidTarget
    }

    /// Notes the path and the query of `bytes`, which start at `offset` in the head.
    private mutating func splitPathAndQuery(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        let question = bytes.firstIndex(of: ASCII.question)
        path = offset..<(offset + (question ?? bytes.count))
        query = question.map { (offset + $0 + 1)..<(offset + bytes.count) } ?? 0..<0
    }
}

/// What the header fields say about framing and the connection.
private struct FieldFacts {
    var hostCount = 0
    var contentLength: Int?
    var chunked = false
    var connectionClose = false
    var connectionKeepAlive = false
    var expectsContinue = false

    /// Checks one field line (RFC 9112 §5, RFC 9110 §5) and notes the fields
    /// the server acts on; nil when valid.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> HTTPProtocolError? {
        if ASCII.isWhitespace(line[0]) { return .obsoleteLineFolding }
        var colon = 0
        while colon < line.count, ASCII.isTokenChar(line[colon]) { colon += 1 }
        guard colon < line.count, line[colon] == ASCII.colon else {
            if colon > 0, colon < line.count, ASCII.isWhitespace(line[colon]),
               line[colon...].drop(while: ASCII.isWhitespace).first == ASCII.colon {
                return .whitespaceBeforeColon
            }
            return .invalidHeaderField
        }
        guard colon > 0 else { return .invalidHeaderField }
        let rawValue = UnsafeBufferPointer(rebasing: line[(colon + 1)...])
        guard rawValue.allSatisfy(ASCII.isFieldValueChar) else { return .invalidHeaderField }
        return note(name: UnsafeBufferPointer(rebasing: line[..<colon]), value: ASCII.trimmingWhitespace(rawValue))
    }

    private mutating func note(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> HTTPProtocolError? {
        switch name.count {
        case 4 where ASCII.equalsIgnoringCase(name, "host"):
            hostCount += 1
            guard value.allSatisfy(ASCII.isAuthorityChar) else { return .invalidHost }
        case 6 where ASCII.equalsIgnoringCase(name, "expect"):
            expectsContinue = ASCII.equalsIgnoringCase(value, "100-continue")
        case 10 where ASCII.equalsIgnoringCase(name, "connection"):
            for option in value.split(separator: ASCII.comma) {
                let option = ASCII.trimmingWhitespace(UnsafeBufferPointer(rebasing: option))
                if ASCII.equalsIgnoringCase(option, "close") { connectionClose = true }
                if ASCII.equalsIgnoringCase(option, "keep-alive") { connectionKeepAlive = true }
            }
        case 14 where ASCII.equalsIgnoringCase(name, "content-length"):
            return noteContentLength(value)
        case 17 where ASCII.equalsIgnoringCase(name, "transfer-encoding"):
            // A second field line would make "chunked, chunked": chunked must be applied once (§6.1).
            guard !chunked, ASCII.equalsIgnoringCase(value, "chunked") else {
                return .unsupportedTransferEncoding
            }
            chunked = true
        default:
            break
        }
        return nil
    }

    /// `Content-Length = 1*DIGIT`; a list of equal values counts as one (RFC 9110 §8.6).
    private mutating func noteContentLength(_ value: UnsafeBufferPointer<UInt8>) -> HTTPProtocolError? {
        for element in value.split(separator: ASCII.comma, omittingEmptySubsequences: false) {
            let digits = ASCII.trimmingWhitespace(UnsafeBufferPointer(rebasing: element))
            guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else { return .invalidContentLength }
            // Saturates: any length this large is refused as too large anyway.
            let length = digits.reduce(0) { total, digit in min(total * 10 + Int(digit - 0x30), 1 << 53) }
            if let contentLength, contentLength != length { return .conflictingContentLength }
            contentLength = length
        }
        return nil
    }
}
