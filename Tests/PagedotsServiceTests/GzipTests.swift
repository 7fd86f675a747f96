import CZlib
@testable import PagedotsService
import Testing

/// Inflates a gzip member (zlib with windowBits 15 + 16: gzip only, so a
/// zlib or raw deflate stream is refused); nil unless it is one whole,
/// valid member (CRC and length checked) and nothing follows it.
func gunzip(_ compressed: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var input = compressed
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var status = Z_OK
    input.withUnsafeMutableBufferPointer { inBuffer in
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = UInt32(inBuffer.count)
        while status == Z_OK {
            let produced: Int = chunk.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                status = inflate(&stream, Z_NO_FLUSH)
                return outBuffer.count - Int(stream.avail_out)
            }
            output += chunk.prefix(produced)
        }
    }
    return status == Z_STREAM_END && stream.avail_in == 0 ? output : nil
}

@Suite struct GzipTests {
    static let text = Array(String(repeating: "<circle cx=\"12\" cy=\"8\" r=\"4\" fill=\"#007aff\"/>\n", count: 50).utf8)

    @Test(arguments: [0, 1, 100, 70_000])
    func roundTrips(length: Int) {
        let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 / 3) }
        #expect(gunzip(Gzip.compress(input)) == input)
    }

    @Test func textShrinks() throws {
        let compressed = Gzip.compress(Self.text)
        #expect(compressed.count * 10 < Self.text.count)
        #expect(gunzip(compressed) == Self.text)
    }

    @Test("The same bytes every time: no name, no time, fixed flags (RFC 1952 §2.3)")
    func isDeterministic() {
        let first = Gzip.compress(Self.text)
        #expect(Gzip.compress(Array("something else".utf8)) != first)
        #expect(Gzip.compress(Self.text) == first)
        // ID1 ID2, CM = deflate, FLG = no name or comment, MTIME = 0, XFL = 0 (level 6), OS = 3 (Unix).
        #expect(Array(first.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
    }

    @Test("Streams are reused from many threads at once without mixing their output")
    func concurrentCompressions() async {
        let inputs = (0..<32).map { index in Array("\(index) ".utf8) + Self.text }
        let results = await withTaskGroup(of: (Int, [UInt8]?).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask { (index, gunzip(Gzip.compress(input))) }
            }
            var results: [Int: [UInt8]?] = [:]
            for await (index, output) in group { results[index] = output }
            return results
        }
        for (index, input) in inputs.enumerated() {
            #expect(results[index] == input)
        }
    }
}
