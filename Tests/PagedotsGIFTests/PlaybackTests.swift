@testable import PagedotsGIF
import Testing
import TestSupport

/// Encodes `animation`, reads it back with giflib and plays it: every frame
/// must show exactly the input over the matte, merged frames once with their
/// delays summed. Returns what was read.
@discardableResult
func expectPlaysBack(
    _ animation: TestAnimation, plays: Int = 0, matte: TestAnimation.Matte = (255, 255, 255),
    encoder: GIFEncoder = GIFEncoder(), tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
) throws -> GIFReader {
    let gif = animation.encode(plays: plays, matte: matte, encoder: encoder)
    let read = try GIFReader(gif)
    let expected = animation.expectedFrames(matte: matte)
    #expect(read.width == animation.width && read.height == animation.height, sourceLocation: sourceLocation)
    #expect(read.frames.count == expected.count, "frames after merging", sourceLocation: sourceLocation)
    for (number, (frame, wanted)) in zip(read.frames, expected).enumerated() {
        let difference = frame.canvas == wanted.canvas ? nil : RGBADifference.between(
            expected: wanted.canvas, actual: frame.canvas, width: animation.width, height: animation.height, tolerance: tolerance
        )
        #expect(difference == nil, "frame \(number): \(difference?.description ?? "")", sourceLocation: sourceLocation)
        if expected.count > 1 {
            #expect(frame.delay == wanted.delayMilliseconds / 10, "frame \(number)'s delay", sourceLocation: sourceLocation)
        }
    }
    if let first = read.frames.first {
        #expect(first.left == 0 && first.top == 0 && first.width == animation.width && first.height == animation.height,
                "the first frame covers the canvas", sourceLocation: sourceLocation)
    }
    return read
}

@Suite("Frames read back with giflib show the input over the matte")
struct PlaybackTests {
    @Test("a compositor gives each pixel the matte's composite, the same pixel twice in a row too")
    func compositor() {
        var random = SplitMix64(seed: 5)
        let matte = Matte(red: 12, green: 200, blue: 99)
        var compositor = Compositor(matte: matte)
        // Few values, so that neighbours often repeat; 0 among them (the compositor starts as if after it).
        let values: [UInt32] = [0, 0xFF10_2030, 0x8040_5060, 0x0011_2233, 0x01FF_FFFF, 0xFE00_0000]
        for _ in 0..<500 {
            let input = values[Int(random.next() % UInt64(values.count))]
            #expect(compositor.composite(input) == matte.composite(input.littleEndian))
        }
    }

    @Test("a dot sliding along a row of dots, at 1x, 2x and 3x sizes", arguments: [(6, 5), (12, 4), (18, 3)])
    func slidingDot(diameter: Int, count: Int) throws {
        let read = try expectPlaysBack(.slidingDot(count: count, diameter: diameter, steps: 5))
        #expect(read.globalPaletteSize != nil)
        #expect(read.frames.allSatisfy { $0.localPaletteSize == nil })
        // Frames after the first store only what changed.
        #expect(read.frames.dropFirst().allSatisfy { $0.width * $0.height < read.width * read.height / 2 })
    }

    @Test("on an opaque background and over a dark matte")
    func backgrounds() throws {
        try expectPlaysBack(.slidingDot(background: [20, 20, 24]))
        try expectPlaysBack(.slidingDot(color: [255, 45, 85]), matte: (0, 0, 0))
    }

    @Test("pixels that become transparent again are cleared by disposal")
    func clearing() throws {
        // A square that moves right over a transparent canvas and then vanishes.
        var animation = TestAnimation(width: 20, height: 6)
        for step in [0, 3, 6, 9, -1, 12] {
            animation.append { x, _ in step >= 0 && (step..<step + 4).contains(x) ? [200, 0, 0, 255] : [0, 0, 0, 0] }
        }
        let read = try expectPlaysBack(animation)
        #expect(read.frames.contains { $0.disposal == 2 })
    }

    @Test("unchanged pixels in runs of several colours, of one colour the frame draws, and transparent: every variant plays back")
    func keptRuns() throws {
        let colors: [[UInt8]] = (0..<8).map { [UInt8(30 * $0), 200, UInt8(255 - 30 * $0), 255] }
        let clear: [UInt8] = [0, 0, 0, 0]
        var animation = TestAnimation(width: 16, height: 2)
        animation.append { x, y in y == 0 ? colors[x % 8] : (5...7).contains(x) ? colors[0] : clear }
        // Row 0 keeps a run of eight colours between two changed pixels; row
        // 1 keeps a run of one colour that the frame draws, between runs of
        // transparent pixels.
        animation.append { x, y in
            switch (x, y) {
            case (0, 0), (15, 1): colors[1]
            case (15, 0), (4, 1): colors[0]
            default: y == 0 ? colors[x % 8] : (5...7).contains(x) ? colors[0] : clear
            }
        }
        let read = try expectPlaysBack(animation)
        #expect(read.frames.count == 2)
    }

    @Test("opaque frames, then one with a half-transparent pixel and a colour at alpha 0, then opaque again: every frame plays back")
    func opaqueThenNot() throws {
        // Opaque frames are diffed against the target itself; the first
        // frame that is not opaque gives the differ a copy of its input.
        var animation = TestAnimation(width: 12, height: 6)
        let ground: (Int, Int) -> [UInt8] = { x, y in [UInt8(20 * x), UInt8(40 * y), 90, 255] }
        animation.append(ground)
        animation.append { x, y in x == 3 ? [250, 0, 0, 255] : ground(x, y) }
        animation.append { x, y in x == 3 && y == 2 ? [0, 200, 0, 128] : x == 8 && y == 1 ? [77, 77, 77, 0] : ground(x, y) }
        animation.append { x, y in x == 8 && y == 1 ? [0, 0, 0, 0] : ground(x, y) }
        animation.append { x, y in x == 3 && y == 2 ? [0, 200, 0, 128] : ground(x, y) }
        animation.append(ground)
        try expectPlaysBack(animation)
        try expectPlaysBack(animation, matte: (0, 0, 0))
    }

    @Test("frames that look the same merge, with their delays added")
    func merging() throws {
        var animation = TestAnimation(width: 8, height: 4)
        animation.append(delay: 100) { x, _ in x < 4 ? [0, 0, 255, 255] : [0, 0, 0, 0] }
        // Same picture: only the colour under alpha 0 differs.
        animation.append(delay: 30) { x, _ in x < 4 ? [0, 0, 255, 255] : [9, 9, 9, 0] }
        animation.append(delay: 20) { x, _ in x < 5 ? [0, 0, 255, 255] : [0, 0, 0, 0] }
        animation.append(delay: 20) { x, _ in x < 5 ? [0, 0, 255, 255] : [0, 0, 0, 0] }
        let read = try expectPlaysBack(animation)
        #expect(read.frames.map(\.delay) == [13, 4])
    }

    @Test("loop counts: N plays in all", arguments: [0, 1, 2, 5, 100])
    func loops(plays: Int) throws {
        let read = try expectPlaysBack(.slidingDot(count: 2, steps: 2), plays: plays)
        #expect(read.plays == plays)
        #expect((read.loopRepetitions == nil) == (plays == 1), "one play has no loop extension")
    }

    @Test("the first frame is the still image over the matte")
    func firstFrame() throws {
        let animation = TestAnimation.slidingDot(color: [52, 199, 89])
        let read = try GIFReader(animation.encode(matte: (10, 20, 30)))
        #expect(read.frames.first?.canvas == TestAnimation.composite(animation.frames[0].pixels, over: (10, 20, 30)))
    }
}
