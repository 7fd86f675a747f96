@testable import PagedotsGIF
import Testing
import TestSupport

@Suite("Palettes: one global when the colours fit, else per frame, quantised past 256")
struct PaletteTests {
    /// A frame of `colors` vertical stripes, each `stripe` pixels wide, on a canvas `width` wide.
    static func stripes(_ colors: [[UInt8]], width: Int, height: Int = 3) -> TestAnimation {
        var animation = TestAnimation(width: width, height: height)
        animation.append { x, _ in colors[x % colors.count] }
        return animation
    }

    @Test("the smallest power-of-two table: 3 colours and transparent take 4 entries, 5 opaque take 8")
    func tableSizes() throws {
        let three = Self.stripes([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0]], width: 8)
        #expect(try expectPlaysBack(three).globalPaletteSize == 4)
        let five = Self.stripes((0..<5).map { [UInt8($0 * 50), 0, 0, 255] }, width: 10)
        #expect(try expectPlaysBack(five).globalPaletteSize == 8)
        let two = Self.stripes([[1, 2, 3, 255]], width: 4)
        #expect(try expectPlaysBack(two).globalPaletteSize == 2)
    }

    @Test("256 opaque colours fill the table; with transparency as well, one colour gives way")
    func fullTable() throws {
        let colors = TestImageColors.distinct(256, seed: 4)
        #expect(try expectPlaysBack(Self.stripes(colors, width: 256)).globalPaletteSize == 256)
        // 257 entries: the frame is quantised to 255 colours and the transparent index.
        let withClear = Self.stripes(colors + [[0, 0, 0, 0]], width: 257)
        let read = try expectPlaysBack(withClear, tolerance: 24)
        #expect(read.globalPaletteSize == nil && read.frames.first?.localPaletteSize == 256)
    }

    @Test("frames whose colours together pass 256 get palettes of their own where that pays")
    func localPalettes() throws {
        // Three frames, each drawing 200 colours of its own over the last.
        var animation = TestAnimation(width: 200, height: 2)
        for seed in 1...3 {
            let colors = TestImageColors.distinct(200, seed: UInt64(seed))
            animation.append { x, _ in colors[x] }
        }
        let read = try expectPlaysBack(animation)
        #expect(read.frames.contains { $0.localPaletteSize != nil })
        #expect(read.frames.allSatisfy { ($0.localPaletteSize ?? 256) <= 256 })
    }

    @Test("a frame of more than 256 colours is quantised: close, transparency exact")
    func quantized() throws {
        var animation = TestAnimation(width: 64, height: 32)
        // A smooth two-way gradient (2048 colours) with a transparent hole.
        animation.append { x, y in (20..<30).contains(x) && (10..<20).contains(y) ? [0, 0, 0, 0] : [UInt8(x * 4), UInt8(y * 8), 128, 255] }
        animation.append { x, y in [UInt8(255 - x * 4), UInt8(y * 8), 64, 255] }
        let gif = animation.encode()
        let read = try GIFReader(gif)
        let expected = animation.expectedFrames()
        #expect(read.frames.count == 2)
        for (frame, wanted) in zip(read.frames, expected) {
            let difference = RGBADifference.between(expected: wanted.canvas, actual: frame.canvas, width: 64, height: 32, tolerance: 16)
            #expect(difference == nil, "\(difference?.description ?? "")")
            let meanError = Double(zip(frame.canvas, wanted.canvas).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(frame.canvas.count)
            #expect(meanError < 3, "mean channel error \(meanError)")
            #expect(frame.canvas.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) == wanted.canvas.enumerated().filter { $0.offset % 4 == 3 }.map(\.element),
                    "alpha is exact")
        }
        #expect(gif == animation.encode(), "quantising is deterministic")
    }

    @Test("what a quantised frame leaves on screen stays close; what later frames draw is exact")
    func afterQuantized() throws {
        // (Found by fuzz/gif: the harness expected the next frame to be exact everywhere.)
        var animation = TestAnimation(width: 48, height: 16)
        animation.append { x, y in [UInt8(x * 5), UInt8(y * 16), UInt8((x * y) % 256), 255] }
        animation.append { x, y in x < 8 ? [0, 0, 0, 0] : x < 16 ? [250, 10, 10, 255] : [UInt8(x * 5), UInt8(y * 16), UInt8((x * y) % 256), 255] }
        let read = try GIFReader(animation.encode())
        let expected = animation.expectedFrames()
        #expect(read.frames.count == 2)
        guard let last = read.frames.last, let wanted = expected.last else { return }
        #expect(RGBADifference.between(expected: wanted.canvas, actual: last.canvas, width: 48, height: 16, tolerance: 16) == nil)
        for y in 0..<16 {
            for x in 0..<16 {
                let start = (y * 48 + x) * 4
                #expect(Array(last.canvas[start..<start + 4]) == Array(wanted.canvas[start..<start + 4]), "pixel \(x), \(y)")
            }
        }
    }

    @Test("a frame over a megapixel is quantised a row at a time: as close as one under it, the same each time, and a small frame after it as before")
    func largeFrameRowAtATime() {
        func gradient(width: Int, height: Int) -> [PatchPixel] {
            (0..<(width * height)).map { index in
                let x = index % width, y = index / width
                let rgb = x * 255 / width | (y * 255 / height) << 8 | ((x + y) * 255 / (width + height)) << 16
                return CanvasPixel.opaqueBits | UInt32(rgb)
            }
        }
        /// The palette colours' mean distance from the pixels, per channel.
        func meanError(_ pixels: [PatchPixel], _ result: ColorQuantizer.Result) -> Double {
            var error = 0
            for (pixel, index) in zip(pixels, result.indices) {
                let color = result.colors[Int(index)]
                for shift: UInt32 in [0, 8, 16] {
                    error += abs(Int(pixel >> shift & 0xFF) - Int(color >> shift & 0xFF))
                }
            }
            return Double(error) / Double(3 * pixels.count)
        }
        let small = gradient(width: 64, height: 48)
        let smallBefore = ColorQuantizer.quantize(small, width: 64, height: 48, settings: .photographic)
        let under = gradient(width: 1000, height: 1000)
        #expect(under.count <= rowAtATimeArea)
        let underError = meanError(under, ColorQuantizer.quantize(under, width: 1000, height: 1000, settings: .photographic))

        let (width, height) = (1100, 1000)
        #expect(width * height > rowAtATimeArea)
        let large = gradient(width: width, height: height)
        let quantized = ColorQuantizer.quantize(large, width: width, height: height, settings: .photographic)
        #expect(quantized.colors.count <= 64 && quantized.transparentIndex == nil)
        #expect(quantized.indices.allSatisfy { Int($0) < quantized.colors.count })
        let largeError = meanError(large, quantized)
        #expect(largeError < underError * 1.1, "mean channel error \(largeError), under a megapixel \(underError)")
        let again = ColorQuantizer.quantize(large, width: width, height: height, settings: .photographic)
        #expect(again.colors == quantized.colors && again.indices == quantized.indices)
        let smallAfter = ColorQuantizer.quantize(small, width: 64, height: 48, settings: .photographic)
        #expect(smallAfter.colors == smallBefore.colors && smallAfter.indices == smallBefore.indices)
    }

    @Test("a photograph's palette keeps the colours it is told to exactly: a sliver of white band beside noise stays white")
    func exactColorsStayExact() {
        // 64 × 64 of noise of thousands of colours, but for a last sliver of 40 white pixels
        // (what a frame redraws of a band where the indicator moved).
        var state: UInt32 = 7
        let pixels: [PatchPixel] = (0..<(64 * 64)).map { index in
            guard index < 64 * 64 - 40 else { return 0xFFFF_FFFF }
            state = state &* 1_664_525 &+ 1_013_904_223
            return CanvasPixel.opaqueBits | (state >> 8) & CanvasPixel.colorBits
        }
        let kept = ColorQuantizer.quantize(pixels, width: 64, height: 64, settings: QuantizerSettings.photographic.keeping(exactly: [0xFF_FFFF]))
        let white = kept.colors.firstIndex(of: 0xFF_FFFF)
        #expect(white != nil)
        #expect(kept.indices[(64 * 64 - 40)...].allSatisfy { Int($0) == white })
    }
}

/// Distinct opaque colours from a seed.
enum TestImageColors {
    static func distinct(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var seen = Set<[UInt8]>()
        var colors: [[UInt8]] = []
        while colors.count < count {
            let bits = random.next()
            let color = [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16), 255]
            if seen.insert(color).inserted {
                colors.append(color)
            }
        }
        return colors
    }
}
