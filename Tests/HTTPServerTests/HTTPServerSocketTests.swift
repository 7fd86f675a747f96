import Dispatch
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `Date: <IMF-fixdate>` (RFC 9110 §5.6.7).
private var datePattern: Regex<(Substring, Substring, Substring)> {
    /Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT\r\n/
}

/// `text` with its Date line replaced by `Date: *`, after checking its format.
private func withoutDate(_ text: String?) -> String? {
    guard let text else { return nil }
    #expect(text.firstMatch(of: datePattern) != nil, "no IMF-fixdate Date line in \(text.debugDescription)")
    return text.replacing(datePattern, with: "Date: *\r\n")
}

private let helloResponse = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nDate: *\r\n\r\nhello"

private func helloResponse(connection: String) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nDate: *\r\nConnection: \(connection)\r\n\r\nhello"
}

private func echoResponse(_ text: String, connection: String? = nil) -> String {
    "HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\nDate: *\r\n" + (connection.map { "Connection: \($0)\r\n" } ?? "") + "\r\n" + text
}

@Suite("Server on 127.0.0.1: HTTP/1.1 on the wire")
struct HTTPServerWireTests {
    @Test("The response's exact bytes: status line, headers, IMF-fixdate Date, body")
    func exactBytes() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(withoutDate(client.readResponse()) == helloResponse)
    }

    @Test("RFC 9112 §9.3: keep-alive serves several requests on one connection; Connection: close ends it")
    func keepAlive() throws {
        let server = try TestServer()
        let client = try server.client()
        for index in 1...3 {
            client.send("GET /echo?\(index) HTTP/1.1\r\nHost: localhost\r\nX-Test: \(index)\r\n\r\n")
            #expect(withoutDate(client.readResponse()) == echoResponse("GET /echo \(index) \(index)"))
        }
        client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(withoutDate(client.readToEnd()) == helloResponse(connection: "close"))
        server.stop()
        #expect(server.observer.current.opened == 1)
    }

    @Test("RFC 9112 §9.3.2: pipelined requests in one write are answered in order")
    func pipelining() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send(
            "GET /echo?1 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /echo?3 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        )
        let expected = echoResponse("GET /echo 1 -")
            + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nDate: *\r\n\r\n"
            + echoResponse("GET /echo 3 -", connection: "close")
        #expect(withoutDate(client.readToEnd()) == expected)
    }

    @Test("RFC 9110 §9.3.2: HEAD gets Content-Length and no body")
    func head() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("HEAD /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(withoutDate(client.readToEnd()) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nDate: *\r\nConnection: close\r\n\r\n")
    }

    @Test("RFC 9112 §9.3: HTTP/1.0 is answered with Connection: close and closed")
    func http10() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(withoutDate(client.readToEnd()) == helloResponse(connection: "close"))
    }

    @Test("A response sent later from another thread goes out, and the pipelined request after it waits its turn")
    func deferredFromAnotherThread() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /deferred HTTP/1.1\r\nHost: a\r\n\r\nGET /echo?after HTTP/1.1\r\nHost: a\r\n\r\n")
        let responder = try #require(server.handler.nextDeferred())
        DispatchQueue.global().async {
            responder.send(HTTPResponse(status: 200, body: Array("later".utf8)))
        }
        #expect(withoutDate(client.readResponse()) == echoResponse("later"))
        #expect(withoutDate(client.readResponse()) == echoResponse("GET /echo after -"))
    }

    @Test("Responses from a thread that defers its wake-ups all go out once it flushes")
    func deferredWakeups() throws {
        let server = try TestServer()
        let clients = try (0..<4).map { _ in try server.client() }
        for client in clients { client.send("GET /deferred HTTP/1.1\r\nHost: a\r\n\r\n") }
        let responders = try clients.indices.map { _ in try #require(server.handler.nextDeferred()) }
        let worker = Thread {
            let wakeups = DeferredWakeups.beginOnThisThread()
            for (index, responder) in responders.enumerated() {
                responder.send(HTTPResponse(status: 200, body: Array("r\(index)".utf8)))
            }
            wakeups.flush()
        }
        worker.start()
        let answers = Set(clients.compactMap { withoutDate($0.readResponse()) })
        #expect(answers == Set(responders.indices.map { echoResponse("r\($0)") }))
    }

    @Test("A request body is read and dropped; the request after it is answered")
    func bodyDiscarded() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello worldGET /echo?next HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(client.readResponse()) == echoResponse("POST /echo  -"))
        #expect(withoutDate(client.readResponse()) == echoResponse("GET /echo next -"))
    }

    @Test("A large response goes out whole through partial writes")
    func largeResponse() throws {
        let server = try TestServer()
        let client = try server.client()
        let size = 8 << 20
        client.send("GET /big?\(size) HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let big = try #require(client.readResponse())
        #expect(big.hasSuffix(String(repeating: "b", count: 100)))
        #expect(big.utf8.count > size)
        #expect(withoutDate(client.readResponse()) == helloResponse)
    }

    @Test("A body sent from a file goes out whole, with its Content-Length, before the pipelined answer after it")
    func fileResponse() throws {
        let server = try TestServer()
        let client = try server.client()
        // Many times the 64 KiB a connection buffers.
        let size = 2 << 20
        client.send("GET /file?\(size) HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let answer = try #require(client.readResponseBytes())
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n".utf8)
        #expect(Array(answer.prefix(head.count)) == head)
        #expect(Array(answer.suffix(size)) == patternedBytes(size))
        #expect(withoutDate(client.readResponse()) == helloResponse)
    }

    @Test("Protocol errors are answered with their status and Connection: close, then the connection ends", arguments: [
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("GET /\(String(repeating: "a", count: 8192)) HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "a", count: 16384))\r\n\r\n", 431),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 65537\r\n\r\n", 413),
    ])
    func protocolErrors(request: String, status: Int) throws {
        let server = try TestServer()
        do {
            let client = try server.client()
            client.send(request)
            let answer = client.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 \(status) "))
            #expect(answer.contains("\r\nCache-Control: no-store\r\nContent-Length: "))
            #expect(answer.contains("\r\nConnection: close\r\n\r\n"))
            #expect(answer.hasSuffix("\n"))
        }
        // The client has closed, so the server's lingering read ends and the stop is quick.
        server.stop()
        #expect(server.observer.current.responses == [status])
        #expect(server.observer.accessRecords.first?.problem != nil)
    }
}

@Suite("Server on 127.0.0.1: limits, timeouts, shutdown, observer")
struct HTTPServerLifecycleTests {
    @Test("over maxConnections, a connection gets 503 with Retry-After: 1 and is closed")
    func connectionLimit() throws {
        let server = try TestServer { $0.maxConnections = 1 }
        let first = try server.client()
        first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(first.readResponse()) == helloResponse)
        let second = try server.client()
        let answer = second.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(answer.contains("\r\nRetry-After: 1\r\n"))
        #expect(answer.contains("\r\nConnection: close\r\n"))
        // The first connection still works.
        first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(first.readResponse()) == helloResponse)
    }

    @Test("a head not complete within the header timeout gets 408 and the connection closes")
    func headerTimeout() throws {
        let server = try TestServer { $0.headerTimeout = 0.2 }
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n")
        let answer = client.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.hasSuffix("Connection: close\r\n\r\nrequest not received within 0.2 s\n"))
    }

    @Test("an idle connection is closed without a response after the idle timeout")
    func idleTimeout() throws {
        let server = try TestServer { $0.idleTimeout = 0.2 }
        let fresh = try server.client()
        #expect(fresh.readToEnd() == "")
        let keptAlive = try server.client()
        keptAlive.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(keptAlive.readToEnd()) == helloResponse)
    }

    @Test("a client that reads none of a large response for the send timeout has it abandoned and its connection reset")
    func sendTimeout() throws {
        let server = try TestServer { $0.sendTimeout = 0.3 }
        let client = try server.client()
        // 32 MB: more than the kernel buffers of both ends hold.
        let size = 32 << 20
        client.send("GET /big?\(size) HTTP/1.1\r\nHost: a\r\n\r\n")
        // Not a byte read until the server has closed the connection.
        #expect(server.observer.waitForClosedConnection())
        // Reset: what the kernels held is gone, whatever was read before the reset arrived.
        #expect(client.readToEnd().utf8.count < size)
        #expect(client.lastError == ECONNRESET)
        #expect(server.observer.current.responses.isEmpty)
    }

    @Test("shutdown closes idle connections at once, answers the request in flight with close, then stops")
    func shutdownDrains() throws {
        let server = try TestServer()
        let busy = try server.client()
        busy.send("GET /deferred HTTP/1.1\r\nHost: a\r\n\r\n")
        let responder = try #require(server.handler.nextDeferred())
        let idle = try server.client()
        idle.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(idle.readResponse()) == helloResponse)

        server.server.shutdown()
        server.server.shutdown()
        #expect(idle.readToEnd() == "")
        responder.send(HTTPResponse(status: 200, body: Array("drained".utf8)))
        #expect(withoutDate(busy.readToEnd()) == echoResponse("drained", connection: "close"))
        server.server.wait()
        #expect(throws: LoopbackConnectError.self) { try server.client() }
        #expect(server.observer.current.opened == 2)
        #expect(server.observer.current.closed == 2)
    }

    @Test("a request still in the handler after the drain timeout is cut off")
    func drainTimeout() throws {
        let server = try TestServer { $0.drainTimeout = 0.2 }
        let client = try server.client()
        client.send("GET /deferred HTTP/1.1\r\nHost: a\r\n\r\n")
        let responder = try #require(server.handler.nextDeferred())
        server.stop()
        #expect(client.readToEnd() == "")
        // Answering after the connection is gone does nothing.
        responder.send(HTTPResponse(status: 200))
    }

    @Test("The observer sees every connection and response; access records say who asked what")
    func observer() throws {
        let server = try TestServer()
        for _ in 1...3 {
            let client = try server.client()
            client.send("GET /echo?q=1 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            _ = client.readToEnd()
        }
        server.stop()
        let counts = server.observer.current
        #expect(counts.opened == 3)
        #expect(counts.closed == 3)
        #expect(counts.responses == [200, 200, 200, 200, 200, 200])
        let records = server.observer.accessRecords
        #expect(records.map(\.method) == ["GET", "HEAD", "GET", "HEAD", "GET", "HEAD"])
        #expect(records.first?.target == "/echo?q=1")
        #expect(records.first?.label == 2)
        #expect(records.first?.request?.version == .http1_1)
        #expect(records.first?.peer.hasPrefix("127.0.0.1:") == true)
        // Each connection's two responses come from the one loop that serves it.
        #expect(records.allSatisfy { (0..<2).contains($0.loop) })
        #expect(stride(from: 0, to: records.count, by: 2).allSatisfy { records[$0].loop == records[$0 + 1].loop })
        #expect(records[1].bodyBytes == 0)
        #expect(records.allSatisfy { $0.seconds >= 0 && $0.problem == nil })
    }

    @Test("A port in use, a host that does not resolve, and a bad setting are one-line start errors")
    func startErrors() throws {
        let running = try TestServer()
        var configuration = HTTPServerConfiguration()
        configuration.port = running.port
        let taken = HTTPServer(configuration: configuration, handler: TestHandler())
        #expect(throws: HTTPServerError.self) { try taken.start() }
        do {
            try taken.start()
        } catch {
            #expect(error.description == "cannot listen on 127.0.0.1:\(running.port): the port is already in use")
        }

        configuration = HTTPServerConfiguration()
        configuration.host = "no-such-host.invalid"
        configuration.port = 0
        let badHost = HTTPServer(configuration: configuration, handler: TestHandler())
        do {
            try badHost.start()
            Issue.record("a bad host started")
        } catch {
            #expect(error.description.hasPrefix("cannot listen on no-such-host.invalid: "))
            #expect(!error.description.contains("\n"))
        }

        configuration = HTTPServerConfiguration()
        configuration.idleTimeout = 0
        #expect(throws: HTTPServerError.self) { try HTTPServer(configuration: configuration, handler: TestHandler()).start() }
        // A server that never started stops at once.
        HTTPServer(configuration: configuration, handler: TestHandler()).wait()
    }

    @Test("A client that resets mid-response does not disturb the server")
    func clientReset() throws {
        let server = try TestServer()
        for _ in 1...5 {
            let client = try server.client()
            client.send(String(repeating: "GET /big?1000000 HTTP/1.1\r\nHost: a\r\n\r\n", count: 4))
        }
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(withoutDate(client.readResponse()) == helloResponse)
    }
}
