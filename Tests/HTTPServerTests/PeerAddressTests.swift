import HTTPServer
import Testing

/// Answers every request with its `peerAddress`, dotted.
private final class PeerEcho: HTTPHandler {
    func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        let text = request.peerAddress.map(String.init).joined(separator: ".")
        responder.send(HTTPResponse(status: 200, body: Array(text.utf8)))
    }
}

@Suite struct PeerAddressTests {
    @Test("A request carries its connection's peer address, on every request of the connection")
    func requestsKnowTheirPeer() throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 1
        let server = HTTPServer(configuration: configuration, handler: PeerEcho())
        try server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        let client = try TestClient(port: server.port)
        for _ in 0..<2 {
            client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse()?.hasSuffix("\r\n\r\n127.0.0.1") == true)
        }
        #expect(HTTPRequest(method: .get, version: .http1_1, path: "/", query: "", headers: []).peerAddress.isEmpty)
    }
}
