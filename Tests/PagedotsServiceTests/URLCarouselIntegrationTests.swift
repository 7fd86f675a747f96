import Foundation
import Testing
import TestSupport

/// An indicator small enough for the 32 × 24 fixture slides.
private let small = "style=pill&size=2&spacing=2&padding=1&inset=2"

/// The fixtures the origin serves as slides.
private let fixtures = ["baseline.jpg", "rgba.png", "still.gif"]

/// `text` percent-encoded for a query value.
private func encoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
}

/// An origin serving `fixtures` at `/s/NAME` with `headers`, and the query naming them as slides.
private func slideOrigin(headers: [String] = ["Cache-Control: max-age=60"]) throws -> (origin: LoopbackOrigin, slides: String) {
    let origin = try LoopbackOrigin()
    for name in fixtures {
        origin.respond(to: "/s/\(name)", with: .ok(UploadFixtures.bytes(name), headers: headers))
    }
    return (origin, fixtures.map { "slide=" + encoded(origin.url("/s/\($0)")) }.joined(separator: "&"))
}

/// A server allowing slides from `origin` (its loopback address allowed too).
private func server(for origin: LoopbackOrigin, _ extra: [String] = []) throws -> ServerProcess {
    try ServerProcess(["--allow-source", origin.url("/"), "--allow-private-sources"] + extra)
}

/// The response to `GET target` (or another method) on a fresh connection.
private func get(_ server: ServerProcess, _ target: String, method: String = "GET", headers: [String] = []) throws -> TestResponse {
    let client = try HTTPTestClient(port: server.port)
    client.request(target, method: method, headers: headers)
    return try client.readResponse(bodyless: method == "HEAD")
}

/// The server's metrics, as text.
private func metrics(_ server: ServerProcess) throws -> String {
    try get(server, "/metrics").text
}

/// The value of the metric line that starts with `name` (labels included), 0 when absent.
private func metric(_ text: String, _ name: String) -> Double {
    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
}

@Suite("Carousels from URLs against the real binary and a loopback origin")
struct URLCarouselIntegrationTests {
    @Test("GET of slide URLs: the bytes of the POST of the same files; public with the sources' freshness; HEAD alike")
    func sameAsUpload() throws {
        let (origin, slides) = try slideOrigin()
        let server = try server(for: origin)
        defer { server.stop() }
        let fetched = try get(server, "/carousel.gif?\(small)&\(slides)")
        #expect(fetched.status == 200, "\(fetched.text)")
        #expect(fetched.header("content-type") == "image/gif")
        let maxAge = fetched.header("cache-control").flatMap { Int($0.replacingOccurrences(of: "public, max-age=", with: "")) }
        #expect(maxAge.map { (0...60).contains($0) } == true, "\(fetched.header("cache-control") ?? "none")")
        #expect(fetched.header("x-carousel-size") == "16x12")
        #expect(fetched.header("etag")?.hasPrefix("\"") == true)
        let client = try HTTPTestClient(port: server.port)
        let upload = MultipartBody(fixtures.map { MultipartBody.Part.file("slide", $0) })
        let head = "POST /carousel.gif?\(small) HTTP/1.1\r\nHost: test\r\nContent-Type: \(MultipartBody.contentType)\r\nContent-Length: \(upload.bytes.count)\r\n\r\n"
        client.send(Array(head.utf8) + upload.bytes)
        let posted = try client.readResponse()
        #expect(posted.status == 200)
        #expect(posted.body == fetched.body)
        let headOnly = try get(server, "/carousel.gif?\(small)&\(slides)", method: "HEAD")
        #expect(headOnly.status == 200 && headOnly.body.isEmpty)
        #expect(headOnly.header("etag") == fetched.header("etag"))
        #expect(origin.requests.count == 3, "each source asked once: the repeats are the cache's")
    }

