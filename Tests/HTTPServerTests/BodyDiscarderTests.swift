@testable import HTTPServer
import Testing

@Suite("Body discarder")
struct BodyDiscarderTests {
    /// Feeds `text` in `chunking`; returns the bytes taken as body and the last outcome.
    private func discard(
        _ text: String, framing: BodyFraming, limit: Int = 1000, chunking: Chunking
    ) -> (consumed: Int, outcome: BodyDiscarder.Outcome) {
        var discarder = BodyDiscarder(framing: framing, limit: limit)
        let bytes = Array(text.utf8)
        var consumed = 0
        var outcome = BodyDiscarder.Outcome.needMore
        var available = 0
        while outcome == .needMore, available < bytes.count {
            available = min(available + (chunking.size ?? bytes.count), bytes.count)
            let step = bytes[consumed..<available].withUnsafeBufferPointer { discarder.consume($0) }
            consumed += step.consumed
            outcome = step.outcome
        }
        return (consumed, outcome)
    }

    @Test("RFC 9112 §6.2: a fixed-length body ends after Content-Length bytes", arguments: Chunking.allCases)
    func fixedLength(chunking: Chunking) {
        let result = discard("helloGET / HTTP/1.1", framing: .length(5), chunking: chunking)
        #expect(result.consumed == 5)
        #expect(result.outcome == .done)
        #expect(discard("hel", framing: .length(5), chunking: chunking).outcome == .needMore)
    }

    @Test("RFC 9112 §7.1: chunks, extensions and trailers are read to the final CRLF", arguments: Chunking.allCases)
    func chunked(chunking: Chunking) {
        let body = "5\r\nhello\r\nA;name=value\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n"
        let result = discard(body + "GET / HTTP/1.1\r\n", framing: .chunked, chunking: chunking)
        #expect(result.consumed == body.utf8.count)
        #expect(result.outcome == .done)
        let noTrailer = "3 ; ext\r\nabc\r\n0\r\n\r\n"
        #expect(discard(noTrailer + "X", framing: .chunked, chunking: chunking).consumed == noTrailer.utf8.count)
        #expect(discard("5\r\nhel", framing: .chunked, chunking: chunking).outcome == .needMore)
    }

    @Test("RFC 9112 §7.1: a chunked body that breaks the grammar is invalid", arguments: Chunking.allCases)
    func invalidChunked(chunking: Chunking) {
        for body in ["x\r\n", "\r\n", "5\nhello\r\n", "5\r\nhelloX\r\n", "5\r\nhello\n0\r\n\r\n", "0\r\nBad\nTrailer\r\n\r\n", "-1\r\n"] {
            #expect(discard(body, framing: .chunked, chunking: chunking).outcome == .invalid, "\(body.debugDescription)")
        }
    }

    @Test("A chunked body over the limit is refused, a declared chunk before it is read", arguments: Chunking.allCases)
    func chunkedTooLarge(chunking: Chunking) {
        #expect(discard("FFFFFFFFFFFFFFFFFFFFFFFF\r\n", framing: .chunked, limit: 100, chunking: chunking).outcome == .tooLarge)
        #expect(discard("65\r\n", framing: .chunked, limit: 100, chunking: chunking).outcome == .tooLarge)
        // 20 chunks of 1 byte: 6 bytes each on the wire, 120 in all.
        let many = String(repeating: "1\r\nx\r\n", count: 20) + "0\r\n\r\n"
        #expect(discard(many, framing: .chunked, limit: 100, chunking: chunking).outcome == .tooLarge)
        #expect(discard(many, framing: .chunked, limit: 200, chunking: chunking).outcome == .done)
    }
}
