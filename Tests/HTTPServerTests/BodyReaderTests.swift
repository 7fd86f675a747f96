@testable import HTTPServer
import Testing

@Suite("Body reader")
struct BodyReaderTests {
    /// What reading a stream came to: the bytes taken as body, the last outcome, and the content kept.
    private struct Read {
        var consumed: Int
        var outcome: BodyReader.Outcome
        var content: [UInt8]
    }

    /// Feeds `text` in `chunking`, keeping the content unless `keep` is false.
    private func read(
        _ text: String, framing: BodyFraming, limit: Int = 1000, keep: Bool = true, maxTrailerBytes: Int = 100,
        budget: UploadBudget? = nil, chunking: Chunking
    ) -> Read {
        let body = keep ? HTTPRequestBody(capacity: 4, budget: budget) : nil
        var reader = BodyReader(framing: framing, limit: limit, maxTrailerBytes: maxTrailerBytes)
        let bytes = Array(text.utf8)
        var consumed = 0
        var outcome = BodyReader.Outcome.needMore
        var available = 0
        repeat {
            available = min(available + (chunking.size ?? bytes.count), bytes.count)
            let step = bytes[consumed..<available].withUnsafeBytes { reader.consume($0, into: body) }
            consumed += step.consumed
            outcome = step.outcome
        } while outcome == .needMore && available < bytes.count
        return Read(consumed: consumed, outcome: outcome, content: body?.bytes ?? [])
    }

    @Test("RFC 9112 §6.2: a fixed-length body ends after Content-Length bytes; what follows is left", arguments: Chunking.allCases)
    func fixedLength(chunking: Chunking) {
        let result = read("helloGET / HTTP/1.1", framing: .length(5), chunking: chunking)
        #expect(result.consumed == 5)
        #expect(result.outcome == .done)
        #expect(result.content == Array("hello".utf8))
        #expect(read("hel", framing: .length(5), chunking: chunking).outcome == .needMore)
        #expect(read("helloX", framing: .length(5), keep: false, chunking: chunking).consumed == 5)
    }

    @Test("RFC 9112 §7.1: chunks are decoded; extensions and trailer fields are read and skipped", arguments: Chunking.allCases)
    func chunked(chunking: Chunking) {
        let body = "5\r\nhello\r\nA;name=value\r\n0123456789\r\n0\r\nTrailer: x\r\nOther:\r\n\r\n"
        let result = read(body + "GET / HTTP/1.1\r\n", framing: .chunked, chunking: chunking)
        #expect(result.consumed == body.utf8.count)
        #expect(result.outcome == .done)
        #expect(result.content == Array("hello0123456789".utf8))
        let noTrailer = "3 ; ext\r\nabc\r\n0\r\n\r\n"
        #expect(read(noTrailer + "X", framing: .chunked, chunking: chunking).consumed == noTrailer.utf8.count)
        #expect(read("5\r\nhel", framing: .chunked, chunking: chunking).outcome == .needMore)
        // Leading zeros and upper-case digits are digits.
        #expect(read("000A\r\n0123456789\r\n0\r\n\r\n", framing: .chunked, chunking: chunking).content.count == 10)
    }

    @Test("RFC 9112 §7.1: a chunked body that breaks the grammar is invalid", arguments: Chunking.allCases)
    func invalidChunked(chunking: Chunking) {
        for body in [
            "x\r\n", "\r\n", "5\nhello\r\n", "5\r\nhelloX\r\n", "5\r\nhello\n0\r\n\r\n", "0\r\nBad\nTrailer\r\n\r\n", "-1\r\n",
            "5;ext\u{1}\r\n", "0\r\nNo colon\r\n\r\n", "0\r\n: no name\r\n\r\n", "0\r\nX: y\r\r\n", "0\r\n\r\r",
        ] {
            #expect(read(body, framing: .chunked, chunking: chunking).outcome == .invalid, "\(body.debugDescription)")
        }
    }

