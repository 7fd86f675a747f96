#if canImport(Glibc)
import Glibc
#endif

/// The sizes beyond which a `multipart/form-data` body is refused.
public struct MultipartLimits: Sendable {
    /// Most parts. Default 64.
    public var maxParts: Int = 64
    /// Largest header section of one part: its field lines with their CRLFs
    /// and the empty line that ends it. Default 8192.
    public var maxPartHeaderBytes: Int = 8192
    /// Largest body, preamble and epilogue included. Default 32 MiB.
    public var maxBodyBytes: Int = 32 << 20

    public init(maxParts: Int = 64, maxPartHeaderBytes: Int = 8192, maxBodyBytes: Int = 32 << 20) {
        self.maxParts = maxParts
        self.maxPartHeaderBytes = maxPartHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

/// What the parser found in the bytes it was fed.
public enum MultipartEvent {
    /// A part's header section has been read; its content starts at byte
    /// `contentStart` of the body.
    case partBegan(MultipartPartHead, contentStart: Int)
    /// The next bytes of the current part's content (valid only during the call).
    case content(UnsafeRawBufferPointer)
    /// The current part's content ended just before byte `contentEnd` of the body.
    case partEnded(contentEnd: Int)
}

/// A strict, streaming reader of a `multipart/form-data` body (RFC 7578;
/// the framing of RFC 2046 §5.1.1), fed the body in pieces of any size.
///
/// The body is `[preamble CRLF] --boundary CRLF part *(CRLF --boundary CRLF
/// part) CRLF --boundary-- [epilogue]`, where a part is its header lines, an
/// empty line and its content; transport padding (spaces and tabs) may follow
/// a boundary. A line that starts with the boundary must be a delimiter (RFC
/// 2046 forbids the boundary inside content): anything else is refused, as
/// are bare CR or LF in a header section, folded header lines, a body that
/// ends before the close delimiter, and the limits. The preamble and the
/// epilogue are skipped.
///
/// Content is handed on as it arrives, never buffered: memory is the header
/// section being read, whatever the size of the parts. Only the bytes at the
/// end of a piece that could begin a delimiter are held back until the next
/// piece tells (they are bytes of the delimiter itself, so nothing is copied).
public struct MultipartParser {
    private enum State {
        /// Before the first delimiter (`matched` counts its bytes seen).
        case preamble
        /// Just after `CRLF --boundary`: `--`, padding, or CRLF must follow.
        case afterBoundary
        /// After the first `-` of a close delimiter.
        case closing
        /// Transport padding after a boundary, up to its CRLF.
        case padding
        /// The CR after a boundary seen: LF must follow.
        case boundaryLineFeed
        /// Reading a part's header section into `headerSection`.
        case headers
        /// A part's content (`matched` counts the delimiter bytes seen at its end).
        case content
        /// After the close delimiter: everything is epilogue.
        case epilogue
    }

    private let limits: MultipartLimits
    /// `CRLF --boundary`.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes of `delimiter` matched so far. The body may start with the
    /// boundary itself (no preamble): it starts as if a CRLF came before it.
    private var matched = 2
    /// Where the delimiter being matched starts in the body.
    private var delimiterStart = 0
    /// Bytes fed so far.
    private var offset = 0
    private var partCount = 0
    private var headerSection: [UInt8] = []

    public init(boundary: MultipartBoundary, limits: MultipartLimits = MultipartLimits()) {
        self.limits = limits
        delimiter = boundary.delimiter
    }

    /// Reads the next piece of the body, handing what it finds to `receive` in order.
    public mutating func parse(
        _ piece: UnsafeRawBufferPointer, _ receive: (MultipartEvent) -> Void
    ) throws(MultipartError) {
        // The bytes within the limit are read first, so that a refusal they hold comes first, however the body is cut.
        let allowed = min(piece.count, max(0, limits.maxBodyBytes - offset))
        let bytes = UnsafeRawBufferPointer(rebasing: piece[..<allowed])
        var index = 0
        while index < bytes.count {
            switch state {
            case .preamble, .content:
                index = try scanForDelimiter(bytes, from: index, receive)
            case .headers:
                index = try readHeaders(bytes, from: index, receive)
            case .epilogue:
                index = bytes.count
            case .afterBoundary, .closing, .padding, .boundaryLineFeed:
                try stepAfterBoundary(bytes[index])
                index += 1
            }
        }
        offset += bytes.count
        guard bytes.count == piece.count else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
    }

    /// The body has ended: throws unless the close delimiter was read.
    public func finish() throws(MultipartError) {
        switch state {
        case .epilogue: return
        case .preamble: throw .noDelimiter
        default: throw .truncated(part: partCount)
        }
    }

    /// Looks for the delimiter from `index`; in content, hands on what is not
    /// part of it. Returns where it stopped: at the end, or after a delimiter.
    private mutating func scanForDelimiter(
        _ bytes: UnsafeRawBufferPointer, from start: Int, _ receive: (MultipartEvent) -> Void
    ) throws(MultipartError) -> Int {
        let inContent = if case .content = state { true } else { false }
        var index = start
        while index < bytes.count {
            if matched == 0 {
                // No delimiter under way: jump to the next CR, handing on what lies before it.
                guard let base = bytes.baseAddress,
                      let found = memchr(base + index, Int32(ByteClass.cr), bytes.count - index) else {
                    if inContent { receive(.content(UnsafeRawBufferPointer(rebasing: bytes[index...]))) }
                    return bytes.count
                }
                let cr = base.distance(to: UnsafeRawPointer(found))
                if inContent, cr > index { receive(.content(UnsafeRawBufferPointer(rebasing: bytes[index..<cr]))) }
                matched = 1
                delimiterStart = offset + cr
                index = cr + 1
                continue
            }
            if bytes[index] == delimiter[matched] {
                matched += 1
                index += 1
                if matched == delimiter.count {
                    matched = 0
                    if inContent { receive(.partEnded(contentEnd: delimiterStart)) }
                    state = .afterBoundary
                    return index
                }
            } else {
                // Not a delimiter after all: what looked like its start was content.
                if inContent {
                    delimiter.withUnsafeBytes { receive(.content(UnsafeRawBufferPointer(rebasing: $0[..<matched]))) }
                }
                matched = 0
            }
        }
        return index
    }

    /// One byte after `CRLF --boundary`: the close delimiter's `--`, transport padding, or the CRLF before a part.
    private mutating func stepAfterBoundary(_ byte: UInt8) throws(MultipartError) {
        switch state {
        case .afterBoundary where byte == ByteClass.dash:
            state = .closing
        case .closing where byte == ByteClass.dash:
            state = .epilogue
        case .afterBoundary where ByteClass.isBlank(byte), .padding where ByteClass.isBlank(byte):
            state = .padding
        case .afterBoundary where byte == ByteClass.cr, .padding where byte == ByteClass.cr:
            state = .boundaryLineFeed
        case .boundaryLineFeed where byte == ByteClass.lf:
            partCount += 1
            guard partCount <= limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
            headerSection.removeAll(keepingCapacity: true)
            state = .headers
        default:
            throw .malformedDelimiter(afterPart: partCount)
        }
    }

    /// Gathers a part's header section up to its empty line, then parses it.
    private mutating func readHeaders(
        _ bytes: UnsafeRawBufferPointer, from start: Int, _ receive: (MultipartEvent) -> Void
    ) throws(MultipartError) -> Int {
        var index = start
        while index < bytes.count {
            headerSection.append(bytes[index])
            index += 1
            guard headerSection.count <= limits.maxPartHeaderBytes else {
                throw .headerSectionTooLarge(part: partCount, limit: limits.maxPartHeaderBytes)
            }
            guard headerSection.last == ByteClass.lf else { continue }
            // The section ends at an empty line: CRLF alone, or CRLF CRLF after the last field line.
            let count = headerSection.count
            let empty = count == 2 || (count >= 4 && headerSection[(count - 4)...].elementsEqual([13, 10, 13, 10]))
            guard empty, headerSection[count - 2] == ByteClass.cr else { continue }
            let head = try MultipartPartHead.parse(headerSection[..<(count - 2)], part: partCount)
            receive(.partBegan(head, contentStart: offset + index))
            state = .content
            matched = 0
            return index
        }
        return index
    }
}
