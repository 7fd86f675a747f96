@testable import HTTPServer
import Testing

/// A harness whose handler accepts the bodies of `POST /upload` only, with small limits.
private func uploadHarness(
    maxUpload: Int = 100, heldUploads: Int = 1000, chunking: Chunking = .allAtOnce, accessRecords: Bool = false
) -> ConnectionHarness {
    var harness = ConnectionHarness(
        { configuration in
            configuration.maxUploadBytes = maxUpload
            configuration.maxHeldUploadBytes = heldUploads
            configuration.maxDiscardedBodyBytes = 10
            configuration.bodyTimeout = 30
        },
        accessRecords: accessRecords,
        adjust: { $0.acceptsBody = { $0.method == .post && $0.path == "/upload" } }
    )
    harness.readChunk = chunking.size ?? .max
    return harness
}

private let uploadHead = "POST /upload HTTP/1.1\r\nHost: x\r\n"

@Suite("Connection state machine: bodies the handler takes")
struct ConnectionUploadTests {
    @Test(
        "RFC 9112 §6.2, §7.1: a body is handed over whole (Content-Length or chunked), and a pipelined request after it is the next",
        arguments: [
            "Content-Length: 13\r\n\r\nhello, world!",
            "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n8;ext=1\r\n, world!\r\n0\r\nTrailer: t\r\n\r\n",
        ],
        Chunking.allCases
    )
    func bodyHandedOver(framingAndBody: String, chunking: Chunking) {
        var harness = uploadHarness(chunking: chunking)
        harness.handler = { _ in okResponse() }
        harness.clientSends(uploadHead + framingAndBody + "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/upload", "/next"])
        #expect(harness.dispatched.first?.body?.bytes == Array("hello, world!".utf8))
        #expect(harness.dispatched.last?.body == nil)
        #expect(harness.sentText == okWire() + okWire())
    }

    @Test("RFC 9110 §15.5.14: a Content-Length over the limit is 413 at once, before any of the body is sent; also with Expect")
    func declaredTooLarge() {
        for expect in ["", "Expect: 100-continue\r\n"] {
            var harness = uploadHarness()
            harness.clientSends(uploadHead + expect + "Content-Length: 101\r\n\r\n")
            harness.run()
            #expect(harness.sentText.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
            #expect(harness.sentText.hasSuffix("Connection: close\r\n\r\nrequest body larger than 100 bytes\n"))
            #expect(harness.dispatched.isEmpty)
        }
        var exact = uploadHarness()
        exact.handler = { _ in okResponse() }
        exact.clientSends(uploadHead + "Content-Length: 100\r\n\r\n" + String(repeating: "x", count: 100))
        exact.run()
        #expect(exact.dispatched.first?.body?.count == 100)
    }

    @Test("A chunked body is 413 as soon as a chunk's size passes the limit, before its data")
    func chunkTooLarge() {
        var harness = uploadHarness()
        harness.clientSends(uploadHead + "Transfer-Encoding: chunked\r\n\r\n50\r\n" + String(repeating: "x", count: 80) + "\r\n15\r\n")
        harness.run()
        #expect(harness.sentText.hasPrefix("HTTP/1.1 413 "))
        #expect(harness.dispatched.isEmpty)
    }

    @Test("RFC 9110 §10.1.1: Expect: 100-continue on a body the handler takes gets 100 Continue, then the body is read")
    func expectContinue() {
        var harness = uploadHarness()
        harness.clientSends(uploadHead + "Expect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        harness.run()
        #expect(harness.takeSentText() == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(harness.dispatched.isEmpty)
        harness.exchange("abc", okResponse())
        #expect(harness.dispatched.first?.body?.bytes == Array("abc".utf8))
        #expect(harness.sentText == okWire())
        #expect(!harness.closed)
    }

    @Test("RFC 9110 §10.1.1: Expect: 100-continue on a body nobody takes is answered at once, without 100, and closed")
    func expectDeclined() {
        var harness = uploadHarness()
        harness.clientSends("PUT /elsewhere HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000000\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/elsewhere"])
        #expect(harness.dispatched.first?.body == nil)
        harness.respond(0, HTTPResponse(status: 405, body: Array("no\n".utf8)))
        harness.run()
        #expect(harness.sentText.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(harness.sentText.contains("\r\nConnection: close\r\n"))
        #expect(!harness.sentText.contains("100 Continue"))
        // The client may send the body anyway: it is dropped while the connection lingers.
        #expect(harness.outputShutDown)
        harness.clientSends(String(repeating: "x", count: 5000))
        harness.clientCloses()
        harness.run()
        #expect(harness.closed)
        #expect(harness.dispatched.count == 1)
    }

    @Test("A body on a request that does not take one (a GET) is read and dropped, and the next request follows")
    func bodyOnGet() {
        var harness = uploadHarness()
        harness.handler = { _ in okResponse() }
        harness.clientSends("GET /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/upload", "/b"])
        #expect(harness.dispatched.allSatisfy { $0.body == nil })
        var large = uploadHarness()
        large.clientSends("GET /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
        large.run()
        #expect(large.sentText.hasSuffix("request body larger than 10 bytes\n"))
    }

    @Test("an accepted body has its own deadline (--body-timeout) from the end of the head; then 408 and close")
    func bodyDeadline() {
        var harness = uploadHarness()
        harness.clientSends(uploadHead + "Content-Length: 10\r\n\r\nabc")
        harness.run()
        #expect(harness.machine.timer == ConnectionTimer(kind: .body, deadline: harness.time(30)))
        // Trickling does not move it, and the header timeout (10 s) does not apply.
        harness.now = 20
        harness.clientSends("def")
        harness.run()
        harness.advance(to: 29.999)
        #expect(harness.sent.isEmpty)
        harness.advance(to: 30)
        #expect(harness.sentText.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(harness.sentText.hasSuffix("Connection: close\r\n\r\nrequest body not received within 30 s\n"))
        #expect(harness.dispatched.isEmpty)
        #expect(harness.completed.first?.problem == "request body not received within 30 s")
    }

    @Test("Bodies held at once are bounded: one that would pass the budget is 503 with Retry-After, before it is read")
    func uploadBudget() {
        var first = uploadHarness(heldUploads: 150)
        first.clientSends(uploadHead + "Content-Length: 100\r\n\r\n" + String(repeating: "x", count: 100))
        first.run()
        #expect(first.dispatched.count == 1)
        // The first body is still held (its request is with the handler): a second connection on the same server is refused.
        var second = ConnectionHarness(adjust: { $0 = first.machine.settings })
        second.clientSends(uploadHead + "Content-Length: 60\r\n\r\n")
        second.run()
        #expect(second.sentText.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(second.sentText.contains("\r\nRetry-After: 1\r\n"))
        #expect(second.sentText.hasSuffix("too many uploads in progress; retry later\n"))
        // Once the handler lets the first body go, its room is free again.
        let budget = first.machine.settings.uploadBudget
        #expect(budget.heldBytes == 100)
        first.respond(0, okResponse())
        first.run()
        first.forgetDispatched()
        #expect(budget.heldBytes == 0)
    }

    @Test("An access record keeps the request, not its body: the body's room is free once the handler lets it go")
    func accessRecordWithoutBody() {
        var harness = uploadHarness(accessRecords: true)
        harness.handler = { _ in okResponse() }
        harness.clientSends(uploadHead + "Content-Length: 3\r\n\r\nabc")
        harness.run()
        #expect(harness.completed.first?.request?.path == "/upload")
        harness.forgetDispatched()
        #expect(harness.machine.settings.uploadBudget.heldBytes == 0)
    }
}
