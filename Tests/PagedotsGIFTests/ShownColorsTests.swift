@testable import PagedotsGIF
import PagedotsPixels
import Testing
import TestSupport

@Suite("Kept pixels drawn in the colour a quantised frame left on screen")
struct ShownColorsTests {
    /// A 4 × 1 canvas; a quantised frame draws red, green, the transparent
    /// index, blue (so pixel 2 shows its exact colour still).
    private func shownAfterQuantisedFrame() -> ShownColors {
        var shown = ShownColors(width: 4, height: 1)
        let palette: [UInt32] = [0x00_00FF, 0x00_FF00, 0xFF_0000, 0]
        shown.record([0, 1, 3, 2], in: PixelRect(x: 0, y: 0, width: 4, height: 1), transparentIndex: 3, palette: palette)
        return shown
    }

    @Test("a kept pixel takes the entry of the colour shown, not of its exact colour")
    func fillsWithShownColor() throws {
        let shown = shownAfterQuantisedFrame()
        // Every pixel kept; their exact colours are greys, but for pixel 2, whose exact colour shows.
        let patch = FramePatch(
            rect: PixelRect(x: 0, y: 0, width: 4, height: 1), disposal: .keep, delayMilliseconds: 40,
            pixels: [0x11_1111, 0x22_2222, 0x00_FF00, 0x33_3333].map { PatchPixel.kept($0 | CanvasPixel.opaqueBits) }
        )
        // The next frame's palette: green, red, transparent (black, as the pixels' 0), grey 0x111111.
        let palette: [UInt32] = [0x00_FF00, 0x00_00FF, 0, 0x11_1111]
        let filled = try #require(shown.filling([2, 2, 2, 2], of: patch, palette: palette, transparentIndex: 2))
        // Red shows at 0 (entry 1); green at 1 (entry 0); pixel 2 shows its exact green (entry 0);
        // blue at 3 is not in the palette: transparent.
        #expect(filled == [1, 0, 0, 2])
    }

    @Test("nothing to fill: no kept pixel shows a colour of the palette")
    func nothingToFill() {
        let shown = shownAfterQuantisedFrame()
        let patch = FramePatch(
            rect: PixelRect(x: 1, y: 0, width: 2, height: 1), disposal: .keep, delayMilliseconds: 40,
            pixels: [CanvasPixel.opaqueBits | 0x12_3456, PatchPixel.kept(CanvasPixel.opaqueBits | 0x65_4321)]
        )
        #expect(shown.filling([0, 1], of: patch, palette: [0x12_3456, 0], transparentIndex: 1) == nil)
    }

    @Test("after a copied frame, a kept pixel that showed a quantised colour is not known: it stays transparent")
    func copiesForget() {
        var shown = shownAfterQuantisedFrame()
        let rect = PixelRect(x: 0, y: 0, width: 2, height: 1)
        shown.recordCopy(of: FramePatch(
            rect: rect, disposal: .keep, delayMilliseconds: 40,
            pixels: [PatchPixel.kept(CanvasPixel.opaqueBits | 0x11_1111), CanvasPixel.opaqueBits | 0x22_2222]
        ))
        let patch = FramePatch(
            rect: rect, disposal: .keep, delayMilliseconds: 40,
            pixels: [PatchPixel.kept(CanvasPixel.opaqueBits | 0x11_1111), PatchPixel.kept(CanvasPixel.opaqueBits | 0x22_2222)]
        )
        // Pixel 0 is unknown now; pixel 1 was drawn by the copy in its exact colour.
        #expect(shown.filling([1, 1], of: patch, palette: [0x00_00FF, 0, 0x22_2222], transparentIndex: 1) == [1, 2])
    }

    @Test("a photograph pushed across the canvas plays back: every pixel the input keeps shows what it showed, lossy or not",
          arguments: [QuantizerSettings.photographic, .photographic.lossy(80), .flat.lossy(200).limitingColors(to: 16)])
    func pushedPhotographPlaysBack(settings: QuantizerSettings) throws {
        // Noise of thousands of colours on a flat ground, moved 3 pixels a frame.
        let width = 48, height = 24
        var animation = TestAnimation(width: width, height: height)
        var random = SplitMix64(seed: 26)
        let noise = (0..<(width * height)).map { _ in UInt32(truncatingIfNeeded: random.next()) & CanvasPixel.colorBits }
        for step in 0..<4 {
            animation.append { x, y in
                let source = x - 3 * step
                guard (8..<32).contains(source), (4..<20).contains(y) else { return [240, 230, 220, 255] }
                let color = noise[y * width + source]
                return [UInt8(truncatingIfNeeded: color), UInt8(truncatingIfNeeded: color >> 8), UInt8(truncatingIfNeeded: color >> 16), 255]
            }
        }
        let gif = animation.encode(encoder: GIFEncoder(quantizing: settings))
        let read = try GIFReader(gif)
        #expect(read.frames.count == 4)
        for number in 1..<read.frames.count {
            let before = animation.frames[number - 1].pixels, after = animation.frames[number].pixels
            let shownBefore = read.frames[number - 1].canvas, shownAfter = read.frames[number].canvas
            let changed = stride(from: 0, to: before.count, by: 4).filter { start in
                before[start..<start + 4] == after[start..<start + 4] && shownBefore[start..<start + 4] != shownAfter[start..<start + 4]
            }
            #expect(changed.isEmpty, "frame \(number): \(changed.count) kept pixels changed on screen")
        }
    }
}

@Suite("Kept pixels after a lossy frame")
struct LossyShownColorsTests {
    @Test("two close greys at random, lossy; then the first grey drawn over the second, between noise: kept pixels show what the lossy frame left")
    func keptAfterLossyFrame() throws {
        let (width, height) = (60, 20)
        let first: [UInt8] = [128, 128, 128, 255], second: [UInt8] = [132, 132, 132, 255]
        var random = SplitMix64(seed: 9)
        let isFirst = (0..<(width * height)).map { _ in random.next() % 2 == 0 }
        let noise = (0..<(width * height)).map { _ in random.next() }
        var animation = TestAnimation(width: width, height: height)
        // Lossy compression writes many of the greys as the other one.
        animation.append { x, y in x < 10 || x >= width - 10 ? [255, 255, 255, 255] : isFirst[y * width + x] ? first : second }
        // Noise of 400 colours at both ends: the frame is quantised. Between them, the second grey becomes the first, which the
        // frame then draws in runs that go on over the kept pixels if they are written in the colour they show.
        animation.append { x, y in
            guard x < 10 || x >= width - 10 else { return first }
            let bits = noise[y * width + x]
            return [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16), 255]
        }
        let frames = FrameList(width: width, height: height, count: 2) { animation.frames[$0] }
        let gif = GIFEncoder(quantizing: QuantizerSettings.photographic.lossy(200))
            .encode(frames, plays: 0, matte: (255, 255, 255), exactColors: [0x80_8080, 0x84_8484])
        let read = try GIFReader(gif)
        #expect(read.frames.count == 2)
        let before = read.frames[0].canvas, after = read.frames[1].canvas
        #expect(before != TestAnimation.composite(animation.frames[0].pixels, over: (255, 255, 255)), "the first frame is lossy")
        var changed = 0
        for pixel in 0..<width * height where isFirst[pixel] && (10..<width - 10).contains(pixel % width) {
            changed += before[4 * pixel..<4 * pixel + 4] == after[4 * pixel..<4 * pixel + 4] ? 0 : 1
        }
        #expect(changed == 0, "\(changed) kept pixels changed on screen")
    }
}
