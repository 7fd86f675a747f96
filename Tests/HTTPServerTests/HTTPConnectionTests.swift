@testable import HTTPServer
import Testing

@Suite("Connection state machine: keep-alive and close")
struct ConnectionPersistenceTests {
    @Test("RFC 9112 §9.3: HTTP/1.1 stays open after a response and waits, idle")
    func keepAlive() {
        var harness = ConnectionHarness()
        harness.clientSends("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/a"])
        #expect(harness.sent.isEmpty)
        harness.now = 1
        harness.respond(0, okResponse())
        harness.run()
        #expect(harness.sentText == okWire())
        #expect(!harness.closed)
        #expect(harness.machine.timer == ConnectionTimer(kind: .idle, deadline: harness.time(6)))
    }

    @Test("RFC 9112 §9.3: HTTP/1.1 with Connection: close is answered with close, then closed")
    func http11Close() {
        var harness = ConnectionHarness()
        harness.exchange("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", okResponse())
        #expect(harness.sentText == okWire(connection: "close"))
        #expect(harness.closed)
        #expect(!harness.outputShutDown)
    }

    @Test("RFC 9112 §9.3: HTTP/1.0 closes unless it asks for keep-alive")
    func http10() {
        var plain = ConnectionHarness()
        plain.exchange("GET / HTTP/1.0\r\n\r\n", okResponse())
        #expect(plain.sentText == okWire(connection: "close"))
        #expect(plain.closed)

        var keepAlive = ConnectionHarness()
        keepAlive.exchange("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", okResponse())
        #expect(keepAlive.sentText == okWire(connection: "keep-alive"))
        #expect(!keepAlive.closed)
    }

    @Test("RFC 9110 §9.3.2: HEAD gets the headers, Content-Length included, and no body")
    func head() {
        var harness = ConnectionHarness()
        harness.exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", okResponse("hello"))
        #expect(harness.sentText == String(okWire("hello").dropLast(5)))
        #expect(harness.completed.first?.bodyBytes == 0)
    }

    @Test("A client that ends its input after a request gets its answer with close")
    func endOfInputAfterRequest() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.clientCloses()
        harness.run()
        harness.respond(0, okResponse())
        harness.run()
        #expect(harness.sentText == okWire(connection: "close"))
        #expect(harness.closed)
    }

    @Test("A client that ends its input in the middle of a head is closed without an answer")
    func endOfInputInHead() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHo")
        harness.clientCloses()
        harness.run()
        #expect(harness.closed)
        #expect(harness.sent.isEmpty)
    }
}

@Suite("Connection state machine: pipelining and backpressure")
struct ConnectionPipeliningTests {
    @Test("RFC 9112 §9.3.2: with the first answer deferred, the second request waits its turn")
    func deferredFirst() {
        var harness = ConnectionHarness()
        harness.clientSends("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/1"])
        // An answer for a request not yet handed out is ignored.
        harness.respond(1, okResponse("second"))
        harness.run()
        #expect(harness.sent.isEmpty)
        harness.respond(0, okResponse("first"))
        harness.run()
        #expect(harness.dispatchedPaths == ["/1", "/2"])
        #expect(harness.sentText == okWire("first"))
        harness.respond(1, okResponse("second"))
        harness.run()
        #expect(harness.sentText == okWire("first") + okWire("second"))
    }

    @Test("A second answer to the same request is ignored")
    func duplicateAnswer() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        harness.respond(0, okResponse("one"))
        harness.respond(0, okResponse("two"))
        harness.run()
        #expect(harness.sentText == okWire("one"))
    }

    @Test("Pipelined requests answered at once go out in order, in one write")
    func oneWritePerBatch() {
        var harness = ConnectionHarness()
        harness.handler = { okResponse(String($0.path.dropFirst())) }
        harness.clientSends((1...3).map { "GET /\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        harness.run()
        #expect(harness.sentText == okWire("1") + okWire("2") + okWire("3"))
        #expect(harness.sendCalls == 1)
    }

    @Test("Above the output bound, the connection stops reading and dispatching until the client reads")
    func backpressure() {
        var harness = ConnectionHarness(adjust: { $0.maxBufferedOutputBytes = 100 })
        harness.handler = { _ in okResponse(String(repeating: "x", count: 300)) }
        harness.writeCapacity = 0
        harness.clientSends("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/1"])
        harness.clientSends("GET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/1"])
        #expect(!harness.unread.isEmpty)
        harness.writeCapacity = nil
        harness.run()
        #expect(harness.dispatchedPaths == ["/1", "/2", "/3"])
        #expect(harness.unread.isEmpty)
        #expect(harness.completed.count == 3)
    }

    @Test("While a response is deferred, input is read only up to its bound")
    func inputBound() {
        var harness = ConnectionHarness(adjust: { $0.maxBufferedInputBytes = 200 })
        harness.readChunk = 100
        let stream = "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n" + String(repeating: "GET /n HTTP/1.1\r\nHost: x\r\n\r\n", count: 20)
        harness.clientSends(stream)
        harness.run()
        #expect(harness.dispatchedPaths == ["/1"])
        // 100, 200 (less the first head), then 300 bytes read: past the bound, reading stops.
        #expect(harness.unread.count == stream.utf8.count - 300)
        harness.handler = { _ in okResponse() }
        harness.respond(0, okResponse())
        harness.run()
        #expect(harness.dispatched.count == 21)
        #expect(harness.unread.isEmpty)
    }
}

