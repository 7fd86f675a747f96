@testable import HTTPServer
@testable import PagedotsService
import PagedotsCore
import Testing
import TestSupport

/// A request to `target` (path and query), with `headers`.
private func request(_ target: String, method: HTTPMethod = .post, headers: [HTTPHeaderField] = []) -> HTTPRequest {
    let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) } ?? (target, "")
    return HTTPRequest(method: method, version: .http1_1, path: path, query: query, headers: [HTTPHeaderField("Host", "test")] + headers)
}

private let multipartHeader = HTTPHeaderField("Content-Type", MultipartBody.contentType)
private let threeSlides = MultipartBody([.file("slide", "baseline.jpg"), .file("slide", "rgba.png"), .file("slide", "still.gif")]).bytes

/// The service's answer to `request` with `body` (as the server hands it over): status, head and body.
private func answer(_ request: HTTPRequest, body: [UInt8]? = nil) -> (status: Int, head: String, body: String) {
    let service = PagedotsService(configuration: ServiceConfiguration())
    let answers = RecordedAnswers()
    if let body {
        service.handle(request, body: HTTPRequestBody(body), responder: answers.responder("r"))
    } else {
        service.handle(request, responder: answers.responder("r"))
    }
    answers.waitFor(1)
    return (answers.statuses("r").first ?? 0, answers.head("r"), answers.body("r"))
}

@Suite("Carousel route: paths, methods and the head's checks")
struct CarouselRouteTests {
    @Test("/carousel, .gif, .apng and @Nx are carousel paths; a still format's suffix is none (404)")
    func paths() {
        #expect(Endpoint(path: "/carousel") == .carousel(.success(PathOptions())))
        #expect(Endpoint(path: "/carousel.gif") == .carousel(.success(PathOptions(format: .gif))))
        #expect(Endpoint(path: "/carousel@2x.apng") == .carousel(.success(PathOptions(format: .apng, scale: 2))))
        if case .carousel(.failure(let error))? = Endpoint(path: "/carousel@9x.gif") {
            #expect(error.parameter == "scale")
        } else {
            Issue.record("@9x is not a carousel path with a scale error")
        }
        for path in ["/carousel.png", "/carousel.svg", "/carousel/", "/carousels", "/Carousel"] {
            #expect(Endpoint(path: path) == nil, "\(path)")
        }
    }

    @Test("any method but GET, HEAD and POST on a carousel path is 405 with Allow: GET, HEAD, POST", arguments: [HTTPMethod.other("PUT"), .other("DELETE")])
    func methods(method: HTTPMethod) {
        let (status, head, body) = answer(request("/carousel.gif", method: method))
        #expect(status == 405)
        #expect(head.contains("\r\nAllow: GET, HEAD, POST\r\n"))
        #expect(body == "method not allowed: use GET, HEAD or POST\n")
    }

    @Test("a GET or HEAD without slide URLs is 400, saying how to send slides", arguments: [HTTPMethod.get, .head])
    func getWithoutSlides(method: HTTPMethod) {
        let (status, _, body) = answer(request("/carousel.gif?style=pill", method: method))
        #expect(status == 400)
        #expect(method == .head || body.hasPrefix("no slides: send 2 to 20 slide=URL parameters, or one carousel=URL (an animated GIF), or POST the files"))
    }

    @Test(
        "refusals decided from the head: format, scale, Content-Type, boundary, no body",
        arguments: [
            ("/carousel?format=png", [multipartHeader], 400, "format: must be gif or apng for a carousel; got \"png\""),
            ("/carousel.gif?format=apng", [multipartHeader], 400, "format: must be gif to agree with the path's .gif; got \"apng\""),
            ("/carousel@5x", [multipartHeader], 400, "scale: must be an integer from 1 to 4 (in the path's @Nx); got \"5\""),
            ("/carousel", [HTTPHeaderField("Content-Type", "image/png")], 415,
             "Content-Type must be multipart/form-data; got \"image/png\": send the slides with curl -F slide=@file, or as a form"),
            ("/carousel", [], 415, "Content-Type must be multipart/form-data; got \"\": send the slides with curl -F slide=@file, or as a form"),
            ("/carousel", [HTTPHeaderField("Content-Type", "multipart/form-data")], 400, "multipart/form-data without a boundary parameter"),
        ] as [(String, [HTTPHeaderField], Int, String)]
    )
    func headRefusals(target: String, headers: [HTTPHeaderField], status: Int, message: String) {
        let (gotStatus, head, body) = answer(request(target, headers: headers), body: threeSlides)
        #expect(gotStatus == status)
        #expect(body == message + "\n")
        #expect(head.contains("\r\nCache-Control: no-store\r\n"))
    }

