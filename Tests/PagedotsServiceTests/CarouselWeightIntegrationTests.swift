import Foundation
import Testing
import TestSupport

/// docs/examples/carousel, the example photographs.
private let examples = sourceFolder(of: #filePath) + "/../../docs/examples/carousel"

/// The five example photographs as slide parts.
private let photos = MultipartBody(["astronaut.jpg", "coffee.jpg", "chelsea.jpg", "rocket.jpg", "hubble.jpg"].map { name in
    MultipartBody.Part(name: "slide", filename: name, content: Array(FileManager.default.contents(atPath: examples + "/" + name) ?? Data()))
})

/// The answer to a POST of `body` to `target` on `server`.
private func post(_ server: ServerProcess, _ target: String, body: MultipartBody = photos) throws -> TestResponse {
    let client = try HTTPTestClient(port: server.port)
    let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nContent-Type: \(MultipartBody.contentType)\r\nContent-Length: \(body.bytes.count)\r\n\r\n"
    client.send(Array(head.utf8) + body.bytes)
    return try client.readResponse()
}

/// The mean of each channel over the slides' area of a frame (`slideHeight` rows from the top).
private func meanColor(_ canvas: [UInt8], width: Int, rows: Range<Int>) -> [Double] {
    var sums = [0.0, 0.0, 0.0]
    for y in rows {
        for x in 0..<width {
            for channel in 0..<3 { sums[channel] += Double(canvas[(y * width + x) * 4 + channel]) }
        }
    }
    return sums.map { $0 / Double(rows.count * width) }
}

/// The frame of `gif` showing at `time` milliseconds into the cycle.
private func frame(of gif: GIFReader, at time: Int) -> GIFReader.Frame? {
    var start = 0
    for frame in gif.frames {
        let end = start + (frame.delay ?? 0) * 10
        if time < end { return frame }
        start = end
    }
    return nil
}

@Suite("Carousel sizes in points and weight (budget) against the real binary")
struct CarouselWeightIntegrationTests {
    @Test("slidesize: WxH or W, the band added, X-Carousel-Size in points; bad values 400; inert on an indicator")
    func slideSize() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let three = MultipartBody(["baseline.jpg", "rgba.png", "still.gif"].map { MultipartBody.Part.file("slide", $0) })
        let small = "style=pill&size=2&spacing=2&padding=1&inset=2"
        let both = try post(server, "/carousel.gif?\(small)&slidesize=40x30", body: three)
        #expect(both.status == 200 && both.header("x-carousel-size") == "40x30")
        #expect(try GIFReader(both.body).width == 80)
        // W alone: the first slide's 4:3.
        let width = try post(server, "/carousel.gif?\(small)&slidesize=40&place=below", body: three)
        let gif = try GIFReader(width.body)
        #expect((gif.width, gif.height) == (80, 68))
        #expect(width.header("x-carousel-size") == "40x34")
        for bad in ["15", "2049", "40x", "40x30x2"] {
            let refused = try post(server, "/carousel.gif?\(small)&slidesize=\(bad)", body: three)
            #expect(refused.status == 400 && refused.text.hasPrefix("slidesize: must be WxH or W"), "\(bad): \(refused.text)")
        }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=3")
        let plain = try client.readResponse()
        client.request("/indicator?pages=3&slidesize=600x300&budget=1M")
        let inert = try client.readResponse()
        #expect(inert.status == 200 && inert.header("etag") == plain.header("etag"))
    }

    @Test("A camera's 24-megapixel JPEG is taken and drawn 600 points wide; a 9000-pixel-wide header is refused")
    func cameraSizes() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let camera = MultipartBody([.file("slide", "camera-6000x4000.jpg"), .file("slide", "rgba.png")])
        let taken = try post(server, "/carousel.gif?style=pill", body: camera)
        #expect(taken.status == 200, "\(taken.text)")
        #expect(taken.header("x-carousel-size") == "600x400")
        #expect(try GIFReader(taken.body).width == 1200)
        for wide in ["wide-9000.jpg", "wide-9000.png", "wide-9000.webp"] {
            let refused = try post(server, "/carousel.gif?style=pill", body: MultipartBody([.file("slide", "rgba.png"), .file("slide", wide)]))
            #expect(refused.status == 400 && refused.text.hasPrefix("slide 2: 9000 × "), "\(wide): \(refused.text)")
        }
    }

    @Test("budget: at most that many bytes, what was chosen said; every slide at its time, the cycle as long; the band as drawn at that scale")
    func budgetKept() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let query = "style=pill&slidesize=120&place=below&bg=white&change=fade&dwell=1000&fps=10"
        let plain = try post(server, "/carousel.gif?\(query)")
        #expect(plain.status == 200 && plain.body.count > 100_000, "\(plain.body.count)")
        let budgeted = try post(server, "/carousel.gif?\(query)&budget=60k")
        #expect(budgeted.status == 200, "\(budgeted.text)")
        #expect(budgeted.body.count <= 60_000)
        #expect(budgeted.header("x-carousel-size") == plain.header("x-carousel-size"))
        let encoding = try #require(budgeted.header("x-carousel-encoding"))
        let fields = Dictionary(uniqueKeysWithValues: encoding.split(separator: ";").map { part -> (String, String) in
            let pair = part.split(separator: "=")
            return (pair[0].trimmingCharacters(in: .whitespaces), String(pair[1]))
        })
        let scale = try #require(fields["scale"])
        #expect(Set(fields.keys) == ["scale", "steps", "colors", "loss"], "\(encoding)")
        let lighter = try GIFReader(budgeted.body)
        let reference = try GIFReader(try post(server, "/carousel.gif?\(query)&scale=\(scale)").body)
        #expect((lighter.width, lighter.height) == (reference.width, reference.height))
        #expect(lighter.frames.reduce(0) { $0 + ($1.delay ?? 0) } * 10 == 5 * 1000)
        // Mid-dwell, each slide is the one the exact carousel shows then, and no other.
        let slideRows = 0..<(reference.width / 2)
        let means = try (0..<5).map { page -> (lighter: [Double], exact: [Double]) in
            let time = page * 1000 + 300
            let a = try #require(frame(of: lighter, at: time)), b = try #require(frame(of: reference, at: time))
            return (meanColor(a.canvas, width: lighter.width, rows: slideRows), meanColor(b.canvas, width: reference.width, rows: slideRows))
        }
        for (page, mean) in means.enumerated() {
            let distances = means.map { other in zip(mean.lighter, other.exact).map { abs($0 - $1) }.max() ?? 0 }
            #expect(distances.firstIndex(of: distances.min() ?? 0) == page, "page \(page): \(distances)")
        }
        // The band (below the slides), frame by frame in time, as the same carousel without budget draws it at that scale.
        let bandRows = (reference.width / 2)..<reference.height
        var total = 0.0, within = 0, count = 0
        for time in stride(from: 0, to: 5000, by: 40) {
            guard let a = frame(of: lighter, at: time), let b = frame(of: reference, at: time) else { continue }
            for y in bandRows {
                for x in 0..<reference.width {
                    for channel in 0..<3 {
                        let difference = abs(Int(a.canvas[(y * reference.width + x) * 4 + channel]) - Int(b.canvas[(y * reference.width + x) * 4 + channel]))
                        total += Double(difference)
                        within += difference <= 16 ? 1 : 0
                        count += 1
                    }
                }
            }
        }
        #expect(total / Double(count) <= 1.5 && Double(within) >= 0.99 * Double(count), "mean \(total / Double(count)), within \(within)/\(count)")
    }

    @Test("A budget the carousel already fits gives the same bytes; one it cannot come to is 422 saying the smallest; APNG is 400")
    func fitsOrRefused() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let query = "style=pill&slidesize=200"
        let plain = try post(server, "/carousel.gif?\(query)")
        let generous = try post(server, "/carousel.gif?\(query)&budget=100M")
        #expect(generous.status == 200 && generous.body == plain.body)
        #expect(generous.header("x-carousel-encoding") == "scale=2; colors=64; loss=0")
        let impossible = try post(server, "/carousel.gif?style=pill&slidesize=150&change=fade&fps=10&budget=10k")
        #expect(impossible.status == 422, "\(impossible.text)")
        #expect(impossible.text.hasPrefix("budget: the smallest this carousel comes to is "), "\(impossible.text)")
        #expect(impossible.text.hasSuffix("; try change=cut or a smaller slidesize\n"), "\(impossible.text)")
        #expect(impossible.header("cache-control") == "no-store")
        let apng = try post(server, "/carousel.apng?\(query)&budget=1M")
        #expect(apng.status == 400 && apng.text.hasPrefix("budget: must be given for a GIF carousel only"))
    }
}
