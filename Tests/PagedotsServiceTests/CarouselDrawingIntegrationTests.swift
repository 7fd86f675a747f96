import Foundation
import PagedotsGIF
import PagedotsPNG
import PagedotsPixels
import Testing
import TestSupport

/// Slides made for these tests: 240 × 120, each with a left and a right half
/// of its own flat colour, so that a push shows which way it went.
private enum Slides {
    static let (width, height) = (240, 120)
    static let colors: [(left: [UInt8], right: [UInt8])] = [
        ([200, 30, 40], [240, 160, 20]), ([30, 150, 90], [20, 60, 200]), ([90, 40, 160], [250, 250, 250]),
    ]

    static func png(_ index: Int) -> [UInt8] {
        var rgba: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                rgba += (x < width / 2 ? colors[index].left : colors[index].right) + [255]
            }
        }
        return PNGEncoder().encode(rgba: rgba, width: width, height: height)
    }

    static let body = MultipartBody(colors.indices.map { MultipartBody.Part(name: "slide", filename: "s\($0).png", content: png($0)) })

    /// The slides written to files, for the command line.
    static func files() throws -> [String] {
        try colors.indices.map { index in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-slide-\(getpid())-\(index).png").path
            try Data(png(index)).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}

/// The raw bytes of a POST of `body` to `target`.
private func post(_ target: String, body: MultipartBody = Slides.body) -> [UInt8] {
    let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nContent-Type: \(MultipartBody.contentType)\r\nContent-Length: \(body.bytes.count)\r\n\r\n"
    return Array(head.utf8) + body.bytes
}

/// The RGB of pixel (`x`, `y`) of a frame's canvas.
private func pixel(_ frame: GIFReader.Frame, width: Int, _ x: Int, _ y: Int) -> [UInt8] {
    let start = (y * width + x) * 4
    return Array(frame.canvas[start..<(start + 3)])
}

/// Each frame with the time it starts at, in milliseconds.
private func timed(_ gif: GIFReader) -> [(start: Int, frame: GIFReader.Frame)] {
    var time = 0
    return gif.frames.map { frame in
        defer { time += (frame.delay ?? 0) * 10 }
        return (time, frame)
    }
}

/// Whether `a` and `b` differ by at most `tolerance` in every byte.
private func near(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>, tolerance: Int = 3) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
}

@Suite("Carousels drawn by the real binary, decoded and checked")
struct CarouselDrawingIntegrationTests {
    static let query = "style=pill&current=1&dwell=1000"

    /// The carousel the server answers for `target`, with the answer.
    static func carousel(_ target: String, body: MultipartBody = Slides.body) throws -> (response: TestResponse, gif: GIFReader?) {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send(post(target, body: body))
        let response = try client.readResponse()
        return (response, response.header("content-type") == "image/gif" ? try GIFReader(response.body) : nil)
    }