    @Test("a POST without a body is 400, saying what to send")
    func noBody() {
        let (status, _, body) = answer(request("/carousel", headers: [multipartHeader]))
        #expect(status == 400)
        #expect(body.hasPrefix("no body: send 2 to 20 parts named slide"))
    }

    @Test("An upload that passes every check is drawn on an animation thread: 200, its digest as ETag, no-store")
    func drawn() {
        let (status, head, body) = answer(
            request("/carousel@1x.apng?style=pill&size=2&spacing=2&padding=1&inset=2", headers: [multipartHeader]), body: threeSlides
        )
        #expect(status == 200)
        #expect(head.contains("\r\nContent-Type: image/png\r\n"))
        #expect(head.contains("\r\nCache-Control: no-store\r\n"))
        #expect(head.contains("\r\nETag: \""))
        #expect(body.utf8.count > 8)
    }

    @Test("an indicator that does not fit on the slides is a 400 that says what to lower")
    func indicatorTooWide() {
        let (status, _, body) = answer(request("/carousel?style=pill", headers: [multipartHeader]), body: threeSlides)
        #expect(status == 400)
        #expect(body == "carousel: must be at least as wide as its indicator (112 pixels); got 32 pixels (lower scale, size, spacing or padding, or raise slidesize)\n")
    }

    @Test("a carousel takes its client's miss tokens, one per started 1,048,576 pixel-frames; over the limit it is 429")
    func fairUse() {
        var configuration = ServiceConfiguration()
        configuration.clientMissRate = 1
        // The clock never moves: the bucket's burst of 2 is all there is.
        let service = PagedotsService(
            configuration: configuration, renderLanes: RenderLanes(threads: 1, stillQueueLimit: 8, animationQueueLimit: 8), missClock: { 0 }
        )
        let answers = RecordedAnswers()
        var upload = request("/carousel?style=pill&size=2&spacing=2&padding=1&inset=2&scale=1", headers: [multipartHeader])
        upload.peerAddress = [198, 51, 100, 1]
        // 32 × 24 pixels and a few dozen frames: one token each.
        for index in 0..<3 {
            service.handle(upload, body: HTTPRequestBody(threeSlides), responder: answers.responder("\(index)"))
            answers.waitFor(1)
        }
        #expect((0..<3).map { answers.statuses("\($0)").first ?? 0 } == [200, 200, 429])
        #expect(answers.head("2").contains("\r\nRetry-After: "))
    }

    @Test("The server reads the body of a POST to a carousel path, and no other; with Expect, not when the head is refused")
    func acceptsBody() {
        let service = PagedotsService(configuration: ServiceConfiguration())
        let expect = HTTPHeaderField("Expect", "100-continue")
        #expect(service.acceptsBody(of: request("/carousel.gif", headers: [multipartHeader])))
        #expect(service.acceptsBody(of: request("/carousel", headers: [multipartHeader, expect])))
        #expect(!service.acceptsBody(of: request("/carousel", method: .get)))
        #expect(!service.acceptsBody(of: request("/indicator")))
        #expect(!service.acceptsBody(of: request("/nothing")))
        // Refused from the head: read anyway without Expect (so the client sees the answer), not with it.
        #expect(service.acceptsBody(of: request("/carousel?format=svg", headers: [multipartHeader])))
        #expect(!service.acceptsBody(of: request("/carousel?format=svg", headers: [multipartHeader, expect])))
        #expect(!service.acceptsBody(of: request("/carousel", headers: [expect])))
    }
}
