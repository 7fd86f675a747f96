import HTTPServer
import Testing
import TestSupport

/// `count` bytes of every value, in an order that a lost or repeated piece would change the checksum of.
private func uploadBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
}

/// The wire form of `bytes` as chunks of `size`, with an extension and a trailer.
private func chunked(_ bytes: [UInt8], size: Int) -> [UInt8] {
    var wire: [UInt8] = []
    for start in stride(from: 0, to: bytes.count, by: size) {
        let end = min(bytes.count, start + size)
        wire += Array("\(String(end - start, radix: 16));n=\(start)\r\n".utf8) + bytes[start..<end] + [13, 10]
    }
    return wire + Array("0\r\nX-Checksum: none\r\n\r\n".utf8)
}

@Suite("Server on 127.0.0.1: request bodies on the wire")
struct HTTPServerUploadTests {
    @Test("A 5 MiB body (Content-Length) reaches the handler whole; the request pipelined after it is answered next")
    func largeBody() throws {
        // Deadlines far off: a loaded machine running the whole suite under a sanitizer
        // moves 5 MiB slowly, and a lapsed deadline closes the connection with the
        // client still sending, which resets it and loses the answer.
        let server = try TestServer {
            $0.bodyTimeout = 300
            $0.headerTimeout = 300
            $0.sendTimeout = 300
            $0.idleTimeout = 300
        }
        let client = try server.client()
        let body = uploadBytes(5 << 20)
        client.send(Array("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            + Array("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(client.readResponse()?.hasSuffix("\r\n\r\n" + uploadSummary(body)) == true)
        #expect(client.readResponse()?.hasSuffix("hello") == true)
    }

    @Test("RFC 9112 §7.1: a chunked body of many chunks reaches the handler decoded")
    func chunkedBody() throws {
        let server = try TestServer()
        let client = try server.client()
        let body = uploadBytes(300_000)
        client.send(Array("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + chunked(body, size: 1000))
        #expect(client.readResponse()?.hasSuffix("\r\n\r\n" + uploadSummary(body)) == true)
    }

    @Test("RFC 9110 §10.1.1: Expect: 100-continue gets 100 Continue, then the body is answered")
    func expectContinue() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("POST /upload HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(client.readResponse() == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hello")
        #expect(client.readResponse()?.hasSuffix("\r\n\r\n" + uploadSummary(Array("hello".utf8))) == true)
    }

    @Test("A Content-Length over the limit is answered 413 before the body is sent")
    func tooLargeBeforeBody() throws {
        let server = try TestServer { $0.maxUploadBytes = 1 << 20 }
        let client = try server.client()
        client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n")
        let answer = client.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nrequest body larger than 1048576 bytes (1 MiB)\n"))
    }

    @Test("a slow uploader gets 408 at the body deadline, while another client on the same loop is served")
    func slowUploader() throws {
        let server = try TestServer {
            $0.eventLoops = 1
            $0.bodyTimeout = 0.5
        }
        // Its 100 Continue says the server is reading its body when the other client asks.
        let slow = try server.client()
        slow.send("POST /upload HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n")
        #expect(slow.readResponse() == "HTTP/1.1 100 Continue\r\n\r\n")
        slow.send("only part of it")
        let other = try server.client()
        for _ in 0..<3 {
            other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(other.readResponse()?.hasSuffix("hello") == true)
        }
        let answer = slow.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nrequest body not received within 0.5 s\n"))
        other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(other.readResponse()?.hasSuffix("hello") == true)
    }

    @Test("Bodies held at once are bounded: an upload that would pass the budget is 503, and is taken once room is free")
    func uploadBudget() throws {
        let server = try TestServer {
            $0.maxUploadBytes = 1000
            $0.maxHeldUploadBytes = 1000
        }
        // The first body is declared and never finished: its room stays taken
        // (taken once its 100 Continue has come, whichever loop the next client lands on).
        let first = try server.client()
        first.send("POST /upload HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 600\r\n\r\n")
        #expect(first.readResponse() == "HTTP/1.1 100 Continue\r\n\r\n")
        first.send("abc")
        let second = try server.client()
        second.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 600\r\n\r\n")
        let refused = second.readToEnd()
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(refused.contains("\r\nRetry-After: 1\r\n"))
        // The first client gives up: its room comes back.
        first.shutdownOutput()
        _ = first.readToEnd()
        let third = try server.client()
        third.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 600\r\n\r\n" + String(repeating: "x", count: 600))
        #expect(third.readResponse()?.hasSuffix(uploadSummary([UInt8](repeating: 0x78, count: 600))) == true)
    }
}
