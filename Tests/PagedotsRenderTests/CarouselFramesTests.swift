import Testing
import PagedotsCore
@testable import PagedotsRender

/// Carousel frames composed from slides: decoded when needed, two at a time,
/// scaled to the first's size, and each frame equal to the frame before
/// outside the box it says changed.
struct CarouselFramesTests {
    /// A slide of `width × height` in one opaque colour.
    static func slide(_ color: [UInt8], width: Int, height: Int) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in color + [255] }.joined()))
    }

    static let colors: [[UInt8]] = [[200, 0, 0], [0, 200, 0], [0, 0, 200], [200, 200, 0]]

    /// Frames of a carousel of the first `count` of four slides (the second
    /// square, the rest 64 × 32) for `query`, and a count of the decodes asked for.
    static func frames(_ query: String, count: Int = 4) throws -> (frames: CarouselFrames<Never>, decodes: () -> Int) {
        let sizes = [(64, 32), (64, 64), (64, 32), (64, 32)].prefix(count)
        let request = try CarouselQuery.parse(
            query: Substring(query), options: PathOptions(), source: .slides(count: count, width: 64, height: 32)
        )
        final class Counter { var count = 0 }
        let counter = Counter()
        let pictures = CarouselPictures<Never>(
            slideSizes: sizes.map { ($0.0, $0.1) },
            slide: { index, _ in
                counter.count += 1
                return slide(colors[index], width: sizes[index].0, height: sizes[index].1)
            },
            sourceFrame: { _ in preconditionFailure("no source frames") }
        )
        let frames = CarouselFrames(spec: request.spec, layout: request.layout, renderer: RasterRenderer(), pictures: pictures)
        return (frames, { counter.count })
    }

    static let small = "size=2&spacing=2&padding=1&scale=1&inset=2&dwell=500"

    @Test("Each slide is decoded when first needed, at most two held: a cycle decodes pages + 1 times (current again at the end)",
          arguments: ["change=cut", "change=fade", "change=push"])
    func decodesTwoAtATime(change: String) throws {
        let (frames, decodes) = try Self.frames("\(Self.small)&\(change)&current=1")
        for index in 0..<frames.count { _ = frames.frame(at: index) }
        #expect(decodes() == 5)
        // Three slides, 0 1 2 0: holding a third would keep slide 0 for the cycle's end.
        let (three, threeDecodes) = try Self.frames("\(Self.small)&\(change)", count: 3)
        for index in 0..<three.count { _ = three.frame(at: index) }
        #expect(threeDecodes() == 4)
    }

    @Test(
        "Every frame composed over the one before equals the same frame composed whole",
        arguments: ["change=cut", "change=cut&effect=worm&place=below", "change=cut&backdrop=00000059&fill=outline&style=pill",
                    "change=fade&style=progress", "change=push&style=progress&place=above"]
    )
    func incrementalEqualsWhole(change: String) throws {
        let query = "\(Self.small)&\(change)&current=2&transition=200&fps=20"
        let (frames, _) = try Self.frames(query)
        var composedInPart = 0
        for index in 0..<frames.count {
            let incremental = frames.frame(at: index).pixels
            // A fresh source composes its first frame asked for whole.
            let whole = try Self.frames(query).frames.frame(at: index).pixels
            #expect(incremental == whole, "frame \(index) of \(frames.count)")
            if frames.changedBox(at: index).map({ $0.area < frames.width * frames.height }) ?? false { composedInPart += 1 }
        }
        // The comparison means something only if frames were composed in part
        // (the indicator moving over a slide that stays).
        #expect(composedInPart >= 4)
    }

    @Test("Outside its changed box, every frame is the frame before; the first shows slide current", arguments: ["change=cut", "change=fade", "change=push", "change=fade&place=below"])
    func changedBoxes(change: String) throws {
        let (frames, _) = try Self.frames("\(Self.small)&\(change)&current=2")
        var before = frames.frame(at: 0).pixels
        #expect(Array(before[0..<3]) == Self.colors[2])
        for index in 1..<frames.count {
            let pixels = frames.frame(at: index).pixels
            let box = try #require(frames.changedBox(at: index))
            for y in 0..<frames.height {
                for x in 0..<frames.width where !(box.x..<(box.x + box.width)).contains(x) || !(box.y..<(box.y + box.height)).contains(y) {
                    let start = (y * frames.width + x) * 4
                    guard pixels[start..<(start + 4)] == before[start..<(start + 4)] else {
                        Issue.record("frame \(index) differs at (\(x), \(y)) outside \(box)")
                        return
                    }
                }
            }
            before = pixels
        }
    }

    @Test("A slide of another size is scaled to the first's: cover fills it, contain centres it on matte")
    func fit() throws {
        // The second slide is square: cover crops it to fill the canvas; contain
        // fits it in the middle 32 × 32, white matte on either side.
        for (fit, corner) in [("cover", [UInt8]([0, 200, 0])), ("contain", [255, 255, 255])] {
            let (frames, _) = try Self.frames("\(Self.small)&current=1&fit=\(fit)")
            let pixels = frames.frame(at: 0).pixels
            #expect(Array(pixels[0..<3]) == corner, "\(fit)")
            let middle = (5 * 64 + 32) * 4
            #expect(Array(pixels[middle..<(middle + 3)]) == [0, 200, 0], "\(fit)")
        }
    }

    @Test("A slide that cannot be read fails the first frame that shows it, and no other")
    func failure() throws {
        struct Unreadable: Error, Equatable { var index: Int }
        let request = try CarouselQuery.parse(query: Substring(Self.small), options: PathOptions(), source: .slides(count: 3, width: 64, height: 32))
        let frames = CarouselFrames(
            spec: request.spec, layout: request.layout, renderer: RasterRenderer(),
            pictures: CarouselPictures<Unreadable>(
                slideSizes: [(64, 32), (64, 32), (64, 32)],
                slide: { (index, _) throws(Unreadable) in
                    guard index != 1 else { throw Unreadable(index: index) }
                    return Self.slide(Self.colors[index], width: 64, height: 32)
                },
                sourceFrame: { (index) throws(Unreadable) in throw Unreadable(index: index) }
            )
        )
        #expect(try frames.frame(at: 0).pixels.count == 64 * 32 * 4)
        let first = try #require(frames.frames.firstIndex { $0.frame.slides != frames.frames[0].frame.slides })
        for index in 1..<first { _ = try frames.frame(at: index) }
        #expect(throws: Unreadable(index: 1)) { try frames.frame(at: first) }
    }
}
