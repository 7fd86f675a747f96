import Foundation
import Testing
import TestSupport

/// Signed URLs (README), through the real binary and `pagedots sign`.
@Suite struct SignedURLIntegrationTests {
    static let key = "correct horse battery staple"

    /// What `pagedots sign QUERY` prints, with the key from the environment.
    func signed(_ query: String) throws -> String {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["sign", query]
        process.environment = ["PAGEDOTS_SIGNING_KEY": Self.key]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return output.trimmingCharacters(in: .newlines)
    }

    @Test("With a key: unsigned, malformed and wrong signatures are 403 with one line; a signed URL is drawn")
    func keyRequiresSignatures() throws {
        let server = try ServerProcess(["--signing-key", Self.key])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let query = "pages=5&current=2&utm_source=mail"
        let good = try signed(query)
        #expect(good.hasPrefix(query + "&sig=") && good.count == query.count + 5 + 43)
        var tampered = Array(good)
        tampered[tampered.count - 1] = tampered.last == "A" ? "Q" : "A"
        let cases: [(target: String, reason: String)] = [
            ("/indicator?" + query, "signature required"),
            ("/indicator?" + query + "&sig=short", "signature malformed"),
            ("/indicator?" + String(tampered), "signature does not match"),
            // The signature covers the query exactly as sent: a reordered query no longer matches.
            ("/indicator?current=2&pages=5&utm_source=mail&sig=" + good.suffix(43), "signature does not match"),
        ]
        for refused in cases {
            client.request(refused.target)
            let response = try client.readResponse()
            #expect(response.status == 403, "\(refused.target)")
            #expect(response.text.hasPrefix(refused.reason), "\(refused.target)")
            #expect(response.text.filter { $0 == "\n" }.count == 1)
            #expect(response.header("cache-control") == "no-store")
        }
        client.request("/indicator?" + good)
        let drawn = try client.readResponse()
        #expect(drawn.status == 200)
        #expect(drawn.header("content-type") == "image/png")
        // `sig` is the signature, not an ignored parameter.
        #expect(drawn.header("x-ignored-parameters") == "utm_source")
        let metrics = try MetricsSnapshot(port: server.port)
        #expect(metrics["pagedots_render_duration_seconds_count"] == 1)
    }

    @Test("The key also comes from PAGEDOTS_SIGNING_KEY")
    func keyFromEnvironment() throws {
        let server = try ServerProcess(environment: ["PAGEDOTS_SIGNING_KEY": Self.key])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=3")
        #expect(try client.readResponse().status == 403)
        client.request("/indicator?" + (try signed("pages=3")))
        #expect(try client.readResponse().status == 200)
    }

    @Test("Without a key, sig is an unknown parameter like any other")
    func noKeyIgnoresSig() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=3&sig=anything")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("x-ignored-parameters") == "sig")
    }
}