@Suite("Connection state machine: timeouts on a fake clock")
struct ConnectionTimeoutTests {
    @Test("the header timeout is a deadline from the head's first byte; trickling does not extend it")
    func headerDeadline() {
        var harness = ConnectionHarness()
        harness.now = 1
        harness.clientSends("GET / HTTP/1.1\r\n")
        harness.run()
        #expect(harness.machine.timer == ConnectionTimer(kind: .request, deadline: harness.time(11)))
        for second in [4.0, 8, 10.5] {
            harness.now = second
            harness.clientSends("X-\(Int(second)): y\r\n")
            harness.run()
            #expect(harness.machine.timer == ConnectionTimer(kind: .request, deadline: harness.time(11)))
        }
        harness.advance(to: 10.999)
        #expect(harness.sent.isEmpty)
        harness.advance(to: 11)
        #expect(harness.sentText.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(harness.sentText.contains("\r\nConnection: close\r\n"))
        #expect(harness.sentText.hasSuffix("\r\n\r\nrequest not received within 10 s\n"))
        // Then it lingers, reading what the client still sends, until the client closes.
        #expect(harness.outputShutDown)
        #expect(!harness.closed)
        harness.clientSends("more")
        harness.clientCloses()
        harness.run()
        #expect(harness.closed)
    }

    @Test("the header deadline also covers a body that trickles in")
    func bodyDeadline() {
        var harness = ConnectionHarness()
        harness.clientSends("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        harness.run()
        harness.advance(to: 10)
        #expect(harness.sentText.hasPrefix("HTTP/1.1 408 "))
        #expect(harness.dispatched.isEmpty)
    }

    @Test("a new connection idle for the idle timeout is closed without a response")
    func idleNewConnection() {
        var harness = ConnectionHarness()
        harness.run()
        harness.advance(to: 4.999)
        #expect(!harness.closed)
        harness.advance(to: 5)
        #expect(harness.closed)
        #expect(harness.sent.isEmpty)
    }

    @Test("after a response, idleness counts from when its last byte was written")
    func idleAfterResponse() {
        var harness = ConnectionHarness()
        harness.writeCapacity = 0
        harness.now = 1
        harness.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", okResponse())
        #expect(harness.machine.timer == ConnectionTimer(kind: .send, deadline: harness.time(31)))
        harness.now = 3
        harness.writeCapacity = nil
        harness.run()
        #expect(harness.machine.timer == ConnectionTimer(kind: .idle, deadline: harness.time(8)))
        harness.advance(to: 8)
        #expect(harness.closed)
    }

    @Test("a response the client reads none of for the send timeout (30 s by default) is abandoned, its connection closed")
    func sendTimeout() {
        #expect(HTTPServerConfiguration().sendTimeout == 30)
        var harness = ConnectionHarness()
        harness.writeCapacity = 0
        harness.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", okResponse())
        harness.advance(to: 29.999)
        #expect(!harness.closed)
        harness.advance(to: 30)
        #expect(harness.closed)
        // Abandoned: what the kernel still holds for the client is dropped too.
        #expect(harness.reset)
        #expect(harness.completed.isEmpty)
    }

    @Test("any progress restarts the send timeout: a slow reader is served, a stalled one is not")
    func sendTimeoutCountsFromProgress() {
        var harness = ConnectionHarness({ $0.sendTimeout = 2 })
        harness.writeCapacity = 0
        harness.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", okResponse(String(repeating: "x", count: 100)))
        // The client takes 10 bytes every 1.5 s: never 2 s without progress.
        for step in 1...6 {
            harness.advance(to: Double(step) * 1.5)
            #expect(!harness.closed)
            harness.writeCapacity = 10
            harness.run()
            #expect(harness.machine.timer == ConnectionTimer(kind: .send, deadline: harness.time(harness.now + 2)))
        }
        // Then it stops reading.
        harness.advance(to: 9 + 1.999)
        #expect(!harness.closed)
        harness.advance(to: 9 + 2)
        #expect(harness.closed)
        #expect(harness.reset)
        #expect(harness.sent.count == 60)
    }

    @Test("While the handler works, no timer runs")
    func noTimerWhileHandling() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.machine.timer == nil)
        harness.advance(to: 100)
        #expect(!harness.closed)
    }
}

