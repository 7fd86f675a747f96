@testable import HTTPServer
import Testing
import TestSupport


@Suite("Connection state machine: mangled input")
struct ConnectionFuzzTests {
    private static let seeds = [
        "GET /indicator?pages=5 HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbodyGET / HTTP/1.0\r\n\r\n",
        "PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n",
        "GET http://h/x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    ].map { Array($0.utf8) }

    /// `bytes` with a few bytes replaced, inserted or removed.
    private func mangle(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            let byte = ([0x00, 0x09, 0x0A, 0x0D, 0x20, 0x3A, 0x30, 0x7F, 0xFF] as [UInt8]).randomElement(using: &random) ?? 0
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[index] = byte
            case 1: bytes.insert(byte, at: index)
            default: bytes.remove(at: index)
            }
        }
        return bytes
    }

    @Test("Whatever arrives, in whatever chunks, every answer is a whole HTTP/1.1 response and the connection settles")
    func mangledStreams() {
        var random = SplitMix64(seed: 2026)
        for round in 0..<3000 {
            let seed = ConnectionFuzzTests.seeds[round % ConnectionFuzzTests.seeds.count]
            let stream = mangle(seed + seed, using: &random)
            var harness = ConnectionHarness()
            harness.readChunk = Int.random(in: 1...40, using: &random)
            harness.handler = { _ in okResponse() }
            harness.clientSends(stream)
            harness.clientCloses()
            harness.run()
            harness.advance(to: 100)
            #expect(harness.closed, "round \(round): \(stream)")
            let text = harness.sentText
            #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 "), "round \(round)")
            #expect(harness.completed.allSatisfy { [200, 400, 413, 414, 431, 505].contains($0.status) }, "round \(round)")
        }
    }
}
