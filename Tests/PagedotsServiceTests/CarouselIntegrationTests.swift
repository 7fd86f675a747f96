import Foundation
import Testing
import TestSupport

/// An indicator small enough for the 32 × 24 fixture slides.
private let small = "style=pill&size=2&spacing=2&padding=1&inset=2"

/// The raw bytes of a POST of `body` to `target`, with `headers`.
private func post(_ target: String, body: [UInt8], headers: [String] = []) -> [UInt8] {
    let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nContent-Type: \(MultipartBody.contentType)\r\nContent-Length: \(body.count)\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    return Array(head.utf8) + body
}

private let threeSlides = MultipartBody([.file("slide", "baseline.jpg"), .file("slide", "rgba.png"), .file("slide", "still.gif")])

/// `curl -v -F` of the slides `fixtures` (`large`: first a JPEG of over 1
/// MiB, a fixture with zeros after its end, which decoders ignore: curl asks
/// `Expect: 100-continue` for bodies that large) to `target` on `port`:
/// what it sent (`> `), got (`< `) and printed, in one text.
private func curlForm(_ fixtures: [String], large: Bool = false, extra: [String] = [], port: Int, target: String) throws -> String {
    var files = fixtures.map(UploadFixtures.path)
    let largePath = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-large-slide-\(getpid())-\(UUID().uuidString).jpg").path
    if large {
        try Data(UploadFixtures.bytes("baseline.jpg") + [UInt8](repeating: 0, count: 1_100_000)).write(to: URL(fileURLWithPath: largePath))
        files.insert(largePath, at: 0)
    }
    defer { if large { unlink(largePath) } }
    let arguments = ["curl", "-sS", "-v"] + extra + files.flatMap { ["-F", "slide=@\($0)"] } + ["http://127.0.0.1:\(port)\(target)"]
    let result = try #require(ExternalCommand.run(arguments), "cannot run curl: install the Debian package curl")
    #expect(result.status == 0, "\(result.output)")
    return result.output
}