    @Test("Repeats come from the cache; If-None-Match gives 304; nothing is drawn or fetched again")
    func repeatsAndConditional() throws {
        let (origin, slides) = try slideOrigin()
        let server = try server(for: origin)
        defer { server.stop() }
        let target = "/carousel?\(small)&\(slides)"
        let first = try get(server, target)
        #expect(first.status == 200)
        let again = try get(server, target)
        #expect(again.body == first.body)
        let tag = try #require(first.header("etag"))
        let notModified = try get(server, target, headers: ["If-None-Match: \(tag)"])
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        // Another carousel of the same slides: drawn anew, its sources the kept ones, still fresh.
        let other = try get(server, target + "&dwell=2000")
        #expect(other.status == 200 && other.body != first.body)
        let text = try metrics(server)
        #expect(metric(text, "pagedots_render_duration_seconds_count") == 2)
        #expect(metric(text, "pagedots_source_fetches_total{result=\"fetched\"}") == 3)
        #expect(metric(text, "pagedots_source_fetches_total{result=\"fresh\"}") == 3)
        #expect(metric(text, "pagedots_cache_hits_total") >= 2)
        #expect(origin.requests.count == 3)
    }

    @Test("A stale source is revalidated (If-None-Match sent, 304): the kept carousel is answered, not drawn again; a changed one draws anew")
    func revalidation() throws {
        // no-cache: kept, but asked again every time.
        let (origin, slides) = try slideOrigin(headers: ["Cache-Control: no-cache", "ETag: \"v1\""])
        let server = try server(for: origin)
        defer { server.stop() }
        let target = "/carousel.gif?\(small)&\(slides)"
        let first = try get(server, target)
        #expect(first.status == 200)
        #expect(first.header("cache-control") == "public, max-age=0")
        // The origin now says not modified to validators it knows.
        for name in fixtures {
            origin.respond(to: "/s/\(name)", with: .status(304, headers: ["Cache-Control: no-cache", "ETag: \"v1\""]))
        }
        let second = try get(server, target)
        #expect(second.status == 200)
        #expect(second.body == first.body && second.header("etag") == first.header("etag"))
        let conditional = origin.requests.suffix(3)
        #expect(conditional.allSatisfy { $0.header("If-None-Match") == "\"v1\"" }, "\(conditional.map(\.headers))")
        var text = try metrics(server)
        #expect(metric(text, "pagedots_source_fetches_total{result=\"revalidated\"}") == 3)
        #expect(metric(text, "pagedots_render_duration_seconds_count") == 1, "not drawn again")
        // One source changes: a new carousel, a new tag.
        origin.respond(to: "/s/rgba.png", with: .ok(UploadFixtures.bytes("gray.png"), headers: ["Cache-Control: no-cache", "ETag: \"v2\""]))
        let third = try get(server, target)
        #expect(third.status == 200 && third.header("etag") != first.header("etag"))
        text = try metrics(server)
        #expect(metric(text, "pagedots_render_duration_seconds_count") == 2)
    }

