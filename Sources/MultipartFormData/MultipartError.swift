/// Why a `multipart/form-data` body (or its `Content-Type`) is refused, in
/// one line that a client can act on. Parts are numbered from 1, in the order
/// they were sent.
public enum MultipartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The media type is not `multipart/form-data` (RFC 7578 §4); `got` is the value as sent.
    case notFormData(got: String)
    /// RFC 2046 §5.1.1: the media type has no `boundary` parameter.
    case missingBoundary
    /// RFC 2046 §5.1.1: the boundary is not 1 to 70 allowed characters, or it is given twice.
    case invalidBoundary(got: String)
    /// The body holds no delimiter line at all: it does not start with `--boundary`.
    case noDelimiter
    /// A line that starts with `--boundary` is neither a delimiter (then CRLF)
    /// nor the close delimiter (then `--`); after part `part` (0: before the first).
    case malformedDelimiter(afterPart: Int)
    /// The body ended before the close delimiter, inside part `part` (0: before the first).
    case truncated(part: Int)
    /// A part's header section is larger than the limit.
    case headerSectionTooLarge(part: Int, limit: Int)
    /// A header line is not `name: value` ending in CRLF (bare CR or LF, a
    /// control character, whitespace before the colon, a line folded onto the next).
    case malformedHeader(part: Int)
    /// One of the fields RFC 7578 §4 defines, given twice (`name` as sent).
    case repeatedHeader(part: Int, name: String)
    /// RFC 7578 §4.2: no `Content-Disposition`, or one that is not `form-data`
    /// with a `name` (`problem` says which).
    case badDisposition(part: Int, problem: String)
    /// RFC 7578 §4.4: a `Content-Type` that is not `type/subtype`.
    case malformedContentType(part: Int)
    /// RFC 7578 §4.7: a `Content-Transfer-Encoding` other than 7bit, 8bit or binary.
    case unsupportedTransferEncoding(part: Int, got: String)
    /// More parts than the limit.
    case tooManyParts(limit: Int)
    /// The body is larger than the limit.
    case bodyTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .notFormData(let got):
            "Content-Type must be multipart/form-data; got \(Self.quoted(got))"
        case .missingBoundary:
            "multipart/form-data without a boundary parameter"
        case .invalidBoundary(let got):
            "boundary must be 1 to 70 characters (letters, digits, space and '()+_,-./:=?, not ending in a space); got \(Self.quoted(got))"
        case .noDelimiter:
            "no boundary line: the body must start with --BOUNDARY and CRLF"
        case .malformedDelimiter(let part):
            "\(Self.place(part)): a line starts with the boundary but is neither --BOUNDARY CRLF nor --BOUNDARY--"
        case .truncated(let part):
            "\(Self.place(part)): the body ended before the closing --BOUNDARY-- (truncated?)"
        case .headerSectionTooLarge(let part, let limit):
            "part \(part): header section larger than \(limit) bytes"
        case .malformedHeader(let part):
            "part \(part): malformed header line (each must be \"Name: value\" and end with CRLF)"
        case .repeatedHeader(let part, let name):
            "part \(part): \(name) given twice"
        case .badDisposition(let part, let problem):
            "part \(part): \(problem)"
        case .malformedContentType(let part):
            "part \(part): malformed Content-Type (expected type/subtype)"
        case .unsupportedTransferEncoding(let part, let got):
            "part \(part): Content-Transfer-Encoding \(Self.quoted(got)) is not supported: send the bytes as they are"
        case .tooManyParts(let limit):
            "more than \(limit) parts"
        case .bodyTooLarge(let limit):
            "body larger than \(limit) bytes"
        }
    }

    private static func place(_ part: Int) -> String {
        part == 0 ? "before the first part" : "part \(part)"
    }

    /// `text` in double quotes, kept on one line and short: control bytes are
    /// written `%XX`, and more than 100 characters are cut with `…`.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(100) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                shown += "%" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return "\"" + shown + (text.unicodeScalars.count > 100 ? "…" : "") + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
