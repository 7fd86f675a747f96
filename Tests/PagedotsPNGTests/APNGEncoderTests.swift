@testable import PagedotsPNG
import PagedotsPixels
import Testing
import TestSupport

@Suite("APNG: frames, delays, plays, the default image, the colour type")
struct APNGEncoderTests {
    static let blue: [UInt8] = [0, 122, 255, 255], red: [UInt8] = [255, 59, 48, 255], clear: [UInt8] = [0, 0, 0, 0]

    /// Three distinct 6×4 pictures.
    static let pictures: [[UInt8]] = [clear, blue, red].map { color in
        TestImage(width: 6, height: 4) { x, y in x == y ? color : [9, 9, 9, 128] }.rgba
    }

    @Test("identical consecutive frames are merged into one that shows as long as they did")
    func merging() throws {
        let picks = [0, 0, 1, 1, 1, 0, 2]
        let animation = TestAnimation(width: 6, height: 4, frames: picks.map { Self.pictures[$0] }, delays: [100, 40, 20, 20, 30, 50, 60])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.frames.count == 4)
        #expect(decoded.frames.map(\.milliseconds) == [140, 70, 50, 60])
    }

    @Test("delays are exact, as reduced fractions of a second", arguments: [20, 30, 40, 100, 250, 2680, 3000, 60000, 65_530_000])
    func delays(milliseconds: Int) throws {
        let animation = TestAnimation(width: 6, height: 4, frames: Array(Self.pictures.prefix(2)), delays: [milliseconds, 20])
        let decoded = try expectAnimationRoundTrip(animation)
        let first = try #require(decoded.frames.first)
        #expect(first.delayNumerator * 1000 == milliseconds * first.delayDenominator)
        var (a, b) = (first.delayNumerator, first.delayDenominator)
        while b != 0 {
            (a, b) = (b, a % b)
        }
        #expect(a == 1, "\(first.delayNumerator)/\(first.delayDenominator) is not reduced")
    }

    @Test("a delay no fcTL can hold goes on over frames that change nothing, and adds up exactly")
    func longDelays() throws {
        // 700.01 s is 70001/100 s, too large a numerator; merged frames can show for over 65535 s.
        for delays in [[700_010], [65_000_000, 65_000_000], [65_535_000, 65_535_000, 10]] {
            let frames = Array(repeating: Self.pictures[0], count: delays.count) + [Self.pictures[1]]
            let decoded = try expectAnimationRoundTrip(TestAnimation(width: 6, height: 4, frames: frames, delays: delays + [20]))
            #expect(decoded.frames.count > 2)
            #expect(decoded.frames.dropLast().allSatisfy { $0.rgba == Self.pictures[0] })
        }
    }

    @Test("delays below 0 count as 0, above 65535 s as 65535 s")
    func outOfRangeDelays() throws {
        let animation = TestAnimation(width: 6, height: 4, frames: Array(Self.pictures.prefix(2)), delays: [.max, -5])
        let decoded = try PNGDecoder.decodeAnimation(animation.encode())
        #expect(decoded.frames.map(\.milliseconds) == [65_535_000, 0])
    }

    @Test("FrameDelay splits a delay into parts that fit fcTL and add up to it", arguments: [
        0, 20, 999, 65_535_000, 65_535_010, 700_010, 131_070_000, 200_000_000,
    ])
    func delaySplit(milliseconds: Int) {
        let parts = FrameDelay.split(milliseconds: milliseconds)
        #expect(!parts.isEmpty)
        #expect(parts.map { Int($0.numerator) * 1000 / Int($0.denominator) }.reduce(0, +) == milliseconds)
        #expect(parts.allSatisfy { Int($0.numerator) * 1000 % Int($0.denominator) == 0 && $0.denominator > 0 })
    }

    @Test("acTL's play count", arguments: [0, 1, 3])
    func plays(_ plays: Int) throws {
        try expectAnimationRoundTrip(TestAnimation(width: 6, height: 4, frames: Self.pictures, delays: [20, 20, 20]), plays: plays)
    }

    @Test("a play count below 0 counts as 0 (forever)")
    func negativePlays() throws {
        let decoded = try PNGDecoder.decodeAnimation(TestAnimation(width: 6, height: 4, frames: Self.pictures, delays: [20, 20, 20]).encode(plays: -2))
        #expect(decoded.plays == 0)
    }

    @Test("the default image is the first frame, the whole canvas, and decodes to what the still PNG does")
    func defaultImage() throws {
        let animation = TestAnimation.movingDot(count: 5, diameter: 16, steps: 4)
        let decoded = try expectAnimationRoundTrip(animation)
        let still = try PNGDecoder.decode(PNGEncoder().encode(rgba: animation.frames[0], width: animation.width, height: animation.height))
        #expect(decoded.image.rgba == still.rgba)
        let first = try #require(decoded.frames.first)
        #expect((first.x, first.y, first.width, first.height) == (0, 0, animation.width, animation.height))
        #expect(first.blend == 0)
    }

    @Test("chunks: IHDR, acTL, PLTE, tRNS, the first fcTL, IDAT, then fcTL and fdAT per frame, IEND")
    func chunkOrder() throws {
        let animation = TestAnimation.movingDot(count: 3, diameter: 8, steps: 3)
        let decoded = try expectAnimationRoundTrip(animation)
        let frames = Array(repeating: ["fcTL", "fdAT"], count: decoded.frames.count - 1).flatMap { $0 }
        #expect(decoded.image.chunkTypes == ["IHDR", "acTL", "PLTE", "tRNS", "fcTL", "IDAT"] + frames + ["IEND"])
    }

    @Test("the colour type is chosen once, from every frame: a colour that only a later frame shows is in the palette")
    func colorTypeFromAllFrames() throws {
        let first = TestImage(width: 20, height: 10) { x, _ in x < 10 ? Self.clear : Self.blue }
        let animation = TestAnimation.painted(first, steps: [[.init(x: 2, y: 2, width: 3, height: 3, color: Self.blue)], [.init(x: 12, y: 1, width: 4, height: 4, color: Self.red)]])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.image.colorType == 3)
        #expect(decoded.image.chunkTypes.filter { $0 == "PLTE" }.count == 1)
        #expect(decoded.image.palette.count == 3)
        #expect(decoded.image.palette.contains(Array(Self.red.prefix(3))))
    }

    @Test("more colours over all frames than a palette holds: every frame is RGBA, the first one too")
    func manyColorsLater() throws {
        let colors = TestImage.distinctColors(300, seed: 7)
        var random = SplitMix64(seed: 7)
        let noise = TestImage(width: 30, height: 20) { _, _ in colors[Int(random.next() % 300)] }
        let first = TestImage(width: 30, height: 20) { x, _ in x < 15 ? Self.clear : Self.blue }
        let animation = TestAnimation(width: 30, height: 20, frames: [first.rgba, first.rgba, noise.rgba], delays: [20, 20, 20])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.image.colorType == 6)
    }

    @Test("a later frame stores no more than the rectangle that changed")
    func changedRectangles() throws {
        let animation = TestAnimation.movingDot(count: 5, diameter: 12, steps: 6, background: [28, 28, 30, 255])
        let decoded = try expectAnimationRoundTrip(animation)
        for (number, frame) in decoded.frames.enumerated().dropFirst() {
            let canvas = PixelRect(x: 0, y: 0, width: animation.width, height: animation.height)
            let area = max(1, PixelRect.changed(from: decoded.frames[number - 1].rgba, to: frame.rgba, width: animation.width, within: canvas).area)
            #expect(frame.width * frame.height <= area, "frame \(number): \(frame.width)×\(frame.height) for a change of \(area) pixels")
        }
    }

    @Test("the same frames always give the same bytes; a reused encoder gives a fresh one's")
    func deterministic() {
        let animations = [
            TestAnimation.movingDot(count: 4, diameter: 10, steps: 3),
            TestAnimation(width: 6, height: 4, frames: Self.pictures, delays: [20, 30, 40]),
            TestAnimation.movingDot(count: 3, diameter: 24, steps: 2, background: [255, 255, 255, 255]),
        ]
        let shared = APNGEncoder()
        for animation in animations {
            let fresh = animation.encode()
            #expect(animation.encode(encoder: shared) == fresh)
            #expect(animation.encode(encoder: shared) == fresh)
        }
    }

    @Test("boxes said to hold each frame's change (exact, loose, past the canvas, the whole canvas, or unknown) give the bytes of none")
    func changedBoxes() {
        let animations = [
            TestAnimation.movingDot(count: 4, diameter: 10, steps: 3),
            TestAnimation.movingDot(count: 3, diameter: 24, steps: 2, background: [255, 255, 255, 255]),
            TestAnimation(width: 6, height: 4, frames: Self.pictures + [Self.pictures[2]], delays: [20, 30, 40, 50]),
        ]
        for animation in animations {
            let plain = animation.encode()
            // The tight box of the bytes that differ from the frame before.
            let exact = animation.frames.indices.map { index -> PixelRect? in
                guard index > 0 else { return nil }
                let canvas = PixelRect(x: 0, y: 0, width: animation.width, height: animation.height)
                // An unchanged frame's box is empty.
                return PixelRect.changed(from: animation.frames[index - 1], to: animation.frames[index], width: animation.width, within: canvas)
            }
            let hints: [(Int) -> PixelRect?] = [
                { exact[$0] },
                { index in exact[index].map { PixelRect(x: $0.x - 1, y: $0.y - 2, width: $0.width + 3, height: $0.height + 5) } },
                { _ in PixelRect(x: -5, y: -5, width: animation.width + 10, height: animation.height + 10) },
                { _ in PixelRect(x: 0, y: 0, width: animation.width, height: animation.height) },
                { _ in nil },
            ]
            for hint in hints {
                let file = APNGEncoder().encode(
                    FrameList(
                        width: animation.width, height: animation.height, count: animation.frames.count,
                        frameAt: { (animation.frames[$0], animation.delays[$0]) }, changedBoxAt: hint
                    ),
                    plays: 0
                )
                #expect(file == plain)
            }
        }
    }

    @Test("no frames: a still PNG of a fully transparent canvas")
    func noFrames() throws {
        for frameCount in [0, -3] {
            let file = APNGEncoder().encode(FrameList(width: 7, height: 3, count: frameCount) { _ in ([], 20) }, plays: 0)
            let decoded = try PNGDecoder.decode(file)
            #expect(!decoded.chunkTypes.contains("acTL"))
            #expect(decoded.rgba == [UInt8](repeating: 0, count: 7 * 3 * 4))
        }
    }

    @Test("tiny, long, one-frame and all-transparent animations")
    func edgeCases() throws {
        let pixel = TestAnimation(width: 1, height: 1, frames: [Self.clear, Self.blue, Self.red, Self.red, [5, 6, 7, 8]], delays: [20, 30, 40, 50, 60])
        try expectAnimationRoundTrip(pixel)
        let single = TestAnimation(width: 1, height: 1, frames: [Self.blue], delays: [20])
        #expect(try expectAnimationRoundTrip(single).frames.count == 1)
        let long = TestAnimation(width: 4096, height: 1, frames: (0 ..< 6).map { step in
            TestImage(width: 4096, height: 1) { x, _ in x / 700 == step ? Self.blue : Self.clear }.rgba
        }, delays: Array(repeating: 40, count: 6))
        try expectAnimationRoundTrip(long)
        let transparent = [UInt8](repeating: 0, count: 16 * 8 * 4)
        let empty = TestAnimation(width: 16, height: 8, frames: Array(repeating: transparent, count: 5), delays: Array(repeating: 20, count: 5))
        #expect(try expectAnimationRoundTrip(empty).frames.count == 1)
    }

    @Test("when the changes are too many to keep, a second pass asks for the frames again, in order")
    func secondPass() throws {
        let animation = TestAnimation.movingDot(count: 4, diameter: 8, steps: 3)
        var calls: [Int] = []
        let encoder = APNGEncoder(budget: CacheBudget(allowances: [.images: 600]))
        let file = encoder.encode(FrameList(width: animation.width, height: animation.height, count: animation.frames.count) { index in
            calls.append(index)
            return (animation.frames[index], animation.delays[index])
        }, plays: 0)
        let count = animation.frames.count
        let changing = (1 ..< count).filter { animation.frames[$0] != animation.frames[$0 - 1] }
        #expect(calls == Array(0 ..< count) + changing)
        #expect(file == animation.encode())
    }

    /// pngcheck 3.0.3 (Debian 12) checks the chunk framing, CRCs and the
    /// default image; it lists acTL, fcTL and fdAT as unknown ancillary chunks.
    @Test("the colour key search finds a colour no pixel has, and none once every 4-bit cell is taken")
    func colorKeySearch() {
        var search = ColorKeySearch()
        // Black, and every colour whose channels are multiples of 16 but (16, 0, 0).
        var pixels: [UInt8] = [0, 0, 0, 255]
        for cell in 0 ..< 4096 where cell != 1 << 8 {
            pixels += [UInt8(cell >> 8) << 4, UInt8(cell >> 4 & 15) << 4, UInt8(cell & 15) << 4, 255]
        }
        pixels.withUnsafeBytes { search.add($0) }
        #expect(search.unusedColor == 16)
        [UInt8](arrayLiteral: 31, 2, 3, 255).withUnsafeBytes { search.add($0) }
        #expect(search.unusedColor == nil)
    }

    @Test("pngcheck -v accepts the file")
    func pngcheck() throws {
        let animation = TestAnimation.movingDot(count: 5, diameter: 16, steps: 8)
        #expect(TestOutput.write(animation.encode(plays: 3), named: "animation.png"))
        let result = try #require(ExternalCommand.run(["pngcheck", "-v", TestOutput.directory + "/animation.png"]), "cannot run pngcheck: install the Debian package pngcheck")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("No errors detected"), "\(result.output)")
        #expect(result.output.contains("chunk fdAT"), "\(result.output)")
    }
}