@Suite("Connection state machine: drain")
struct ConnectionDrainTests {
    @Test("an idle connection is closed at once")
    func idle() {
        var harness = ConnectionHarness()
        harness.run()
        harness.machine.beginDrain()
        harness.run()
        #expect(harness.closed)
        #expect(harness.sent.isEmpty)
    }

    @Test("a request with the handler is answered, with Connection: close, then closed")
    func inFlight() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        harness.machine.beginDrain()
        harness.run()
        #expect(!harness.closed)
        harness.respond(0, okResponse())
        harness.run()
        #expect(harness.sentText == okWire(connection: "close"))
        #expect(harness.closed)
    }

    @Test("every pipelined head that has arrived is answered; the last answer closes")
    func pipelined() {
        var harness = ConnectionHarness()
        harness.clientSends("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHo")
        harness.run()
        harness.machine.beginDrain()
        harness.respond(0, okResponse("1"))
        harness.run()
        harness.respond(1, okResponse("2"))
        harness.run()
        #expect(harness.dispatchedPaths == ["/1", "/2"])
        #expect(harness.sentText == okWire("1") + okWire("2", connection: "close"))
        // The partial head is still unread: linger, so that closing does not reset the answers.
        #expect(harness.outputShutDown)
        harness.clientCloses()
        harness.run()
        #expect(harness.closed)
    }

    @Test("a head that has not fully arrived is not waited for")
    func partialHead() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\nHost")
        harness.run()
        harness.machine.beginDrain()
        harness.run()
        #expect(harness.closed)
        #expect(harness.sent.isEmpty)
    }
}

