import Glibc
@testable import HTTPServer
import Testing

/// A body file holding `bytes` in an unlinked temporary file, claiming `count` bytes (all of them by default).
func temporaryBodyFile(_ bytes: [UInt8], count: Int? = nil) throws -> HTTPBodyFile {
    var template = Array("/tmp/pagedots-body-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    try #require(descriptor >= 0)
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    try #require(written == bytes.count)
    return HTTPBodyFile(descriptor: descriptor, count: count ?? bytes.count)
}

/// Bytes that differ from place to place, so that a piece out of order shows.
func patternedBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
}

@Suite("Connection state machine: bodies sent from a file")
struct ConnectionBodyFileTests {
    /// `200 OK` whose body is `file`'s.
    func fileResponse(_ file: HTTPBodyFile) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "image/gif")], bodyFile: file, label: 5)
    }

    func fileWireHead(count: Int) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: \(count)\r\n" + ConnectionHarness.dateLine + "\r\n"
    }

    @Test("A slow reader gets the whole file, while the connection holds at most about twice its output bound; the next request waits for it")
    func slowReader() throws {
        let body = patternedBytes(100_000)
        let file = try temporaryBodyFile(body)
        var harness = ConnectionHarness(adjust: { $0.maxBufferedOutputBytes = 1000 })
        harness.handler = { $0.path == "/file" ? fileResponse(file) : okResponse() }
        harness.clientSends("GET /file HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        var largestPending = 0
        while harness.dispatchedPaths.count < 2 {
            harness.writeCapacity = 700
            harness.run()
            largestPending = max(largestPending, harness.machine.withPendingOutput { $0.count })
            // The next request is handed out only once the file is all in the output.
            if harness.dispatchedPaths.count < 2 { #expect(harness.sent.count < fileWireHead(count: body.count).utf8.count + body.count) }
        }
        harness.writeCapacity = nil
        harness.run()
        #expect(largestPending <= 2000)
        #expect(harness.sent == Array(fileWireHead(count: body.count).utf8) + body + Array(okWire().utf8))
        #expect(harness.completed.map(\.bodyBytes) == [body.count, 2])
        #expect(harness.completed.map(\.label) == [5, 1])
    }

    @Test("RFC 9110 §9.3.2: HEAD gets the file's Content-Length and none of its bytes")
    func head() throws {
        let file = try temporaryBodyFile(patternedBytes(5000))
        var harness = ConnectionHarness()
        harness.handler = { _ in fileResponse(file) }
        harness.clientSends("HEAD /file HTTP/1.1\r\nHost: x\r\n\r\nGET /file HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.sent == Array((fileWireHead(count: 5000) + fileWireHead(count: 5000)).utf8) + patternedBytes(5000))
    }

    @Test("A file shorter than its Content-Length cuts the response short: the connection is reset")
    func shortFile() throws {
        let file = try temporaryBodyFile(patternedBytes(3000), count: 5000)
        var harness = ConnectionHarness(adjust: { $0.maxBufferedOutputBytes = 1000 })
        harness.handler = { _ in fileResponse(file) }
        harness.clientSends("GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.reset)
        #expect(harness.completed.isEmpty)
        #expect(harness.sent.count < fileWireHead(count: 5000).utf8.count + 5000)
    }

    @Test("An empty body file sends a Content-Length of 0")
    func emptyFile() throws {
        let file = try temporaryBodyFile([])
        var harness = ConnectionHarness()
        harness.handler = { _ in fileResponse(file) }
        harness.clientSends("GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.sentText == fileWireHead(count: 0))
        #expect(harness.completed.count == 1)
    }
}