    @Test("Refusals: not enabled, no slides, a URL or an address not allowed (the origin sees nothing), other methods")
    func refusals() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/s/a.png", with: .ok(UploadFixtures.bytes("rgba.png")))
        let plain = try ServerProcess()
        defer { plain.stop() }
        let slides = "slide=\(encoded(origin.url("/s/a.png")))&slide=\(encoded(origin.url("/s/a.png")))"
        let disabled = try get(plain, "/carousel?\(slides)")
        #expect(disabled.status == 403 && disabled.text.contains("URL slides are not enabled"))
        #expect(disabled.header("cache-control") == "no-store")
        let put = try get(plain, "/carousel", method: "PUT")
        #expect(put.status == 405 && put.header("allow") == "GET, HEAD, POST")
        // Any host, but no private addresses: every loopback form is refused before connecting.
        let open = try ServerProcess(["--allow-source", "http://*/"])
        defer { open.stop() }
        let noSlides = try get(open, "/carousel?style=pill")
        #expect(noSlides.status == 400 && noSlides.text.hasPrefix("no slides: send 2 to 20 slide=URL parameters"))
        let port = origin.port
        for host in ["127.0.0.1", "127.0.0.2", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0", "2130706433", "0x7f000001", "127.1", "017700000001", "localhost"] {
            let url = "http://\(host):\(port)/s/a.png"
            let refused = try get(open, "/carousel?slide=\(encoded(url))&slide=\(encoded(url))")
            #expect(refused.status == 403, "\(host): \(refused.status) \(refused.text)")
            #expect(refused.text.hasPrefix("slide 1: "), "\(host): \(refused.text)")
        }
        // A prefix that does not match; a URL with user information.
        let narrow = try server(for: origin, ["--allow-source", "http://127.0.0.1:\(port)/only/"])
        defer { narrow.stop() }
        let outside = try get(narrow, "/carousel?slide=\(encoded("http://127.0.0.1:1/x.png"))&\(slides)")
        #expect(outside.status == 403 && outside.text.contains("is not an allowed source"))
        let user = try get(narrow, "/carousel?slide=\(encoded("http://me@127.0.0.1:\(port)/s/a.png"))&\(slides)")
        #expect(user.status == 403 && user.text.hasPrefix("slide 1: "))
        #expect(origin.requests.isEmpty, "\(origin.requests.map(\.target))")
    }

    @Test("The source's own answers: 404 and 410 are 404, others 502; too large 413; not an image 415; too slow 504; each naming its slide")
    func sourceFailures() throws {
        let origin = try LoopbackOrigin()
        let good = UploadFixtures.bytes("rgba.png")
        origin.respond(to: "/good.png", with: .ok(good))
        origin.respond(to: "/gone.png", with: .status(410))
        origin.respond(to: "/missing.png", with: .status(404))
        origin.respond(to: "/broken.png", with: .status(500))
        origin.respond(to: "/text.txt", with: .ok(Array("not an image".utf8)))
        origin.respond(to: "/huge.png", with: LoopbackOrigin.Response(parts: [good, [UInt8](repeating: 0, count: 2 << 20)], framing: .chunked))
        origin.respond(to: "/slow.png", with: .never)
        let server = try server(for: origin, ["--max-source-mb", "1", "--source-timeout", "0.5"])
        defer { server.stop() }
        let cases: [(String, Int, String)] = [
            ("/gone.png", 404, "slide 2: its source answered 410"), ("/missing.png", 404, "slide 2: its source answered 404"),
            ("/broken.png", 502, "slide 2: its source answered 500"), ("/text.txt", 415, "slide 2: not a PNG, JPEG, GIF, WebP, HEIC or AVIF"),
            ("/huge.png", 413, "slide 2: "), ("/slow.png", 504, "slide 2: "),
        ]
        for (path, status, prefix) in cases {
            let answer = try get(server, "/carousel?\(small)&slide=\(encoded(origin.url("/good.png")))&slide=\(encoded(origin.url(path)))")
            #expect(answer.status == status, "\(path): \(answer.status) \(answer.text)")
            #expect(answer.text.hasPrefix(prefix), "\(path): \(answer.text)")
            #expect(answer.header("cache-control") == "no-store")
        }
        let text = try metrics(server)
        #expect(metric(text, "pagedots_source_fetches_total{result=\"timeout\"}") == 1)
        #expect(metric(text, "pagedots_source_fetches_total{result=\"failed\"}") >= 4)
    }

    @Test("Redirects: three followed; a fourth refused; one to a prefix not allowed refused, its target never asked")
    func redirects() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/ok/a.png", with: .ok(UploadFixtures.bytes("rgba.png")))
        for hop in 1...4 { origin.respond(to: "/ok/r\(hop)", with: .redirect(to: hop == 1 ? "/ok/a.png" : "/ok/r\(hop - 1)")) }
        origin.respond(to: "/ok/away", with: .redirect(to: "/elsewhere/a.png"))
        origin.respond(to: "/elsewhere/a.png", with: .ok(UploadFixtures.bytes("rgba.png")))
        let server = try ServerProcess(["--allow-source", origin.url("/ok/"), "--allow-private-sources"])
        defer { server.stop() }
        let direct = encoded(origin.url("/ok/a.png"))
        #expect(try get(server, "/carousel?\(small)&slide=\(direct)&slide=\(encoded(origin.url("/ok/r3")))").status == 200)
        let tooMany = try get(server, "/carousel?\(small)&slide=\(direct)&slide=\(encoded(origin.url("/ok/r4")))")
        #expect(tooMany.status == 502 && tooMany.text.hasPrefix("slide 2: "), "\(tooMany.text)")
        let away = try get(server, "/carousel?\(small)&slide=\(direct)&slide=\(encoded(origin.url("/ok/away")))")
        #expect(away.status == 403 && away.text.hasPrefix("slide 2: "), "\(away.text)")
        #expect(!origin.requests.contains { $0.path == "/elsewhere/a.png" })
    }

