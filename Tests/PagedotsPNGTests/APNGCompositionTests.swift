import PagedotsPNG
import Testing
import TestSupport

@Suite("APNG: frames composited per dispose and blend operation are the input frames")
struct APNGCompositionTests {
    static let clear: [UInt8] = [0, 0, 0, 0], blue: [UInt8] = [0, 122, 255, 255], red: [UInt8] = [255, 59, 48, 255]

    /// Opaque noise of 16 colours where `inside(x, y)`, `outside` elsewhere.
    static func pattern(width: Int, height: Int, seed: UInt64, outside: [UInt8], inside: (Int, Int) -> Bool) -> TestImage {
        let colors = TestImage.distinctColors(16, seed: seed, opaque: true)
        var random = SplitMix64(seed: seed)
        return TestImage(width: width, height: height) { x, y in
            let color = colors[Int(random.next() % 16)]
            return inside(x, y) ? color : outside
        }
    }

    @Test("a shape that goes away: the frame before is disposed of to the background")
    func disposeBackground() throws {
        let first = TestImage(width: 40, height: 20) { x, y in x == 1 && y == 1 ? Self.blue : Self.clear }
        let shape = Self.pattern(width: 40, height: 20, seed: 3, outside: Self.clear) { x, y in x >= 5 && x < 35 && y >= 2 && y < 18 }
        var withShape = shape.rgba
        withShape.replaceSubrange(4 * (1 * 40 + 1) ..< 4 * (1 * 40 + 1) + 4, with: Self.blue)
        let animation = TestAnimation(width: 40, height: 20, frames: [first.rgba, withShape, first.rgba], delays: [20, 20, 20])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.frames[1].dispose == 1)
        #expect(decoded.frames[2].width * decoded.frames[2].height == 1)
    }

    @Test("an overlay that moves over a busy background: the frame before is disposed of to the previous canvas")
    func disposePrevious() throws {
        let background = Self.pattern(width: 40, height: 20, seed: 5, outside: Self.clear) { _, _ in true }
        let blueCorner = TestAnimation.painted(background, steps: [[.init(x: 1, y: 1, width: 4, height: 4, color: Self.blue)]]).frames[1]
        let redCorner = TestAnimation.painted(background, steps: [[.init(x: 34, y: 14, width: 4, height: 4, color: Self.red)]]).frames[1]
        let animation = TestAnimation(width: 40, height: 20, frames: [background.rgba, blueCorner, redCorner], delays: [20, 20, 20])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.frames[1].dispose == 2)
        #expect(decoded.frames[2].width * decoded.frames[2].height == 16)
    }

    @Test("changes far apart around a busy, unchanged middle: OVER leaves the middle transparent")
    func blendOver() throws {
        let first = Self.pattern(width: 40, height: 20, seed: 9, outside: Self.clear) { x, y in x >= 4 && x < 36 && y >= 3 && y < 17 }
        let animation = TestAnimation.painted(first, steps: [[
            .init(x: 0, y: 0, width: 2, height: 2, color: Self.blue), .init(x: 38, y: 18, width: 2, height: 2, color: Self.red),
        ]])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.frames[1].blend == 1)
    }

    @Test("an opaque palette gets a transparent entry after its most frequent colour, so that frames can blend OVER")
    func transparentEntry() throws {
        let white: [UInt8] = [255, 255, 255, 255]
        let first = Self.pattern(width: 40, height: 20, seed: 9, outside: white) { x, y in x >= 4 && x < 36 && y >= 3 && y < 17 }
        let animation = TestAnimation.painted(first, steps: [[
            .init(x: 0, y: 0, width: 2, height: 2, color: Self.blue), .init(x: 38, y: 18, width: 2, height: 2, color: Self.red),
        ]])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.image.transparency == [255, 0])
        #expect(decoded.image.palette.count == 20)
        #expect(decoded.frames[1].blend == 1)
        // Two colours fit 1-bit indices, three would not: no entry is added.
        let twoColors = TestAnimation.painted(TestImage(width: 8, height: 8) { _, _ in white }, steps: [[.init(x: 1, y: 1, width: 2, height: 2, color: Self.blue)]])
        let small = try expectAnimationRoundTrip(twoColors)
        #expect(small.image.transparency.isEmpty && small.image.bitDepth == 1)
    }

    @Test("an opaque animation in more colours than a palette holds is RGB with a colour key that no pixel uses, so that frames can blend OVER")
    func colorKey() throws {
        let colors = TestImage.distinctColors(300, seed: 11, opaque: true)
        let first = TestImage.randomPick(width: 40, height: 20, from: colors, seed: 11)
        let animation = TestAnimation.painted(first, steps: [[
            .init(x: 0, y: 0, width: 2, height: 2, color: Self.blue), .init(x: 38, y: 18, width: 2, height: 2, color: Self.red),
        ]])
        let decoded = try expectAnimationRoundTrip(animation)
        #expect(decoded.image.colorType == 2)
        #expect(decoded.image.transparency.count == 6)
        let key = [1, 3, 5].map { decoded.image.transparency[$0] }
        #expect(!animation.frames.contains { frame in stride(from: 0, to: frame.count, by: 4).contains { Array(frame[$0 ..< $0 + 3]) == key } })
        #expect(decoded.frames[1].blend == 1)
    }

    @Test("indicator-like animations over transparent, white and dark backgrounds, at several sizes", arguments: [
        (5, 8, [0, 0, 0, 0]), (5, 16, [255, 255, 255, 255]), (4, 24, [28, 28, 30, 255]), (12, 6, [0, 0, 0, 0]),
    ] as [(Int, Int, [UInt8])])
    func indicators(count: Int, diameter: Int, background: [UInt8]) throws {
        try expectAnimationRoundTrip(TestAnimation.movingDot(count: count, diameter: diameter, steps: 5, background: background))
    }

    @Test("random animations: painted rectangles, noise, translucent colours, repeats", arguments: 1 ... 24)
    func random(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let width = next(30) + 1, height = next(20) + 1
        let colors = TestImage.distinctColors(next(7) + 2, seed: seed, grey: seed % 5 == 0, opaque: seed % 3 == 0)
        let first = TestImage.randomPick(width: width, height: height, from: colors, seed: seed)
        var steps: [[TestAnimation.Paint]] = []
        for _ in 0 ..< next(10) + 1 {
            steps.append((0 ..< next(3)).map { _ in
                let x = next(width), y = next(height)
                return TestAnimation.Paint(x: x, y: y, width: next(width - x) + 1, height: next(height - y) + 1, color: colors[next(colors.count)])
            })
        }
        var animation = TestAnimation.painted(first, steps: steps)
        if seed % 4 == 0 {
            // A frame of noise in more colours than a palette holds.
            animation.frames.insert(TestImage.randomPick(width: width, height: height, from: TestImage.distinctColors(300, seed: seed), seed: seed).rgba, at: 1)
        }
        animation.delays = animation.frames.map { _ in (next(20) + 2) * 10 }
        try expectAnimationRoundTrip(animation, plays: next(3))
    }
}
