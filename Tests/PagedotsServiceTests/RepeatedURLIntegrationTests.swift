import Testing
import TestSupport
@testable import PagedotsService

/// A URL requested again is answered from the cache's first level (by the
/// URL as sent, without parsing): the answers must be those of the first time.
extension ServiceIntegrationTests {
    @Test func aRepeatedURLKeepsItsOwnHeadersAndIsCountedAsAHit() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let tracked = "/indicator?pages=3&utm_source=mail"
        let expected = try rendered("pages=3")
        for _ in 0..<3 {
            client.request(tracked)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body == expected)
            #expect(response.header("x-ignored-parameters") == "utm_source")
        }
        // The same image by another URL: its own (absent) list of ignored parameters.
        for _ in 0..<2 {
            client.request("/indicator?pages=3")
            let response = try client.readResponse()
            #expect(response.body == expected)
            #expect(response.header("x-ignored-parameters") == nil)
        }
        // The same query on another image path is another image.
        client.request("/indicator.svg?pages=3&utm_source=mail")
        #expect(try client.readResponse().header("content-type") == "image/svg+xml")
        #expect(try metric("pagedots_cache_hits_total", port: server.port) == 4)
        #expect(try metric("pagedots_cache_misses_total", port: server.port) == 2)
        #expect(try metric("pagedots_render_duration_seconds_count", port: server.port) == 2)
    }

    @Test func aRepeatedURLStillAnswersHeadConditionalsAndWrongMethods() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let target = "/indicator@2x.png?pages=4&x=1"
        client.request(target)
        let full = try client.readResponse()
        let tag = try #require(full.header("etag"))

        client.request(target, method: "HEAD")
        let head = try client.readResponse(bodyless: true)
        #expect(head.status == 200)
        #expect(head.header("content-length") == String(full.body.count))
        #expect(head.header("x-ignored-parameters") == "x")

        client.request(target, headers: ["If-None-Match: W/\(tag)"])
        let notModified = try client.readResponse()
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("x-ignored-parameters") == "x")

        client.request(target, method: "POST", headers: ["Content-Length: 0"])
        #expect(try client.readResponse().status == 405)
        client.request(target)
        #expect(try client.readResponse().body == full.body)
    }

    @Test func aSignedURLServedOnceDoesNotLetOtherSignaturesThrough() throws {
        let key = "a signing key of some length"
        let server = try ServerProcess(["--signing-key", key])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let signed = URLSigner(key: key).sign("pages=5&current=1")
        for _ in 0..<2 {
            client.request("/indicator?" + signed)
            #expect(try client.readResponse().status == 200)
        }
        let tampered = signed.dropLast() + (signed.hasSuffix("A") ? "B" : "A")
        for query in [String(tampered), "pages=5&current=1", signed + "&utm=1"] {
            client.request("/indicator?" + query)
            #expect(try client.readResponse().status == 403, "\(query)")
        }
    }
}