/// The real binary, uploads over sockets, curl and Python's requests.
@Suite("Carousel uploads against the real binary")
struct CarouselIntegrationTests {
    @Test("WebP (still, lossless, animated), HEIC and AVIF slides are drawn; a truncated one is 400; a header bomb is 400 from its header")
    func modernFormats() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let slides = ["lossy.webp", "lossless-alpha.webp", "animated.webp", "orientation-5.heic", "orientation-6.avif", "rgba.png"]
        client.send(post("/carousel.gif?\(small)&slidesize=64", body: MultipartBody(slides.map { .file("slide", $0) }).bytes))
        let drawn = try client.readResponse()
        #expect(drawn.status == 200, "\(drawn.text)")
        for (file, prefix) in [("truncated.webp", "slide 2: corrupt"), ("truncated.heic", "slide 2: corrupt"), ("truncated.avif", "slide 2: corrupt"),
                               ("huge.heic", "slide 2: 100000 × 100000 pixels is too large"), ("huge-canvas.webp", "slide 2: "), ("codec-bomb.avif", "slide 2: ")] {
            client.send(post("/carousel.gif?\(small)", body: MultipartBody([.file("slide", "rgba.png"), .file("slide", file)]).bytes))
            let refused = try client.readResponse()
            #expect(refused.status == 400 && refused.text.hasPrefix(prefix), "\(file): \(refused.status) \(refused.text)")
        }
    }

    @Test("An upload by raw socket is read; the request pipelined after its body is answered next")
    func rawSocket() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send(post("/carousel.gif?\(small)", body: threeSlides.bytes))
        client.request("/healthz")
        let upload = try client.readResponse()
        #expect(upload.status == 200)
        #expect(upload.header("content-type") == "image/gif")
        #expect(upload.header("cache-control") == "no-store")
        #expect(try client.readResponse().text == "ok\n")
    }

    @Test("curl -F of over 1 MiB: Expect: 100-continue gets 100 Continue, then the slides are read")
    func curlLarge() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let output = try curlForm(["rgba.png", "still.gif"], large: true, port: server.port, target: "/carousel.gif?\(small)")
        #expect(output.contains("> Expect: 100-continue"))
        #expect(output.contains("< HTTP/1.1 100 Continue"))
        #expect(output.contains("< HTTP/1.1 200 OK"))
        #expect(output.contains("< Content-Type: image/gif"))
    }

    @Test("curl -F with a chunked body: read and decoded the same")
    func curlChunked() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let output = try curlForm(
            ["baseline.jpg", "rgba.png", "still.gif"], extra: ["-H", "Transfer-Encoding: chunked"], port: server.port, target: "/carousel?\(small)"
        )
        #expect(output.contains("> Transfer-Encoding: chunked"))
        #expect(output.contains("< HTTP/1.1 200 OK"))
    }

    @Test("curl -F refused from the head: answered at once, without 100 Continue, and the body is never sent")
    func curlRefusedAtOnce() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let output = try curlForm(["rgba.png"], large: true, port: server.port, target: "/carousel?format=svg")
        #expect(output.contains("> Expect: 100-continue"))
        #expect(!output.contains("< HTTP/1.1 100"))
        #expect(!output.contains("We are completely uploaded"))
        #expect(output.contains("< HTTP/1.1 400 Bad Request"))
        #expect(output.contains("< Connection: close"))
        #expect(output.contains("format: must be gif or apng for a carousel; got \"svg\""))
    }

    @Test("a Content-Length over --max-upload-mb is 413 before the body is sent, with or without Expect")
    func tooLargeFromContentLength() throws {
        let server = try ServerProcess(["--max-upload-mb", "1"])
        defer { server.stop() }
        for expect in ["", "Expect: 100-continue\r\n"] {
            let client = try HTTPTestClient(port: server.port)
            client.send("POST /carousel HTTP/1.1\r\nHost: t\r\nContent-Type: \(MultipartBody.contentType)\r\n\(expect)Content-Length: 1048577\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.text == "request body larger than 1048576 bytes (1 MiB)\n")
            #expect(response.header("connection") == "close")
        }
    }

    @Test("a slow uploader gets 408 at --body-timeout while another client is served")
    func slowUploader() throws {
        let server = try ServerProcess(["--threads", "1", "--body-timeout", "0.5"])
        defer { server.stop() }
        // Its 100 Continue says the server is reading its body when the other client asks.
        let slow = try HTTPTestClient(port: server.port)
        let body = threeSlides.bytes
        slow.send(Array(post("/carousel", body: body, headers: ["Expect: 100-continue"]).dropLast(body.count)))
        #expect(try slow.readResponse().status == 100)
        slow.send(Array(body.prefix(body.count / 2)))
        let other = try HTTPTestClient(port: server.port)
        for _ in 0..<3 {
            other.request("/healthz")
            #expect(try other.readResponse().text == "ok\n")
        }
        let timedOut = try slow.readResponse()
        #expect(timedOut.status == 408)
        #expect(timedOut.text == "request body not received within 0.5 s\n")
        other.request("/healthz")
        #expect(try other.readResponse().status == 200)
    }

    @Test("Python's requests: files uploaded as a form are read; a wrong part name is refused with its line")
    func pythonRequests() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let script = """
            import sys, requests
            url = "http://127.0.0.1:\(server.port)/carousel.gif"
            names = ["baseline.jpg", "rgba.png", "still.gif"]
            files = [("slide", (name, open("\(UploadFixtures.folder)/" + name, "rb"))) for name in names]
            good = requests.post(url + "?\(small)", files=files)
            bad = requests.post(url, files=[("photo", ("a.png", b"x"))])
            sys.stdout.write(f"{good.status_code} {good.headers['content-type']} {good.content[:6]!r}\\n{bad.status_code} {bad.text}")
            """
        let result = try #require(ExternalCommand.run(["python3", "-c", script]), "cannot run python3")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "200 image/gif b'GIF89a'\n400 part 1 is named \"photo\": send 2 to 20 parts named slide (PNG, JPEG, GIF, WebP, HEIC or AVIF), "
            + "or one part named carousel (an animated GIF)\n")
    }
}
