/// Reads one request body off a connection's input, so that the bytes after
/// it are taken as the next request and never as part of this one: its
/// content is handed to a body (one the handler accepted) or dropped.
///
/// The reader holds only numbers (the body is passed to each `consume`), so
/// that the connection state it is part of stays cheap to copy.
///
/// `Content-Length` bodies end after that many bytes (RFC 9112 §6.2).
/// Chunked bodies (§7.1) are decoded: chunk lines must end in CRLF, a
/// chunk-size line (size and extensions, which are skipped) may be at most
/// `maxChunkLineBytes` long, and the trailer section (skipped too) at most
/// `maxTrailerBytes`; anything else is `invalid`. Content beyond `limit`
/// bytes is `tooLarge`, found from a chunk's size before its data is read.
struct BodyReader {
    enum Outcome: Equatable {
        case needMore
        case done
        case tooLarge
        case invalid
        /// The body could not grow: the server's upload budget is spent.
        case overBudget
    }

    private enum State {
        /// Fixed length: bytes still to come.
        case remaining(Int)
        /// Reading a chunk size; `digits` so far.
        case chunkSize(value: Int, digits: Int)
        /// After the size: extensions up to CR.
        case chunkExtension(size: Int)
        /// CR seen after the size line; LF expected.
        case chunkSizeLineFeed(size: Int)
        /// Chunk data still to come.
        case chunkData(remaining: Int)
        /// After chunk data: CR expected (`true`) or LF expected (`false`).
        case chunkDataEnd(expectingCR: Bool)
        /// At the start of a trailer line: a field name, or the final CRLF.
        case trailerLineStart
        /// In a trailer field's name.
        case trailerName
        /// In a trailer field's value.
        case trailerValue
        /// CR seen in the trailer section; LF expected, ending a field line or (`last`) the body.
        case trailerLineFeed(last: Bool)
        case finished
        case failed(Outcome)
    }

    /// The longest chunk-size line, extensions included, CRLF not counted.
    static let maxChunkLineBytes = 4096

    private let limit: Int
    private let maxTrailerBytes: Int
    private var state: State
    /// Content bytes announced so far (chunk sizes, or the length).
    private var announced = 0
    /// Bytes of the current chunk-size line, or of the trailer section.
    private var lineBytes = 0

    /// A reader for a body with `framing` (not `.none`); `limit` is the most content read.
    init(framing: BodyFraming, limit: Int, maxTrailerBytes: Int) {
        self.limit = limit
        self.maxTrailerBytes = maxTrailerBytes
        switch framing {
        case .none: state = .finished
        case .length(let length): state = length > limit ? .failed(.tooLarge) : length == 0 ? .finished : .remaining(length)
        case .chunked: state = .chunkSize(value: 0, digits: 0)
        }
    }

    /// Consumes what it can of `bytes`, handing the content to `body` (nil:
    /// dropping it); returns how many bytes were body, and where the body
    /// stands. After `done` or a refusal it consumes nothing and gives the
    /// same outcome again.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, into body: HTTPRequestBody?) -> (consumed: Int, outcome: Outcome) {
        var index = 0
        while index < bytes.count {
            switch state {
            case .finished, .failed:
                return (index, outcome)
            case .remaining(let remaining):
                let taken = min(remaining, bytes.count - index)
                guard keep(bytes, index..<(index + taken), in: body) else { return (index, outcome) }
                index += taken
                state = remaining == taken ? .finished : .remaining(remaining - taken)
            case .chunkData(let remaining):
                let taken = min(remaining, bytes.count - index)
                guard keep(bytes, index..<(index + taken), in: body) else { return (index, outcome) }
                index += taken
                state = remaining == taken ? .chunkDataEnd(expectingCR: true) : .chunkData(remaining: remaining - taken)
            default:
                state = step(bytes[index])
                index += 1
            }
        }
        return (index, outcome)
    }

    private var outcome: Outcome {
        switch state {
        case .finished: .done
        case .failed(let outcome): outcome
        default: .needMore
        }
    }

    /// Hands `range` of `bytes` to `body`, if any; false (and failed) when it cannot grow.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, in body: HTTPRequestBody?) -> Bool {
        guard let body, !body.append(UnsafeRawBufferPointer(rebasing: bytes[range]), limit: limit) else { return true }
        state = .failed(.overBudget)
        return false
    }

    /// The state after one byte of chunk framing.
    private mutating func step(_ byte: UInt8) -> State {
        switch state {
        case .chunkSize(let value, let digits):
            lineBytes = digits == 0 ? 1 : lineBytes + 1
            if let digit = ASCII.hexValue(byte) {
                // Saturates: a chunk larger than the limit is refused anyway.
                return lineLimited(.chunkSize(value: min(value * 16 + digit, limit + 1), digits: digits + 1))
            }
            guard digits > 0 else { return .failed(.invalid) }
            if byte == ASCII.cr { return .chunkSizeLineFeed(size: value) }
            if byte == ASCII.semicolon || ASCII.isWhitespace(byte) { return lineLimited(.chunkExtension(size: value)) }
            return .failed(.invalid)
        case .chunkExtension(let size):
            lineBytes += 1
            if byte == ASCII.cr { return .chunkSizeLineFeed(size: size) }
            return ASCII.isFieldValueChar(byte) ? lineLimited(state) : .failed(.invalid)
        case .chunkSizeLineFeed(let size):
            guard byte == ASCII.lf else { return .failed(.invalid) }
            guard size > 0 else {
                lineBytes = 0
                return .trailerLineStart
            }
            // A chunk that would pass the limit is refused before its data is read.
            announced += size
            return announced > limit ? .failed(.tooLarge) : .chunkData(remaining: size)
        case .chunkDataEnd(let expectingCR):
            guard byte == (expectingCR ? ASCII.cr : ASCII.lf) else { return .failed(.invalid) }
            return expectingCR ? .chunkDataEnd(expectingCR: false) : .chunkSize(value: 0, digits: 0)
        case .trailerLineStart, .trailerName, .trailerValue:
            return trailerLimited(trailerStep(byte))
        case .trailerLineFeed(let last):
            guard byte == ASCII.lf else { return .failed(.invalid) }
            return last ? .finished : trailerLimited(.trailerLineStart)
        case .remaining, .chunkData, .finished, .failed:
            return .failed(.invalid)
        }
    }

    /// A trailer field line is `name ":" value` (RFC 9112 §7.1.2, §5), the section ends with an empty line.
    private func trailerStep(_ byte: UInt8) -> State {
        switch state {
        case .trailerLineStart:
            if byte == ASCII.cr { return .trailerLineFeed(last: true) }
            return ASCII.isTokenChar(byte) ? .trailerName : .failed(.invalid)
        case .trailerName:
            if byte == ASCII.colon { return .trailerValue }
            return ASCII.isTokenChar(byte) ? .trailerName : .failed(.invalid)
        default:
            if byte == ASCII.cr { return .trailerLineFeed(last: false) }
            return ASCII.isFieldValueChar(byte) ? .trailerValue : .failed(.invalid)
        }
    }

    private func lineLimited(_ next: State) -> State {
        lineBytes > Self.maxChunkLineBytes ? .failed(.invalid) : next
    }

    private mutating func trailerLimited(_ next: State) -> State {
        lineBytes += 1
        return lineBytes > maxTrailerBytes ? .failed(.invalid) : next
    }
}
