@testable import HTTPServer

/// How a test hands bytes to the parser: all at once, one byte at a time, or
/// in chunks of a few bytes — the parser must give the same answer each way.
enum Chunking: CaseIterable, CustomStringConvertible {
    case allAtOnce
    case byteByByte
    case threeBytes

    var size: Int? {
        switch self {
        case .allAtOnce: nil
        case .byteByByte: 1
        case .threeBytes: 3
        }
    }

    var description: String { "\(self.size.map { "\($0)-byte chunks" } ?? "all at once")" }
}

/// What the parser said about one head of a stream.
enum ParseOutcome {
    case head(ParsedHead)
    case error(HTTPProtocolError)

    var head: ParsedHead? {
        if case .head(let head) = self { return head }
        return nil
    }

    var error: HTTPProtocolError? {
        if case .error(let error) = self { return error }
        return nil
    }
}

/// Feeds a byte stream to a `RequestHeadParser` the way a connection does:
/// bytes accumulate, each complete head is taken off the front and the
/// parser starts again; an error ends the stream.
struct ParserFeed {
    static let defaultLimits = RequestHeadParser.Limits(maxRequestLineBytes: 8192, maxHeaderBytes: 16384, maxHeaderLines: 100)

    private var parser: RequestHeadParser
    private var buffer: [UInt8] = []
    private(set) var outcomes: [ParseOutcome] = []
    private var failed = false

    init(limits: RequestHeadParser.Limits = ParserFeed.defaultLimits) {
        parser = RequestHeadParser(limits: limits)
    }

    mutating func feed(_ bytes: some Collection<UInt8>) {
        guard !failed else { return }
        buffer.append(contentsOf: bytes)
        while !failed {
            let result = buffer.withUnsafeBufferPointer { parser.parse($0) }
            switch result {
            case .incomplete:
                return
            case .complete:
                let head = buffer.withUnsafeBufferPointer { parser.head(in: $0) }
                outcomes.append(.head(head))
                buffer.removeFirst(head.length)
                parser.reset()
            case .invalid(let error):
                outcomes.append(.error(error))
                failed = true
            }
        }
    }

    /// The outcomes for `bytes` fed with `chunking`.
    static func outcomes(
        _ bytes: [UInt8], chunking: Chunking, limits: RequestHeadParser.Limits = ParserFeed.defaultLimits
    ) -> [ParseOutcome] {
        var feed = ParserFeed(limits: limits)
        var index = 0
        let step = chunking.size ?? max(bytes.count, 1)
        while index < bytes.count {
            feed.feed(bytes[index..<min(index + step, bytes.count)])
            index += step
        }
        return feed.outcomes
    }

    static func outcomes(_ text: String, chunking: Chunking) -> [ParseOutcome] {
        outcomes(Array(text.utf8), chunking: chunking)
    }
}