    @Test("A client over its miss rate gets 429 before anything is fetched")
    func fairUseBeforeFetching() throws {
        let (origin, slides) = try slideOrigin()
        // Half a new image a second, a burst of one.
        let server = try server(for: origin, ["--client-miss-rate", "0.5"])
        defer { server.stop() }
        #expect(try get(server, "/carousel.gif?\(small)&\(slides)").status == 200)
        let asked = origin.requests.count
        let refused = try get(server, "/carousel.gif?\(small)&dwell=2000&\(slides)")
        #expect(refused.status == 429 && refused.header("retry-after") != nil)
        #expect(origin.requests.count == asked, "nothing fetched for the refused request")
        // The first carousel's repeats are hits, never limited.
        #expect(try get(server, "/carousel.gif?\(small)&\(slides)").status == 200)
    }

    @Test("The slides of one carousel are fetched in parallel: the origin is asked for all before it answers any")
    func parallel() throws {
        let origin = try LoopbackOrigin()
        for name in fixtures { origin.respond(to: "/s/\(name)", with: .held(UploadFixtures.bytes(name))) }
        let server = try server(for: origin)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/carousel.gif?\(small)&" + fixtures.map { "slide=" + encoded(origin.url("/s/\($0)")) }.joined(separator: "&"))
        #expect(origin.waitForRequests(3), "all three asked while none is answered")
        #expect(origin.requests.allSatisfy { $0.releasesBefore == 0 })
        origin.release(3)
        #expect(try client.readResponse().status == 200)
    }

    @Test("A dead source holds nothing but its own request: indicators are answered meanwhile, the carousel gets 504")
    func deadSource() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/a.png", with: .ok(UploadFixtures.bytes("rgba.png")))
        origin.respond(to: "/dead.png", with: .never)
        let server = try server(for: origin, ["--source-timeout", "2"])
        defer { server.stop() }
        var waiting: [HTTPTestClient] = []
        for _ in 0..<16 {
            let client = try HTTPTestClient(port: server.port)
            client.request("/carousel?\(small)&slide=\(encoded(origin.url("/a.png")))&slide=\(encoded(origin.url("/dead.png")))")
            waiting.append(client)
        }
        #expect(origin.waitForRequests(2))
        for pages in 2...30 {
            let dots = try get(server, "/indicator?pages=\(pages)")
            #expect(dots.status == 200)
        }
        // The dead source was asked once: the others joined it.
        #expect(origin.requests.filter { $0.path == "/dead.png" }.count == 1)
        for client in waiting {
            let answer = try client.readResponse()
            #expect(answer.status == 504 && answer.text.hasPrefix("slide 2: "), "\(answer.text)")
        }
    }

    @Test("With a signing key the URL must be signed, slide URLs included; a carousel GIF by URL keeps its timing")
    func signedAndCarouselGIF() throws {
        let origin = try LoopbackOrigin()
        origin.respond(to: "/c.gif", with: .ok(UploadFixtures.bytes("animated.gif")))
        let key = "a-signing-key-of-sixteen"
        let server = try server(for: origin, ["--signing-key", key])
        defer { server.stop() }
        let query = "pages=2&\(small)&carousel=\(encoded(origin.url("/c.gif")))"
        #expect(try get(server, "/carousel.gif?\(query)").status == 403)
        let signed = try #require(ExternalCommand.run([ServerProcess.executable.path, "sign", query, "--signing-key", key]))
        let answer = try get(server, "/carousel.gif?\(signed.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.header("content-type") == "image/gif")
    }

    @Test("pagedots carousel fetches URL arguments under the same rules and writes the same bytes")
    func commandLine() throws {
        let (origin, slides) = try slideOrigin()
        let server = try server(for: origin)
        defer { server.stop() }
        let served = try get(server, "/carousel.gif?\(small)&\(slides)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-url-carousel-\(getpid()).gif").path
        defer { unlink(output) }
        let urls = fixtures.map { origin.url("/s/\($0)") }
        let run = try #require(ExternalCommand.run(
            [ServerProcess.executable.path, "carousel", small, "--allow-source", origin.url("/"), "--allow-private-sources"] + urls + ["-o", output]
        ))
        #expect(run.status == 0, "\(run.output)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: output))) == served.body)
        let refused = try #require(ExternalCommand.run([ServerProcess.executable.path, "carousel", small] + urls + ["-o", output]))
        #expect(refused.status == 1 && refused.output.contains("URL slides are not enabled"), "\(refused.output)")
    }
}
