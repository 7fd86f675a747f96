import PagedotsPNG
import Testing
import TestSupport

/// A case that forces one colour type and depth: the pixels, and what IHDR must say.
struct LayoutCase: CustomTestStringConvertible, Sendable {
    var name: String
    var colors: [[UInt8]]
    var colorType: UInt8
    var bitDepth: UInt8

    var testDescription: String { name }

    /// Grey levels as opaque RGBA.
    static func greys(_ levels: [Int]) -> [[UInt8]] { levels.map { [UInt8($0), UInt8($0), UInt8($0), 255] } }

    static let all: [LayoutCase] = [
        LayoutCase(name: "indexed 1-bit", colors: [[0, 0, 0, 0], [0, 122, 255, 255]], colorType: 3, bitDepth: 1),
        LayoutCase(name: "indexed 2-bit", colors: TestImage.distinctColors(3, seed: 1), colorType: 3, bitDepth: 2),
        LayoutCase(name: "indexed 4-bit", colors: TestImage.distinctColors(16, seed: 2), colorType: 3, bitDepth: 4),
        LayoutCase(name: "indexed 8-bit", colors: TestImage.distinctColors(256, seed: 3), colorType: 3, bitDepth: 8),
        LayoutCase(name: "grey 1-bit", colors: greys([0, 255]), colorType: 0, bitDepth: 1),
        LayoutCase(name: "grey 2-bit", colors: greys([0, 85, 170, 255]), colorType: 0, bitDepth: 2),
        LayoutCase(name: "grey 4-bit", colors: greys(Array(stride(from: 0, through: 255, by: 17))), colorType: 0, bitDepth: 4),
        LayoutCase(name: "grey 8-bit", colors: greys(Array(0...40)), colorType: 0, bitDepth: 8),
        LayoutCase(name: "grey+alpha 8-bit", colors: TestImage.distinctColors(300, seed: 4, grey: true), colorType: 4, bitDepth: 8),
        LayoutCase(name: "RGB 8-bit", colors: TestImage.distinctColors(300, seed: 5, opaque: true), colorType: 2, bitDepth: 8),
        LayoutCase(name: "RGBA 8-bit", colors: TestImage.distinctColors(300, seed: 6), colorType: 6, bitDepth: 8),
    ]
}

@Suite("The colour type and depth follow from the pixels")
struct ColorTypeTests {
    /// 64×64 is over the size up to which a direct layout is also tried, so
    /// the choice is the rule's alone.
    @Test(arguments: LayoutCase.all)
    func forcedLayout(_ layoutCase: LayoutCase) throws {
        // Every colour appears: the first pixels walk the list.
        let picked = TestImage.randomPick(width: 64, height: 64, from: layoutCase.colors, seed: 11)
        var image = picked
        for (index, color) in layoutCase.colors.enumerated() {
            image.rgba.replaceSubrange(index * 4 ..< index * 4 + 4, with: color)
        }
        let decoded = try expectRoundTrip(image)
        // For checks with other decoders: the file, and the pixels it must give.
        let fileName = String(layoutCase.name.map { $0 == " " ? "-" : $0 })
        #expect(TestOutput.write(PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height), named: fileName + ".png"))
        #expect(TestOutput.write(image.rgba, named: fileName + ".rgba"))
        #expect(decoded.colorType == layoutCase.colorType)
        #expect(decoded.bitDepth == layoutCase.bitDepth)
    }

    @Test("a palette lists translucent colours first and tRNS stops at the last of them")
    func paletteOrder() throws {
        let colors: [[UInt8]] = [[255, 0, 0, 255], [0, 0, 0, 0], [0, 255, 0, 255], [0, 122, 255, 77], [0, 0, 255, 255], [9, 9, 9, 200]]
        let decoded = try expectRoundTrip(.randomPick(width: 80, height: 60, from: colors, seed: 5))
        #expect(decoded.colorType == 3)
        #expect(decoded.transparency.count == 3)
        #expect(decoded.transparency.allSatisfy { $0 < 255 })
        #expect(decoded.palette.count == colors.count)
        #expect(Set(decoded.palette) == Set(colors.map { Array($0.prefix(3)) }))
    }

    @Test("an opaque palette has no tRNS")
    func opaquePalette() throws {
        let colors = TestImage.distinctColors(30, seed: 8, opaque: true)
        let decoded = try expectRoundTrip(.randomPick(width: 80, height: 60, from: colors, seed: 5))
        #expect(decoded.colorType == 3)
        #expect(decoded.chunkTypes == ["IHDR", "PLTE", "IDAT", "IEND"])
    }

    @Test("opaque greys that fit fewer bits than palette indices use grey, not a palette")
    func greyBeatsPalette() throws {
        // Two levels: grey 1-bit and palette 1-bit tie, and grey needs no PLTE.
        let decoded = try expectRoundTrip(.randomPick(width: 80, height: 60, from: LayoutCase.greys([0, 255]), seed: 2))
        #expect(decoded.chunkTypes == ["IHDR", "IDAT", "IEND"])
        // Three levels that need 8 bits as grey: 2-bit palette indices are smaller.
        let palette = try expectRoundTrip(.randomPick(width: 80, height: 60, from: LayoutCase.greys([3, 100, 201]), seed: 2))
        #expect(palette.colorType == 3 && palette.bitDepth == 2)
    }

    @Test("fully transparent pixels keep their own colour values")
    func transparentColorsKept() throws {
        let colors: [[UInt8]] = [[0, 0, 0, 0], [255, 255, 255, 0], [12, 34, 56, 0], [0, 122, 255, 255]]
        let decoded = try expectRoundTrip(.randomPick(width: 70, height: 70, from: colors, seed: 4))
        #expect(decoded.transparency.count == 3)
    }

    @Test("a larger image whose palette outweighs its rows is written without one, when that is smaller")
    func heavyPalette() throws {
        let discs = TestImage.ramps(count: 5, height: 32)
        #expect(discs.rgba.count > 12288, "over the direct trial's limit")
        let decoded = try expectRoundTrip(discs)
        #expect(decoded.colorType == 6)
        #expect(decoded.chunkTypes == ["IHDR", "IDAT", "IEND"])
    }

    @Test("indicator dots keep their palette: theirs does not outweigh their rows")
    func lightPalette() throws {
        let decoded = try expectRoundTrip(TestImage.dots(count: 5, diameter: 16))
        #expect(decoded.colorType == 3)
    }

    @Test("a tiny image may do without its palette when that is smaller, and still round-trips")
    func tinyImage() throws {
        let image = TestImage.dots(count: 3, diameter: 6)
        let decoded = try expectRoundTrip(image)
        #expect([3, 6].contains(decoded.colorType))
    }
}
