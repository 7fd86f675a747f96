import Foundation
import PagedotsCore
import PagedotsRender
import Testing
import TestSupport

/// Animated GIF and APNG from the real binary (docs/parameters.md, "Animation").
@Suite struct AnimationIntegrationTests {
    /// The answer to `GET target` from a server of its own.
    func get(_ target: String) throws -> TestResponse {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request(target)
        return try client.readResponse()
    }

    /// The frames of `query`'s timeline as the renderer draws them, with their delays.
    func expectedFrames(_ query: String) throws -> [(pixels: [UInt8], delayMilliseconds: Int)] {
        let spec = try IndicatorQuery.parse(query: Substring(query)).spec
        let timeline = AnimationTimeline(spec: spec)
        let renderer = RasterRenderer()
        return timeline.frames().map { (renderer.render(timeline.drawing(of: $0), scale: spec.scale).pixels, $0.delay) }
    }

    @Test(arguments: [
        ("/indicator.gif?pages=4&current=1&style=pill", "image/gif"),
        ("/indicator@2x.gif?pages=3&style=progress&colors=red,blue&dwell=1000", "image/gif"),
        ("/indicator@3x?pages=3&style=bar&labels=A,B,C&format=gif&effect=worm", "image/gif"),
        ("/indicator.apng?pages=4&current=1&style=scroll&visible=3", "image/png"),
        ("/indicator@2x.apng?pages=3&style=progress&colors=red,blue&dwell=1000", "image/png"),
        ("/indicator@3x?pages=3&style=bar&labels=A,B,C&format=apng&effect=fade", "image/png"),
    ])
    func servedLikeStillImages(target: String, type: String) throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request(target)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("content-type") == type)
        #expect(response.header("content-length") == String(response.body.count))
        #expect(response.header("cache-control") == "public, max-age=31536000, immutable")
        let tag = try #require(response.header("etag"))
        #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
        // Asked before drawing the image in process here: that can outlast the idle timeout.
        client.request(target, headers: ["If-None-Match: \(tag)"])
        #expect(try client.readResponse().status == 304)
        #expect(response.body == (try ServiceIntegrationTests().rendered(target)))
    }

    @Test func theGIFPlaysTheTimelineOverTheMatteAndStartsOnTheStill() throws {
        let query = "pages=4&current=2&style=pill&scale=2&dwell=600&transition=200&loop=3&colors=ff3b30,34c759&fill=outline&matte=f2f2f7"
        let gif = try GIFReader(try get("/indicator.gif?" + query).body)
        let matte = (red: UInt8(0xF2), green: UInt8(0xF2), blue: UInt8(0xF7))
        let expected = ExpectedPlayback.frames(try expectedFrames(query + "&format=gif"), matte: matte)
        #expect(gif.plays == 3)
        #expect(gif.frames.count == expected.count)
        for (frame, wanted) in zip(gif.frames, expected) {
            #expect(frame.delay.map { $0 * 10 } == wanted.delayMilliseconds)
            let difference = RGBADifference.between(expected: wanted.canvas, actual: frame.canvas, width: gif.width, height: gif.height)
            #expect(difference == nil, "\(difference?.description ?? "")")
        }
        #expect(expected.map(\.delayMilliseconds).reduce(0, +) == 4 * 600)
        // The first frame is the PNG with the same parameters, over the matte.
        let still = try PNGDecoder.decode(try get("/indicator.png?" + query).body)
        #expect(gif.frames.first?.canvas == ExpectedPlayback.composite(still.rgba, over: matte))
    }

    @Test func theAPNGShowsTheTimelinesFramesAndStartsOnTheStill() throws {
        let query = "pages=4&current=2&style=pill&scale=2&dwell=600&transition=200&loop=3&colors=ff3b30,34c759&fill=outline"
        let apng = try PNGDecoder.decodeAnimation(try get("/indicator.apng?" + query).body)
        let still = try PNGDecoder.decode(try get("/indicator.png?" + query).body)
        // The default image is the first frame: a client that does not animate shows the PNG.
        #expect(apng.defaultImageIsFirstFrame)
        #expect(apng.image.rgba == still.rgba)
        #expect(apng.plays == 3)
        let expected = try expectedFrames(query + "&format=apng")
        #expect(apng.frames.map(\.rgba) == expected.map(\.pixels))
        #expect(apng.frames.map(\.milliseconds) == expected.map { Double($0.delayMilliseconds) })
    }

    @Test func aProgressTimerStartsEmptyAndLoopsForever() throws {
        let gif = try GIFReader(try get("/indicator.gif?pages=3&style=progress&progress=0.7").body)
        let still = try PNGDecoder.decode(try get("/indicator.png?pages=3&style=progress&progress=0").body)
        #expect(gif.frames.first?.canvas == ExpectedPlayback.composite(still.rgba, over: (255, 255, 255)))
        #expect(gif.plays == 0)
        let apng = try PNGDecoder.decodeAnimation(try get("/indicator.apng?pages=3&style=progress&progress=0.7").body)
        #expect(apng.image.rgba == still.rgba)
        #expect(apng.plays == 0)
    }

    @Test func aDarkAnimationDrawsTheDarkColours() throws {
        let query = "pages=3&current=1&theme=dark&darkbg=1c1c1e"
        let gif = try GIFReader(try get("/indicator.gif?" + query).body)
        let dark = try PNGDecoder.decode(try get("/indicator.png?" + query).body)
        #expect(gif.frames.first?.canvas == dark.rgba)
        // systemBlue's dark shade 0A84FF on the dark background, in every frame.
        #expect(stride(from: 0, to: dark.rgba.count, by: 4).contains { dark.rgba[$0 ..< $0 + 4] == [0x0A, 0x84, 0xFF, 0xFF] })
        #expect(gif.frames.allSatisfy { $0.canvas[0 ..< 4] == [0x1C, 0x1C, 0x1E, 0xFF] })
        let apng = try PNGDecoder.decodeAnimation(try get("/indicator.apng?" + query).body)
        #expect(apng.image.rgba == dark.rgba)
        #expect(apng.frames.allSatisfy { $0.rgba[0 ..< 4] == [0x1C, 0x1C, 0x1E, 0xFF] })
    }

    @Test func aDarkAnimationOnATransparentBackgroundStartsOnTheDarkStill() throws {
        let query = "pages=4&current=3&style=pill&fill=outline&theme=dark&darkinactive=ffffff80&matte=000000&scale=2"
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let lightQuery = query.replacingOccurrences(of: "theme=dark", with: "theme=light")
        let bodies = try ["/indicator.gif?" + query, "/indicator.apng?" + query, "/indicator.png?" + query, "/indicator.png?" + lightQuery].map { path in
            client.request(path)
            let response = try client.readResponse()
            #expect(response.status == 200, "\(path)")
            return response.body
        }
        let gif = try GIFReader(bodies[0])
        let apng = try PNGDecoder.decodeAnimation(bodies[1])
        let dark = try PNGDecoder.decode(bodies[2]), light = try PNGDecoder.decode(bodies[3])
        #expect(dark.rgba != light.rgba)
        // The GIF's first frame is the dark still over the (black) matte, the APNG's is the dark still itself.
        #expect(gif.frames.first?.canvas == ExpectedPlayback.composite(dark.rgba, over: (0, 0, 0)))
        #expect(apng.image.rgba == dark.rgba && apng.frames.first?.rgba == dark.rgba)
        // Every frame of both has the dark blue somewhere: the current indicator keeps its dark colour as it moves.
        let darkBlue: [UInt8] = [0x0A, 0x84, 0xFF, 0xFF]
        let hasDarkBlue = { (rgba: [UInt8]) in stride(from: 0, to: rgba.count, by: 4).contains { Array(rgba[$0 ..< $0 + 4]) == darkBlue } }
        #expect(gif.frames.allSatisfy { hasDarkBlue($0.canvas) })
        #expect(apng.frames.allSatisfy { hasDarkBlue($0.rgba) })
    }

    @Test(arguments: ["/indicator.gif", "/indicator.apng"])
    func overTheLimitsIsA400ThatSaysWhatToLower(path: String) throws {
        let response = try get(path + "?pages=100&size=2&spacing=0&padding=0&transition=420&fps=50")
        #expect(response.status == 400)
        #expect(response.header("cache-control") == "no-store")
        #expect(response.text == "image: must be at most 2000 frames and 33,554,432 pixels over all frames; "
            + "got 2001 frames of 200x2 pixels (lower fps, transition, pages or scale, or use effect=none)\n")
    }
}
