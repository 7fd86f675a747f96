import HTTPServer
import MultipartFormData
import PagedotsDecode
@testable import PagedotsService
import Testing
import TestSupport

/// Reads an upload of `parts` as the carousel route does; the refusal's status and line, or nil.
private func refusal(_ parts: [MultipartBody.Part]) -> CarouselInputError? {
    refusal(body: MultipartBody(parts).bytes)
}

private func refusal(body bytes: [UInt8]) -> CarouselInputError? {
    do {
        _ = try CarouselInput(body: HTTPRequestBody(bytes), boundary: MultipartBoundary(MultipartBody.boundary))
        return nil
    } catch {
        return error as? CarouselInputError
    }
}

private let wrongParts = "send 2 to 20 parts named slide (PNG, JPEG, GIF, WebP, HEIC or AVIF), or one part named carousel (an animated GIF)"

@Suite("Carousel uploads: the parts and their images")
struct CarouselUploadTests {
    @Test("Slides of every format are read in order and probed, not decoded; their bytes are ranges of the body")
    func slides() throws {
        let body = HTTPRequestBody(MultipartBody([
            .file("slide", "baseline.jpg"), .file("slide", "rgba.png"), .file("slide", "animated.gif"), .file("slide", "orientation-6.jpg"),
        ]).bytes)
        let upload = try CarouselInput(body: body, boundary: MultipartBoundary(MultipartBody.boundary))
        guard case .slides(let slides) = upload.content else {
            Issue.record("not slides")
            return
        }
        #expect(slides.map(\.role) == ["slide 1", "slide 2", "slide 3", "slide 4"])
        #expect(slides.map(\.probe) == [
            ImageProbe(kind: .jpeg, width: 32, height: 24), ImageProbe(kind: .png, width: 20, height: 16),
            ImageProbe(kind: .gif, width: 24, height: 20), ImageProbe(kind: .jpeg, width: 32, height: 24),
        ])
        #expect(slides.map(\.filename) == ["baseline.jpg", "rgba.png", "animated.gif", "orientation-6.jpg"])
        let decoded = try slides[1].decode()
        #expect(decoded.pixels == (try PNGDecoder.decode(UploadFixtures.bytes("rgba.expected.png")).rgba))
        #expect(try slides[0].decode(atLeast: (16, 12)).width == 16)
    }

    @Test("Spooled to a temporary file, the slides decode to the same pixels and the body is let go of; a carousel GIF stays in memory")
    func spooled() throws {
        var body: HTTPRequestBody? = HTTPRequestBody(MultipartBody([.file("slide", "baseline.jpg"), .file("slide", "rgba.png")]).bytes)
        weak let released = body
        var upload: CarouselInput? = try CarouselInput(body: try #require(body), boundary: MultipartBoundary(MultipartBody.boundary))
        body = nil
        guard case .slides(let inMemory) = try #require(upload).content else {
            Issue.record("not slides")
            return
        }
        let expected = try inMemory.map { try $0.decode().pixels }
        let half = try inMemory[0].decode(atLeast: (16, 12)).pixels
        let spooled = try #require(upload).spooled()
        upload = nil
        _ = consume inMemory
        #expect(released == nil)
        guard case .slides(let slides) = spooled.content else {
            Issue.record("not slides")
            return
        }
        #expect(slides.map(\.role) == ["slide 1", "slide 2"])
        #expect(try slides.map { try $0.decode().pixels } == expected)
        #expect(try slides[0].decode(atLeast: (16, 12)).pixels == half)

        let gif = HTTPRequestBody(MultipartBody([.file("carousel", "animated.gif")]).bytes)
        let carousel = try CarouselInput(body: gif, boundary: MultipartBoundary(MultipartBody.boundary)).spooled()
        guard case .carousel(let image) = carousel.content else {
            Issue.record("not a carousel")
            return
        }
        #expect(try image.animation().frames.count == 4)
    }

    @Test("A carousel GIF made elsewhere: its timeline read, its frames played")
    func carousel() throws {
        let body = HTTPRequestBody(MultipartBody([.file("carousel", "animated.gif")]).bytes)
        let upload = try CarouselInput(body: body, boundary: MultipartBoundary(MultipartBody.boundary))
        guard case .carousel(let carousel) = upload.content else {
            Issue.record("not a carousel")
            return
        }
        let animation = try carousel.animation()
        #expect(animation.frames.count == 4)
        #expect(animation.loopCount == 2)
        let player = try carousel.framePlayer()
        var played = 0
        while try player.next() != nil { played += 1 }
        #expect(played == 4)
    }

    @Test("wrong part names, too few or too many slides, slides with a carousel: 400, saying what to send")
    func partCounts() {
        let slide = MultipartBody.Part.file("slide", "rgba.png")
        #expect(refusal([slide]) == CarouselInputError("1 slide: " + wrongParts))
        #expect(refusal([MultipartBody.Part]()) == CarouselInputError("no parts: " + wrongParts))
        #expect(refusal(Array(repeating: slide, count: 20)) == nil)
        #expect(refusal(Array(repeating: slide, count: 21)) == CarouselInputError("more than 20 parts: " + wrongParts))
        #expect(refusal([slide, .file("image", "rgba.png")]) == CarouselInputError("part 2 is named \"image\": " + wrongParts))
        #expect(refusal([slide, .file("carousel", "animated.gif")]) == CarouselInputError("slides and a carousel together: " + wrongParts))
        #expect(refusal([.file("carousel", "animated.gif"), .file("carousel", "animated.gif")])
            == CarouselInputError("2 carousel parts: " + wrongParts))
    }

    @Test("a part that is no image pagedots reads is 415 and named; a carousel must be a GIF")
    func unsupported() {
        let slide = MultipartBody.Part.file("slide", "rgba.png")
        #expect(refusal([slide, .file("slide", "not-an-image.txt")]) == CarouselInputError(status: 415, "slide 2: not a PNG, JPEG, GIF, WebP, HEIC or AVIF"))
        #expect(refusal([.file("carousel", "baseline.jpg")])?.status == 415)
        #expect(refusal([.file("carousel", "baseline.jpg")])?.message.hasPrefix("carousel: not a GIF") == true)
    }

    @Test("a slide over 8192 a side or 50,000,000 pixels is refused from its header (400); a carousel's screen over 2,359,296 pixels too")
    func tooLarge() {
        let slide = MultipartBody.Part.file("slide", "rgba.png")
        // 5000 × 5000 is a camera's size: taken.
        #expect(refusal([slide, .file("slide", "large.jpg")]) == nil)
        // GIF screens of 9000 × 16 and 8000 × 7000 patched into the still fixture.
        for (size, bytes) in [("9000 × 16", [UInt8]([0x28, 0x23, 0x10, 0x00])), ("8000 × 7000", [0x40, 0x1F, 0x58, 0x1B])] {
            var gif = UploadFixtures.bytes("still.gif")
            gif.replaceSubrange(6..<10, with: bytes)
            #expect(refusal([slide, MultipartBody.Part(name: "slide", content: gif)]) == CarouselInputError(
                "slide 2: \(size) pixels is too large: at most 8192 a side and 50,000,000 in all; scale it down"
            ))
        }
        // A GIF screen of 2000 × 1200 (2,400,000 pixels) patched into the still fixture.
        var gif = UploadFixtures.bytes("still.gif")
        gif.replaceSubrange(6..<10, with: [0xD0, 0x07, 0xB0, 0x04])
        #expect(refusal([MultipartBody.Part(name: "carousel", content: gif)]) == CarouselInputError(
            "carousel: 2000 × 1200 pixels is too large: at most 4096 a side and 2,359,296 in all; scale it down"
        ))
    }

    @Test("a corrupt or truncated image is 400, named: from its header when probed, from its pixels when decoded")
    func corrupt() throws {
        let slide = MultipartBody.Part.file("slide", "rgba.png")
        #expect(refusal([slide, .file("slide", "signature-only.png")])?.message.hasPrefix("slide 2: corrupt, truncated or unsupported PNG (") == true)
        // A JPEG cut in its scan data passes the probe; decoding it is refused.
        let body = HTTPRequestBody(MultipartBody([slide, .file("slide", "truncated.jpg")]).bytes)
        let upload = try CarouselInput(body: body, boundary: MultipartBoundary(MultipartBody.boundary))
        guard case .slides(let slides) = upload.content else { return }
        #expect(throws: CarouselInputError("slide 2: corrupt, truncated or unsupported JPEG (Premature end of JPEG file)")) {
            try slides[1].decode()
        }
    }

    @Test("A body that is no well-formed multipart is 400 with the parser's line")
    func malformed() {
        #expect(refusal(body: Array("no boundary at all".utf8)) == CarouselInputError(
            "multipart body: no boundary line: the body must start with --BOUNDARY and CRLF"
        ))
        var cut = MultipartBody([.file("slide", "rgba.png"), .file("slide", "rgba.png")]).bytes
        cut.removeLast(10)
        #expect(refusal(body: cut)?.message == "multipart body: part 2: the body ended before the closing --BOUNDARY-- (truncated?)")
    }
}
