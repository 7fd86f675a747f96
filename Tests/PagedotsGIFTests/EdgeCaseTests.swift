@testable import PagedotsGIF
import PagedotsPixels
import Testing
import TestSupport

@Suite("Inputs at the edges: no crash, a valid file")
struct EdgeCaseTests {
    @Test("no frames give one transparent frame")
    func noFrames() throws {
        let gif = GIFEncoder().encode(FrameList(width: 7, height: 3, count: 0) { _ in ([], 0) }, plays: 0, matte: (255, 255, 255))
        let read = try GIFReader(gif)
        #expect(read.width == 7 && read.height == 3)
        #expect(read.frames.count == 1)
        #expect(read.frames.first?.canvas == [UInt8](repeating: 0, count: 7 * 3 * 4))
        #expect(read.loopRepetitions == nil)
    }

    @Test("one pixel, opaque, translucent or clear, changing or not")
    func onePixel() throws {
        for colors in [[[9, 8, 7, 255]], [[0, 0, 0, 0]], [[0, 122, 255, 77], [0, 122, 255, 255], [0, 0, 0, 0], [1, 2, 3, 4]]] as [[[UInt8]]] {
            var animation = TestAnimation(width: 1, height: 1)
            for color in colors {
                animation.append { _, _ in color }
            }
            try expectPlaysBack(animation)
        }
    }

    @Test("a 4096×1 row, and a 1×300 column")
    func thinImages() throws {
        var row = TestAnimation(width: 4096, height: 1)
        for shift in [0, 1000, 4000] {
            row.append { x, _ in x >= shift && x < shift + 50 ? [255, 0, 0, 255] : [0, 0, 0, UInt8((x / 16) % 2 * 128)] }
        }
        try expectPlaysBack(row)
        var column = TestAnimation(width: 1, height: 300)
        for shift in [0, 150] {
            column.append { _, y in y >= shift && y < shift + 20 ? [0, 255, 0, 255] : [0, 0, 0, 0] }
        }
        try expectPlaysBack(column)
    }

    @Test("all-transparent frames, between drawn ones and alone")
    func transparentFrames() throws {
        var animation = TestAnimation(width: 10, height: 4)
        animation.append { _, _ in [0, 0, 0, 0] }
        animation.append { x, _ in x < 5 ? [10, 20, 30, 255] : [0, 0, 0, 0] }
        animation.append { _, _ in [1, 1, 1, 0] }
        animation.append { x, y in x == y ? [10, 20, 30, 128] : [0, 0, 0, 0] }
        animation.append { _, _ in [0, 0, 0, 0] }
        try expectPlaysBack(animation)
    }

    @Test("one frame is a still: no loop extension, no graphic control without transparency")
    func still() throws {
        var opaque = TestAnimation(width: 6, height: 6)
        opaque.append(delay: 3000) { x, _ in [UInt8(x * 40), 0, 0, 255] }
        let gif = opaque.encode(plays: 0)
        let read = try expectPlaysBack(opaque)
        #expect(read.loopRepetitions == nil)
        #expect(read.frames.first?.delay == nil)
        #expect(!gif.contains(0xF9), "no graphic control extension label")
        var clear = TestAnimation(width: 6, height: 6)
        clear.append(delay: 3000) { x, _ in x < 3 ? [0, 0, 0, 0] : [1, 2, 3, 255] }
        #expect(try expectPlaysBack(clear).frames.first?.transparentIndex != nil)
    }

    @Test("delays: rounded to hundredths, at least 2, and split past the 16-bit field")
    func delays() throws {
        #expect(FrameWriter.centiseconds(20) == [2])
        #expect(FrameWriter.centiseconds(3000) == [300])
        #expect(FrameWriter.centiseconds(0) == [2])
        #expect(FrameWriter.centiseconds(-50) == [2])
        #expect(FrameWriter.centiseconds(25) == [3])
        #expect(FrameWriter.centiseconds(655_350) == [65535])
        #expect(FrameWriter.centiseconds(655_360) == [65533, 3])
        #expect(FrameWriter.centiseconds(2_000_000) == [65535, 65535, 65535, 3395])
        #expect(FrameWriter.centiseconds(.max).allSatisfy { (2...65535).contains($0) })
        #expect(FrameDiffer.addDelays(.max, .max) == FrameDiffer.maxDelayMilliseconds)
        #expect(FrameDiffer.addDelays(30, 40) == 70)

        // A frame shown for 1,000 s is written as pieces; its disposal comes after the last.
        var animation = TestAnimation(width: 4, height: 1)
        animation.append(delay: 20) { x, _ in x < 2 ? [5, 5, 5, 255] : [0, 0, 0, 0] }
        animation.append(delay: 1_000_000) { x, _ in x == 2 ? [5, 5, 5, 255] : [0, 0, 0, 0] }
        animation.append(delay: 20) { x, _ in x < 2 ? [5, 5, 5, 255] : [0, 0, 0, 0] }
        let read = try GIFReader(animation.encode())
        #expect(read.frames.map(\.delay) == [2, 65535, 34465, 2])
        #expect(read.frames.map(\.disposal) == [2, 1, 2, 1])
        let expected = animation.expectedFrames()
        #expect(read.frames.map(\.canvas) == [expected[0].canvas, expected[1].canvas, expected[1].canvas, expected[2].canvas])
    }

    @Test("huge delays and odd plays do not overflow")
    func extremes() throws {
        var animation = TestAnimation(width: 2, height: 2)
        animation.frames = [([UInt8](repeating: 255, count: 16), .max), ([UInt8](repeating: 0, count: 16), .max), ([UInt8](repeating: 9, count: 16), .min)]
        for plays in [-1, 70000, .max] {
            let read = try GIFReader(animation.encode(plays: plays))
            // The longest delays are cut into 16 pieces.
            #expect(read.frames.count == 16 + 16 + 1)
            #expect(read.plays == (plays < 0 ? 0 : 65536))
        }
    }
}
