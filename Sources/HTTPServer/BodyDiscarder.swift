/// Reads past a request body without keeping it, so that the bytes after it
/// are taken as the next request and never as part of this one.
///
/// The server's handlers take no bodies; the body is consumed only to keep
/// the connection's framing, up to `limit` bytes as sent (chunk framing
/// included for a chunked body), beyond which the answer is 413. Chunk lines
/// must end in CRLF (RFC 9112 §7.1); chunk extensions and trailer fields are
/// skipped.
struct BodyDiscarder {
    enum Outcome: Equatable {
        case needMore
        case done
        case tooLarge
        case invalid
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
        /// Chunk data still to skip.
        case chunkData(remaining: Int)
        /// After chunk data: CR expected (`true`) or LF expected (`false`).
        case chunkDataEnd(expectingCR: Bool)
        /// In the trailer section; `lineLength` bytes of the current line so far.
        case trailer(lineLength: Int)
        /// CR seen in the trailer section; LF expected.
        case trailerLineFeed(lineLength: Int)
        case finished
    }

    private var state: State
    private let limit: Int
    private var consumedTotal = 0

    /// A discarder for a body with `framing` (not `.none`); `limit` is the most
    /// bytes read before the body is refused as too large.
    init(framing: BodyFraming, limit: Int) {
        self.limit = limit
        switch framing {
        case .none: state = .finished
        case .length(let length): state = .remaining(length)
        case .chunked: state = .chunkSize(value: 0, digits: 0)
        }
    }

    /// Consumes what it can of `bytes`; returns how many bytes were body, and
    /// where the body stands.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, outcome: Outcome) {
        if case .remaining(let remaining) = state {
            let taken = min(remaining, bytes.count)
            state = remaining == taken ? .finished : .remaining(remaining - taken)
            return (taken, remaining == taken ? .done : .needMore)
        }
        var index = 0
        scanning: while index < bytes.count {
            switch state {
            case .finished:
                break scanning
            case .chunkData(let remaining):
                let taken = min(remaining, bytes.count - index)
                index += taken
                state = remaining == taken ? .chunkDataEnd(expectingCR: true) : .chunkData(remaining: remaining - taken)
            default:
                guard step(bytes[index]) else { return (index, .invalid) }
                index += 1
                // A chunk that would pass the limit is refused before it is read.
                let declared: Int
                if case .chunkData(let size) = state { declared = size } else { declared = 0 }
                if consumedTotal + index + declared > limit { return (index, .tooLarge) }
            }
        }
        consumedTotal += index
        if case .finished = state { return (index, .done) }
        return (index, .needMore)
    }

    /// Advances the chunked grammar by one byte; false when the byte breaks it.
    private mutating func step(_ byte: UInt8) -> Bool {
        switch state {
        case .chunkSize(let value, let digits):
            if let digit = ASCII.hexValue(byte) {
                // Saturates: a chunk larger than the limit is refused anyway.
                state = .chunkSize(value: min(value * 16 + digit, limit + 1), digits: digits + 1)
            } else if digits > 0, byte == ASCII.cr {
                state = .chunkSizeLineFeed(size: value)
            } else if digits > 0, byte == ASCII.semicolon || ASCII.isWhitespace(byte) {
                state = .chunkExtension(size: value)
            } else {
                return false
            }
        case .chunkExtension(let size):
            if byte == ASCII.cr {
                state = .chunkSizeLineFeed(size: size)
            } else if !ASCII.isFieldValueChar(byte) {
                return false
            }
        case .chunkSizeLineFeed(let size):
            guard byte == ASCII.lf else { return false }
            state = size == 0 ? .trailer(lineLength: 0) : .chunkData(remaining: size)
        case .chunkDataEnd(let expectingCR):
            guard byte == (expectingCR ? ASCII.cr : ASCII.lf) else { return false }
            state = expectingCR ? .chunkDataEnd(expectingCR: false) : .chunkSize(value: 0, digits: 0)
        case .trailer(let lineLength):
            if byte == ASCII.cr {
                state = .trailerLineFeed(lineLength: lineLength)
            } else if ASCII.isFieldValueChar(byte) {
                state = .trailer(lineLength: lineLength + 1)
            } else {
                return false
            }
        case .trailerLineFeed(let lineLength):
            guard byte == ASCII.lf else { return false }
            state = lineLength == 0 ? .finished : .trailer(lineLength: 0)
        case .remaining, .chunkData, .finished:
            return false
        }
        return true
    }
}
