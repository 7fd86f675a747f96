import Glibc
@testable import HTTPServer
@testable import PagedotsService
import Testing

@Suite("Carousel files: spooled as written, sent from the file")
struct CarouselFileTests {
    /// Bytes written in pieces of different sizes, as the GIF encoder hands them on.
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    func written(spool: Int32? = openTemporaryFile(prefix: "pagedots-test")) -> CarouselFile {
        let file = CarouselFile(contentType: "image/gif", spool: spool)
        var offset = 0
        for size in [13, 4096, 100_000, 1, 65_536] + Array(repeating: 50_000, count: 3) where offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { file.write($0) }
            offset = end
        }
        bytes[offset...].withUnsafeBytes { file.write($0) }
        return file
    }

    @Test("The answer is sent from a temporary file: its Content-Length, the bytes written, their digest as the ETag")
    func response() throws {
        let file = written()
        #expect(file.count == bytes.count)
        let prepared = PreparedResponse(try file.response(headers: [HTTPHeaderField("Content-Type", file.contentType)], label: 7))
        let bodyFile = try #require(prepared.bodyFile)
        #expect(prepared.body.isEmpty)
        #expect(bodyFile.count == bytes.count)
        #expect(prepared.sentBody == bytes)
        let head = String(decoding: prepared.head, as: UTF8.self)
        #expect(head.contains("\r\nETag: \(Digest.entityTag(of: bytes))\r\n"))
        #expect(head.contains("\r\nContent-Length: \(bytes.count)\r\n"))
    }

    @Test("pagedots carousel copies the same bytes to its output")
    func copy() throws {
        var template = Array("/tmp/pagedots-copy-XXXXXX".utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(output >= 0)
        defer { close(output) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        #expect(written().copy(to: output))
        var copied = [UInt8](repeating: 0, count: bytes.count + 1)
        let count = copied.withUnsafeMutableBytes { pread(output, $0.baseAddress, $0.count, 0) }
        #expect(Array(copied[..<max(count, 0)]) == bytes)
    }

    /// The bytes `response` sends, and its ETag.
    func sent(_ file: CarouselFile) throws -> (body: [UInt8], head: String) {
        let prepared = PreparedResponse(try file.response(headers: [HTTPHeaderField("Content-Type", file.contentType)], label: 7))
        return (prepared.sentBody, String(decoding: prepared.head, as: UTF8.self))
    }

    @Test("Without a temporary file, or when writing to it fails at once (a full disk), the bytes are held in memory: the same answer")
    func memory() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        for spool in [nil, full] {
            let file = written(spool: spool)
            let (body, head) = try sent(file)
            #expect(body == bytes)
            #expect(head.contains("\r\nETag: \(Digest.entityTag(of: bytes))\r\n"))
            #expect(PreparedResponse(try file.response(headers: [], label: 7)).bodyFile == nil, "held in memory")
        }
    }

    @Test("A temporary file that fails part way and cannot be read back loses the bytes: 503, never a wrong answer")
    func lost() throws {
        // A pipe takes its buffer's worth, then refuses (non-blocking), and cannot be read back with pread.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        let file = written(spool: ends[1])
        #expect(throws: ServiceError.self) { try file.response(headers: [], label: 7) }
        let output = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(output) }
        #expect(!file.copy(to: output))
    }
}
