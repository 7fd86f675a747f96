@testable import PagedotsGIF
import PagedotsPixels
import Testing
import TestSupport

@Suite("Colour tables and the colours read from a patch")
struct ColorReadingTests {
    @Test("a colour table finds every colour it holds at its position, and none once emptied, with colliding probes")
    func colorTable() throws {
        var random = SplitMix64(seed: 7)
        // 8 colours in 32 slots: random colours often share a probe chain.
        var table = ColorTable(capacity: 8)
        for _ in 0..<300 {
            var added: [UInt32] = []
            while added.count < 8 {
                let rgb = UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF
                if !added.contains(rgb) {
                    #expect(table.insert(rgb) == added.count)
                    added.append(rgb)
                }
                // Found again, not added twice.
                #expect(table.insert(rgb) == added.firstIndex(of: rgb))
            }
            #expect(table.colors == added)
            #expect(added.indices.allSatisfy { table.position(of: added[$0]) == $0 })
            let extra = (0..<UInt32(9)).first { !added.contains($0) } ?? 0
            #expect(table.insert(extra) == nil && table.overflowed)
            table.removeAll()
            #expect(table.count == 0 && !table.overflowed)
            // (A colour left behind would fill the table round after round.)
            try #require(added.allSatisfy { table.position(of: $0) == nil })
        }
    }

    @Test("a patch's colours in the order first drawn, with their pixels, each pixel's code and the runs not drawn")
    func patchColors() {
        let red: PatchPixel = 0xFF00_00FF, blue: PatchPixel = 0xFFFF_0000, clear = PatchPixel.clear
        let keptRed = PatchPixel.kept(red), keptGreen = PatchPixel.kept(0xFF00_FF00)
        let pixels = [clear, clear, blue, blue, red, keptRed, keptRed, keptGreen, blue, clear]
        var reader = PatchColorReader()
        let colors = reader.read(FramePatch(rect: PixelRect(x: 0, y: 0, width: 5, height: 2), disposal: .keep, delayMilliseconds: 20, pixels: pixels))
        #expect(colors.colors.map(\.rgb) == [blue.rgb, red.rgb])
        #expect(colors.colors.map(\.pixels) == [3, 1])
        #expect(colors.codes == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
        #expect(colors.undrawnRuns == [0..<2, 5..<7, 7..<8, 9..<10])
        #expect(colors.hasKeptPixels && colors.hasTransparentPixels && !colors.overflowed)
        // The reader starts afresh with each patch.
        let drawnOnly = reader.read(FramePatch(rect: PixelRect(x: 0, y: 0, width: 2, height: 1), disposal: .keep, delayMilliseconds: 20, pixels: [red, red]))
        #expect(drawnOnly.colors.map(\.rgb) == [red.rgb] && drawnOnly.colors.map(\.pixels) == [2])
        #expect(drawnOnly.codes == [0, 0] && drawnOnly.undrawnRuns.isEmpty && !drawnOnly.hasKeptPixels && !drawnOnly.hasTransparentPixels)
    }

    @Test("runs of every length, four pixels at a time and the rest one by one, read as pixel by pixel")
    func runsOfEveryLength() {
        var random = SplitMix64(seed: 11)
        let values: [PatchPixel] = [.clear, 0xFF00_00FF, 0xFFFF_0000, .kept(0xFF00_00FF), .kept(0xFF00_FF00), 0xFF12_3456]
        var reader = PatchColorReader()
        for _ in 0..<200 {
            var pixels: [PatchPixel] = []
            while pixels.count < 60 {
                let value = values[Int(random.next() % UInt64(values.count))]
                pixels += repeatElement(value, count: 1 + Int(random.next() % 13))
            }
            // Pixel by pixel: a drawn colour's code is its place in the order
            // first drawn; a run not drawn ends where the value changes.
            var colors: [(rgb: UInt32, pixels: Int)] = [], codes: [UInt8] = [], undrawnRuns: [Range<Int>] = []
            for (position, pixel) in pixels.enumerated() {
                var code = 0
                if pixel.mustDraw {
                    code = colors.firstIndex { $0.rgb == pixel.rgb } ?? colors.count
                    if code == colors.count { colors.append((pixel.rgb, 0)) }
                    colors[code].pixels += 1
                } else if position == 0 || pixels[position - 1] != pixel {
                    undrawnRuns.append(position..<position + 1)
                } else {
                    undrawnRuns[undrawnRuns.count - 1] = undrawnRuns[undrawnRuns.count - 1].lowerBound..<position + 1
                }
                codes.append(UInt8(code))
            }
            let read = reader.read(FramePatch(rect: PixelRect(x: 0, y: 0, width: pixels.count, height: 1), disposal: .keep, delayMilliseconds: 20, pixels: pixels))
            #expect(read.colors.map(\.rgb) == colors.map(\.rgb) && read.colors.map(\.pixels) == colors.map(\.pixels))
            #expect(read.codes == codes && read.undrawnRuns == undrawnRuns)
            #expect(read.hasKeptPixels == pixels.contains { $0.isKept } && read.hasTransparentPixels == pixels.contains(.clear))
        }
    }

    @Test("a patch of more colours than a palette holds overflows")
    func overflow() {
        let pixels = (0..<PatchPixel(257)).map { CanvasPixel.opaqueBits | $0 }
        var reader = PatchColorReader()
        let colors = reader.read(FramePatch(rect: PixelRect(x: 0, y: 0, width: 257, height: 1), disposal: .keep, delayMilliseconds: 20, pixels: pixels))
        #expect(colors.overflowed && colors.colors.isEmpty && colors.codes.isEmpty)
        let fits = reader.read(FramePatch(rect: PixelRect(x: 0, y: 0, width: 256, height: 1), disposal: .keep, delayMilliseconds: 20, pixels: Array(pixels.prefix(256))))
        #expect(!fits.overflowed && fits.colors.count == 256 && fits.codes == (0..<256).map { UInt8($0) })
    }
}
