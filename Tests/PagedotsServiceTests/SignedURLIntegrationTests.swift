import Foundation
import Testing
import TestSupport

/// Signed URLs (README), through the real binary and `pagedots sign`.
@Suite struct SignedURLIntegrationTests {
    static let key = "correct horse battery staple"

    /// What `pagedots sign QUERY` prints, with the key (or keys, comma-separated) from the environment.
    /// These tests run `pagedots sign` between requests on one connection;
    /// on a loaded machine a process can take longer to start than the idle
    /// timeout (5 s), which would close the connection. They are not about it.
    static let patient = ["--idle-timeout", "600"]

    func signed(_ query: String, keys: String = key) throws -> String {
        let run = try runPagedots(["sign", query], environment: ["PAGEDOTS_SIGNING_KEY": keys])
        #expect(run.status == 0)
        return String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test("With a key: unsigned, malformed and wrong signatures are 403 with one line; a signed URL is drawn")
    func keyRequiresSignatures() throws {
        let server = try ServerProcess(["--signing-key", Self.key] + Self.patient)
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
        let server = try ServerProcess(Self.patient, environment: ["PAGEDOTS_SIGNING_KEY": Self.key])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=3")
        #expect(try client.readResponse().status == 403)
        client.request("/indicator?" + (try signed("pages=3")))
        #expect(try client.readResponse().status == 200)
    }

    @Test("Several keys: a URL signed with any is drawn, pagedots sign uses the first, a third key is refused")
    func keyRotation() throws {
        let (new, old, third) = ("the new key of sixteen+", "the old key of sixteen+", "someone else's key of 16+")
        #expect(try signed("pages=4", keys: "\(new),\(old)") == (try signed("pages=4", keys: new)))
        let server = try ServerProcess(["--signing-key", new, "--signing-key", old] + Self.patient)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        for (key, status) in [(new, 200), (old, 200), (third, 403)] {
            client.request("/indicator?" + (try signed("pages=5&current=1", keys: key)))
            let response = try client.readResponse()
            #expect(response.status == status, "\(key)")
            if status == 403 { #expect(response.text == "signature does not match this query\n") }
        }
        // Both keys from the environment, comma-separated.
        let environment = try ServerProcess(Self.patient, environment: ["PAGEDOTS_SIGNING_KEY": "\(new),\(old)"])
        defer { environment.stop() }
        let other = try HTTPTestClient(port: environment.port)
        other.request("/indicator?" + (try signed("pages=6", keys: old)))
        #expect(try other.readResponse().status == 200)
    }

    @Test("expires: valid until then, with max-age the seconds left; then a 403 that says it expired")
    func expiry() throws {
        // 2025-03-03T10:00:00Z is 1740996000.
        let server = try ServerProcess(["--signing-key", Self.key, "--now", "2025-03-03T10:00:00Z"] + Self.patient)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?" + (try signed("pages=5&expires=1740996100")))
        let valid = try client.readResponse()
        #expect(valid.status == 200)
        #expect(valid.header("cache-control") == "public, max-age=100")
        #expect(valid.header("x-ignored-parameters") == nil)
        // Asked again: not answered from a remembered URL, the seconds left worked out again.
        client.request("/indicator?" + (try signed("pages=5&expires=1740996100")))
        #expect(try client.readResponse().header("cache-control") == "public, max-age=100")
        for expired in ["pages=5&expires=1740996000", "pages=5&expires=1"] {
            client.request("/indicator?" + (try signed(expired)))
            let refused = try client.readResponse()
            #expect(refused.status == 403 && refused.header("cache-control") == "no-store")
            #expect(refused.text.hasPrefix("expired: this URL was valid until "), "\(refused.text)")
        }
        // expires is inside the signed part: changing it breaks the signature.
        let signedURL = try signed("pages=5&expires=1740996100")
        client.request("/indicator?" + signedURL.replacingOccurrences(of: "1740996100", with: "1740999999"))
        #expect(try client.readResponse().status == 403)
        // With a calendar page, the sooner of the two.
        client.request("/indicator?" + (try signed("pages=7&start=2025-03-03T10:01Z&every=1d&expires=1740996100")))
        #expect(try client.readResponse().header("cache-control") == "public, max-age=60")
        client.request("/indicator?" + (try signed("pages=7&start=2025-03-03T09:00Z&every=1d&expires=1740997000")))
        let firstDay = try client.readResponse()
        #expect(firstDay.header("cache-control") == "public, max-age=1000" && firstDay.header("x-current-page") == "0")
        client.request("/indicator?" + (try signed("pages=5&expires=soon")))
        #expect(try client.readResponse().status == 400)
    }

    @Test("Without a key, expires is validated and has no effect")
    func expiresWithoutAKey() throws {
        let server = try ServerProcess(["--now", "2025-03-03T10:00:00Z"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=5&expires=1")
        let kept = try client.readResponse()
        #expect(kept.status == 200 && kept.header("cache-control") == "public, max-age=31536000, immutable")
        #expect(kept.header("x-ignored-parameters") == nil)
        client.request("/indicator?pages=5&expires=tomorrow")
        let refused = try client.readResponse()
        #expect(refused.status == 400)
        #expect(refused.text == "expires: must be an integer from 0 to 253402300799 (seconds since 1970, UTC); got \"tomorrow\"\n")
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
