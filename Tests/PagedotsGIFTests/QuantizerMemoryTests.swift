@testable import PagedotsGIF
import Testing

/// libimagequant refused memory, or failing its quality: the quantiser falls
/// back, and every answer is a palette and indices the writer can use.
@Suite("Quantising when libimagequant fails: no crash, a usable palette")
struct QuantizerMemoryTests {
    /// A gradient with a transparent corner and kept pixels, over 256 colours.
    static func pixels(width: Int, height: Int) -> [PatchPixel] {
        (0..<(width * height)).map { index in
            let x = index % width, y = index / width
            if x < 4 && y < 4 { return CanvasPixel.clear }
            let rgb = UInt32(x * 255 / width | (y * 255 / height) << 8 | ((x + y) * 255 / (width + height)) << 16)
            return x == width - 1 ? PatchPixel.kept(CanvasPixel.opaqueBits | rgb) : CanvasPixel.opaqueBits | rgb
        }
    }

    /// Checks what the writer relies on: at most the palette's capacity, every
    /// index in the palette, the transparent index exactly for the pixels not
    /// drawn, the colours kept exactly in the palette.
    static func expectUsable(_ result: ColorQuantizer.Result, for pixels: [PatchPixel], settings: QuantizerSettings, _ comment: Comment) {
        #expect(!result.colors.isEmpty && result.colors.count <= ColorTable.paletteCapacity, comment)
        #expect(result.indices.count == pixels.count && result.indices.allSatisfy { Int($0) < result.colors.count }, comment)
        let transparent = result.transparentIndex.map(UInt8.init) ?? UInt8.max
        #expect(zip(pixels, result.indices).allSatisfy { pixel, index in (index == transparent) == !pixel.mustDraw }, comment)
        #expect(settings.exactColors.allSatisfy(result.colors.contains), comment)
    }

    @Test("every allocation refused, the image's refused, or a quality libimagequant cannot reach: the grid palette, usable",
          arguments: [ColorQuantizer.Fault.memory, .imageMemory, .quality])
    func failures(fault: ColorQuantizer.Fault) {
        let (width, height) = (64, 40)
        let pixels = Self.pixels(width: width, height: height)
        let settings = QuantizerSettings.photographic.keeping(exactly: [0xFF_FFFF, 0x12_3456])
        let granted = ColorQuantizer.quantize(pixels, width: width, height: height, settings: settings)
        Self.expectUsable(granted, for: pixels, settings: settings, "granted")
        let failed = ColorQuantizer.quantize(pixels, width: width, height: height, settings: settings, fault: fault)
        Self.expectUsable(failed, for: pixels, settings: settings, "\(fault)")
        // Two kept colours, 27 grid colours (64 − 2 − 1 leaves room for 3 levels a channel) and the transparent entry.
        #expect(failed.colors.count == 30 && failed.colors != granted.colors)
    }

    @Test("the grid: each pixel its exact kept colour or the nearest grid colour")
    func gridPalette() {
        let pixels: [PatchPixel] = [0xFFFF_FFFF, 0xFF12_3456, 0xFF00_0000, 0xFFFF_0000, 0xFF80_8080, 0xFF00_00FF, CanvasPixel.clear]
        let settings = QuantizerSettings.flat.limitingColors(to: 32).keeping(exactly: [0x12_3456])
        let result = ColorQuantizer.quantize(pixels, width: 7, height: 1, settings: settings, fault: .memory)
        Self.expectUsable(result, for: pixels, settings: settings, "grid")
        // The kept colour, 27 grid colours (3 levels: 0, 127, 255) and the transparent entry.
        #expect(result.colors.count == 29)
        #expect(result.indices.prefix(6).map { result.colors[Int($0)] } == [0xFF_FFFF, 0x12_3456, 0, 0xFF_0000, 0x7F_7F7F, 0x00_00FF])
    }

    @Test("a frame over a megapixel (a row at a time, then as libimagequant would) failing every way: usable",
          arguments: [ColorQuantizer.Fault.memory, .imageMemory, .quality])
    func largeFrameFailures(fault: ColorQuantizer.Fault) {
        let (width, height) = (1025, 1024)
        #expect(width * height > rowAtATimeArea)
        let pixels = Self.pixels(width: width, height: height)
        let result = ColorQuantizer.quantize(pixels, width: width, height: height, settings: .photographic, fault: fault)
        Self.expectUsable(result, for: pixels, settings: .photographic, "\(fault)")
    }
}