@Suite("Connection state machine: bodies and errors")
struct ConnectionBodyAndErrorTests {
    @Test(
        "RFC 9112 §6.3, §7.1: a body (Content-Length or chunked) is read and dropped, never taken as a request",
        arguments: [
            "Content-Length: 30\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x",
            "Transfer-Encoding: chunked\r\n\r\n4\r\nGET \r\n10\r\n/smuggled HTTP/1\r\n0\r\n\r\n",
        ],
        Chunking.allCases
    )
    func bodyDropped(framingAndBody: String, chunking: Chunking) {
        var harness = ConnectionHarness()
        harness.readChunk = chunking.size ?? .max
        harness.handler = { _ in okResponse() }
        harness.clientSends("POST /p HTTP/1.1\r\nHost: x\r\n" + framingAndBody + "GET /g HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatchedPaths == ["/p", "/g"])
    }

    @Test("RFC 9110 §15.5.14: a body over the limit is 413 and the connection closes")
    func bodyTooLarge() {
        var declared = ConnectionHarness({ $0.maxDiscardedBodyBytes = 100 })
        declared.clientSends("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
        declared.run()
        #expect(declared.sentText.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(declared.sentText.hasSuffix("Connection: close\r\n\r\nrequest body larger than 100 bytes\n"))
        #expect(declared.dispatched.isEmpty)

        var chunked = ConnectionHarness({ $0.maxDiscardedBodyBytes = 100 })
        chunked.clientSends("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "1\r\nx\r\n", count: 101))
        chunked.run()
        #expect(chunked.sentText.hasPrefix("HTTP/1.1 413 "))
        #expect(chunked.dispatched.isEmpty)
    }

    @Test("A protocol error is answered once with close; the server then lingers until the client closes")
    func protocolError() {
        var harness = ConnectionHarness()
        harness.clientSends("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.dispatched.isEmpty)
        #expect(harness.sentText.hasPrefix("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"))
        #expect(harness.sentText.hasSuffix("Connection: close\r\n\r\nHTTP/1.1 request without a Host header\n"))
        #expect(harness.outputShutDown)
        #expect(harness.machine.timer?.kind == .linger)
        harness.clientCloses()
        harness.run()
        #expect(harness.closed)
        #expect(harness.completed.map(\.status) == [400])
        #expect(harness.completed.first?.label == 0)
        #expect(harness.completed.first?.problem == "HTTP/1.1 request without a Host header")
    }

    @Test("A client that never closes after an error is closed at the linger deadline")
    func lingerDeadline() {
        var harness = ConnectionHarness()
        harness.clientSends("BAD\r\n")
        harness.run()
        #expect(harness.outputShutDown)
        harness.advance(to: 2)
        #expect(harness.closed)
    }

    @Test("Over the connection limit: 503 with Retry-After, then close")
    func rejected() {
        var harness = ConnectionHarness(rejecting: .tooManyConnections)
        harness.run()
        #expect(harness.sentText.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(harness.sentText.contains("\r\nRetry-After: 1\r\n"))
        #expect(harness.sentText.contains("\r\nCache-Control: no-store\r\n"))
        #expect(harness.outputShutDown)
    }
}

@Suite("Connection state machine: completed responses")
struct ConnectionReportingTests {
    @Test("A response is reported when its last byte is written, timed from its head")
    func timing() {
        var harness = ConnectionHarness(accessRecords: true)
        harness.writeCapacity = 0
        harness.now = 1
        harness.clientSends("GET /x?y=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        harness.now = 1.25
        harness.respond(0, okResponse("body", label: 7))
        harness.run()
        #expect(harness.completed.isEmpty)
        harness.now = 1.5
        harness.writeCapacity = 10
        harness.run()
        #expect(harness.completed.isEmpty)
        harness.writeCapacity = nil
        harness.run()
        #expect(harness.completed.count == 1)
        let completed = harness.completed.first
        #expect(completed?.status == 200)
        #expect(completed?.label == 7)
        #expect(completed?.seconds == 0.5)
        #expect(completed?.bodyBytes == 4)
        #expect(completed?.problem == nil)
        #expect(completed?.request?.method == .get)
        #expect(completed?.request?.path == "/x")
        #expect(completed?.request?.query == "y=1")
        #expect(completed?.request?.version == .http1_1)
        #expect(completed?.request?.header("Host") == "x")
    }

    @Test("Without access records, the request is not kept")
    func noSummary() {
        var harness = ConnectionHarness()
        harness.handler = { _ in okResponse() }
        harness.clientSends("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.run()
        #expect(harness.completed.count == 1)
        #expect(harness.completed.first?.request == nil)
    }

    @Test("An answer after the connection closed is ignored")
    func answerAfterClose() {
        var harness = ConnectionHarness({ $0.sendTimeout = 1 })
        harness.clientSends("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        harness.writeCapacity = 0
        harness.run()
        harness.respond(0, okResponse())
        harness.run()
        #expect(harness.dispatchedPaths == ["/1", "/2"])
        harness.advance(to: 1)
        #expect(harness.closed)
        harness.respond(1, okResponse())
        harness.run()
        #expect(harness.sent.isEmpty)
    }
}