    @Test("200, a strong ETag of the bytes, no-store; the same body and query give the same bytes, and so does the command line")
    func sameBytes() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send(post("/carousel.gif?\(Self.query)&change=fade"))
        client.send(post("/carousel.gif?\(Self.query)&change=fade"))
        let first = try client.readResponse()
        let second = try client.readResponse()
        #expect(first.status == 200)
        #expect(first.header("cache-control") == "no-store")
        #expect(first.header("etag")?.hasPrefix("\"") == true)
        #expect(first.body == second.body)
        #expect(first.header("etag") == second.header("etag"))
        let files = try Slides.files()
        defer { for file in files { unlink(file) } }
        let written = try runPagedots(["carousel", "/carousel.gif?\(Self.query)&change=fade"] + files)
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output == first.body)
    }

    @Test("the size, the order from current, delays adding up to pages × dwell, the first frame the composed still")
    func cut() throws {
        let (response, decoded) = try Self.carousel("/carousel.gif?\(Self.query)")
        let gif = try #require(decoded, "\(response.status) \(response.text)")
        #expect(gif.width == Slides.width && gif.height == Slides.height)
        #expect(gif.frames.reduce(0) { $0 + ($1.delay ?? 0) * 10 } == 3 * 1000)
        #expect(gif.plays == 0)
        var order: [Int] = []
        for frame in gif.frames {
            let shown = Slides.colors.firstIndex { $0.left == pixel(frame, width: gif.width, 5, 5) }
            if let shown, order.last != shown { order.append(shown) }
        }
        #expect(order == [1, 2, 0, 1])
        // No frame shows anything between two slides.
        #expect(gif.frames.allSatisfy { frame in Slides.colors.contains { $0.left == pixel(frame, width: gif.width, 5, 5) } })
        #expect(try Self.indicatorMatchesStill(gif, at: 0, page: 1))
        // Mid-dwell on each page, the indicator is that page's still.
        #expect(try Self.indicatorMatchesStill(gif, at: 1500, page: 2))
        #expect(try Self.indicatorMatchesStill(gif, at: 2500, page: 0))
    }

    /// Whether the frame shown at `time` has, where the indicator lies
    /// (centred, 12 points above the bottom, at 2x), the still PNG of page
    /// `page` laid over the slide there.
    static func indicatorMatchesStill(_ gif: GIFReader, at time: Int, page: Int) throws -> Bool {
        let rendered = try runPagedots(["render", "pages=3&style=pill&scale=2&current=\(page)"])
        let still = try PNGDecoder.decode(rendered.output)
        let frame = try #require(timed(gif).last { $0.start <= time }?.frame)
        let (x0, y0) = ((gif.width - still.width) / 2, gif.height - 24 - still.height)
        for y in 0..<still.height {
            for x in 0..<still.width {
                let over = Array(still.rgba[((y * still.width + x) * 4)..<((y * still.width + x) * 4 + 4)])
                let under = pixel(frame, width: gif.width, x0 + x, y0 + y)
                let alpha = Int(over[3])
                let expected = (0..<3).map { UInt8((Int(over[$0]) * alpha + Int(under[$0]) * (255 - alpha) + 127) / 255) }
                // The slide under the indicator, seen just outside it, is flat.
                let slide = pixel(frame, width: gif.width, x0 + x, y0 - 2)
                let composed = (0..<3).map { UInt8((Int(over[$0]) * alpha + Int(slide[$0]) * (255 - alpha) + 127) / 255) }
                guard near(composed, pixel(frame, width: gif.width, x0 + x, y0 + y), tolerance: 4) || near(expected, under) else { return false }
            }
        }
        return true
    }

    @Test("fade cross-fades the slides in the transition; the slides at rest stay whole")
    func fade() throws {
        let (response, decoded) = try Self.carousel("/carousel.gif?\(Self.query)&change=fade&transition=400")
        let gif = try #require(decoded, "\(response.status) \(response.text)")
        let (from, to) = (Slides.colors[1].left, Slides.colors[2].left)
        let between = gif.frames.filter { frame in
            let seen = pixel(frame, width: gif.width, 5, 5)
            return seen != from && seen != to && (0..<3).allSatisfy { seen[$0] >= min(from[$0], to[$0]) && seen[$0] <= max(from[$0], to[$0]) }
        }
        // 400 ms at 25 fps: 10 samples, 8 of them between the two slides, on the first move.
        #expect(between.count == 8)
        #expect(gif.frames.reduce(0) { $0 + ($1.delay ?? 0) * 10 } == 3000)
    }

    @Test("push moves the slides in the reading direction: ltr out to the left, rtl out to the right")
    func push() throws {
        for (direction, leavingSide) in [("ltr", "left"), ("rtl", "right")] {
            let (response, decoded) = try Self.carousel("/carousel.gif?\(Self.query)&change=push&transition=400&direction=\(direction)")
            let gif = try #require(decoded, "\(response.status) \(response.text)")
            let current = Slides.colors[1]
            let next = Slides.colors[2]
            // Part way: the current slide still on one edge, the next slide's near half come in on the other.
            func parts(_ frame: GIFReader.Frame) -> (left: [UInt8], right: [UInt8]) {
                (pixel(frame, width: gif.width, 1, 5), pixel(frame, width: gif.width, gif.width - 2, 5))
            }
            let isCurrent = { (seen: [UInt8]) in seen == current.left || seen == current.right }
            let forward = gif.frames.contains { isCurrent(parts($0).left) && parts($0).right == next.left }
            let backward = gif.frames.contains { parts($0).left == next.right && isCurrent(parts($0).right) }
            let middle: Bool? = leavingSide == "left" ? (forward && !backward ? true : nil) : (backward && !forward ? true : nil)
            #expect(middle != nil, "\(direction)")
        }
    }

    @Test("place=below and above add a band of the indicator's height, filled with matte when bg is transparent")
    func bands() throws {
        for place in ["below", "above"] {
            let (response, decoded) = try Self.carousel("/carousel.gif?\(Self.query)&place=\(place)")
            let gif = try #require(decoded, "\(response.status) \(response.text)")
            // The pill's image at 2x: (4 + 8 + 4) points high.
            #expect(gif.width == 240 && gif.height == 120 + 32)
            let bandY = place == "below" ? 150 : 1
            let slideY = place == "below" ? 1 : 150
            #expect(pixel(gif.frames[0], width: gif.width, 2, bandY) == [255, 255, 255])
            #expect(pixel(gif.frames[0], width: gif.width, 2, slideY) == Slides.colors[1].left)
        }
    }

    @Test("a carousel GIF made elsewhere keeps its frames, its timing and its loop count; loop overrides it")
    func imported() throws {
        let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255]]
        let delays = [500, 700, 300]
        let source = GIFEncoder().encode(
            FrameList(width: 200, height: 100, count: 3) { index in ((0..<(200 * 100)).flatMap { _ in colors[index] + [255] }, delays[index]) },
            plays: 3, matte: (255, 255, 255)
        )
        let body = MultipartBody([MultipartBody.Part(name: "carousel", filename: "c.gif", content: source)])
        let (response, decoded) = try Self.carousel("/carousel.gif?pages=3&style=pill&size=4&spacing=4&padding=2", body: body)
        let gif = try #require(decoded, "\(response.status) \(response.text)")
        #expect(gif.width == 200 && gif.height == 100)
        #expect(gif.plays == 3)
        #expect(gif.frames.reduce(0) { $0 + ($1.delay ?? 0) * 10 } == 1500)
        // Each source frame shows from when it did.
        var starts: [Int] = []
        for (start, frame) in timed(gif) {
            if let index = colors.firstIndex(of: pixel(frame, width: gif.width, 3, 3)), starts.count == index { starts.append(start) }
        }
        #expect(starts == [0, 500, 1200])
        // pagedots carousel --carousel writes the same bytes.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-carousel-\(getpid()).gif").path
        try Data(source).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let written = try runPagedots(["carousel", "pages=3&style=pill&size=4&spacing=4&padding=2", "--carousel", path])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output == response.body)
        let refusedByCLI = try runPagedots(["carousel", "pages=4", "--carousel", path])
        #expect(refusedByCLI.status == 1)
        #expect(refusedByCLI.error == "pagedots: carousel: must last a multiple of 10 ms × pages to split into equal dwells (40 ms with pages=4); got 1500 ms\n")
        let (_, looped) = try Self.carousel("/carousel.gif?pages=3&loop=0&style=pill&size=4&spacing=4&padding=2", body: body)
        #expect(looped?.plays == 0)
        let (refused, _) = try Self.carousel("/carousel.gif?pages=4", body: body)
        #expect(refused.status == 400)
        #expect(refused.text == "carousel: must last a multiple of 10 ms × pages to split into equal dwells (40 ms with pages=4); got 1500 ms\n")
    }

    @Test("a slide whose pixels are corrupt is a 400 that names it, found while the frames are drawn; never a 500")
    func corruptSlide() throws {
        for fixture in ["truncated.png", "truncated.jpg"] {
            let body = MultipartBody([
                MultipartBody.Part(name: "slide", content: Slides.png(0)), .file("slide", fixture), MultipartBody.Part(name: "slide", content: Slides.png(2)),
            ])
            let (response, _) = try Self.carousel("/carousel.gif?\(Self.query)", body: body)
            #expect(response.status == 400)
            #expect(response.text.hasPrefix("slide 2: "), "\(response.text)")
            #expect(response.header("cache-control") == "no-store")
        }
    }

    @Test("APNG: full colour, the first frame the composed still; a missing pages for a carousel GIF is 400")
    func apng() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send(post("/carousel.apng?\(Self.query)&change=fade"))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("content-type") == "image/png")
        let apng = try PNGDecoder.decodeAnimation(response.body)
        #expect(apng.image.width == 240 && apng.image.height == 120)
        #expect(apng.plays == 0)
        #expect(Array(apng.image.rgba[0..<3]) == Slides.colors[1].left)
    }
}