    @Test("Hostile chunk framing: an endless chunk-size line or trailer section is invalid", arguments: Chunking.allCases)
    func hostileFraming(chunking: Chunking) {
        let longExtension = "1;" + String(repeating: "x", count: BodyReader.maxChunkLineBytes)
        #expect(read(longExtension + "\r\n", framing: .chunked, chunking: chunking).outcome == .invalid)
        let fits = "1;" + String(repeating: "x", count: BodyReader.maxChunkLineBytes - 2) + "\r\nx\r\n0\r\n\r\n"
        #expect(read(fits, framing: .chunked, chunking: chunking).outcome == .done)
        #expect(read(String(repeating: "0", count: 5000) + "\r\n", framing: .chunked, chunking: chunking).outcome == .invalid)
        let trailers = "0\r\n" + String(repeating: "X: y\r\n", count: 30) + "\r\n"
        #expect(read(trailers, framing: .chunked, maxTrailerBytes: 100, chunking: chunking).outcome == .invalid)
        #expect(read(trailers, framing: .chunked, maxTrailerBytes: 200, chunking: chunking).outcome == .done)
    }

    @Test("Content over the limit is refused: a declared length at once, a chunk from its size line", arguments: Chunking.allCases)
    func tooLarge(chunking: Chunking) {
        #expect(read("", framing: .length(101), limit: 100, chunking: chunking).outcome == .tooLarge)
        #expect(read("FFFFFFFFFFFFFFFFFFFFFFFF\r\n", framing: .chunked, limit: 100, chunking: chunking).outcome == .tooLarge)
        #expect(read("65\r\n", framing: .chunked, limit: 100, chunking: chunking).outcome == .tooLarge)
        #expect(read("64\r\n", framing: .chunked, limit: 100, chunking: chunking).outcome == .needMore)
        // 120 one-byte chunks: 120 bytes of content, refused at the 101st chunk's size line.
        let many = String(repeating: "1\r\nx\r\n", count: 120) + "0\r\n\r\n"
        let refused = read(many, framing: .chunked, limit: 100, chunking: chunking)
        #expect(refused.outcome == .tooLarge)
        #expect(refused.consumed == 100 * 6 + 3)
        #expect(read(many, framing: .chunked, limit: 120, chunking: chunking).outcome == .done)
        // Framing does not count: 20 one-byte chunks take 20 of the limit.
        #expect(read(String(repeating: "1\r\nx\r\n", count: 20) + "0\r\n\r\n", framing: .chunked, limit: 20, chunking: chunking).outcome == .done)
    }

    @Test("A kept body grows within the upload budget, and gives its room back when it goes")
    func budget() {
        let budget = UploadBudget(limit: 10)
        let chunks = "8\r\n12345678\r\n2\r\nab\r\n0\r\n\r\n"
        let fits = read(chunks, framing: .chunked, budget: budget, chunking: .allAtOnce)
        #expect(fits.outcome == .done)
        #expect(fits.content == Array("12345678ab".utf8))
        #expect(budget.heldBytes == 0)
        let over = read("8\r\n12345678\r\n3\r\nabc\r\n0\r\n\r\n", framing: .chunked, budget: budget, chunking: .byteByByte)
        #expect(over.outcome == .overBudget)
        #expect(budget.heldBytes == 0)
        var held: HTTPRequestBody? = HTTPRequestBody(capacity: 6, budget: budget)
        #expect(held != nil)
        #expect(budget.heldBytes == 6)
        #expect(HTTPRequestBody(capacity: 5, budget: budget) == nil)
        held = nil
        #expect(budget.heldBytes == 0)
    }

    @Test("A body's room grows in place and is trimmed to its content")
    func growthAndTrim() {
        let budget = UploadBudget(limit: 1 << 20)
        let body = HTTPRequestBody(capacity: 3, budget: budget)
        let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        content.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 777) {
                #expect(body?.append(UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 777)]), limit: 1 << 20) == true)
            }
        }
        #expect(body?.bytes == content)
        #expect(budget.heldBytes >= content.count)
        body?.trim()
        #expect(budget.heldBytes == content.count)
        #expect(HTTPRequestBody([1, 2, 3]).bytes == [1, 2, 3])
        #expect(HTTPRequestBody([]).count == 0)
    }
}
