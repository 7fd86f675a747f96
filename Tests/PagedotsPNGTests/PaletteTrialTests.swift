@testable import PagedotsPNG
import Testing
import TestSupport

/// A larger image that took a palette is also tried without one when the
/// palette outweighs its rows (`PNGEncoder.outweighs`; docs/png.md, "Colour
/// type, from the pixels"), and the smaller file wins.
struct PaletteTrialTests {
    /// A palette of `translucent` translucent colours and `opaque` opaque ones.
    static func palette(translucent: Int, opaque: Int) -> Palette {
        var table = ColorTable()
        for index in 0..<translucent + opaque {
            let alpha: UInt32 = index < translucent ? UInt32(1 + index) : 255
            _ = table.add(alpha << 24 | UInt32(index), times: 1)
        }
        return Palette(table)
    }

    @Test("the trial needs many translucent colours, and PLTE and tRNS at least 47 % of what the palette file holds")
    func threshold() {
        let heavy = Self.palette(translucent: 60, opaque: 2)
        // 12 + 186 bytes of PLTE, 12 + 60 of tRNS: 270.
        #expect(heavy.chunkBytes == 270)
        #expect(PNGEncoder.outweighs(heavy, idatBytes: 304))
        #expect(!PNGEncoder.outweighs(heavy, idatBytes: 305))
        // As heavy, but most colours opaque: RGB rows would not repeat as RGBA rows do.
        let opaque = Self.palette(translucent: 31, opaque: 40)
        #expect(!PNGEncoder.outweighs(opaque, idatBytes: 10))
    }

    @Test("the file is the smaller of the palette and the direct layout, tried when the palette outweighs its rows")
    func smallerWins() throws {
        // Over the direct trial's limit (12 KiB of RGBA rows): the rule alone decides.
        let images = [TestImage.ramps(count: 5, height: 32), .ramps(count: 8, height: 20), .stars(count: 5, size: 32), .stars(count: 5, size: 40)]
        var directWon = 0, paletteKept = 0
        for image in images {
            let file = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
            let sizes = try image.rgba.withUnsafeBytes { pixels in
                let survey = PixelSurvey(rgba: pixels)
                let indexed = try #require(survey.palette())
                func compressed(_ layout: PixelLayout) -> Int {
                    let rows = Scanlines(rgba: pixels, width: image.width, height: image.height, layout: layout, colors: indexed.indices)
                    var stream: [UInt8] = []
                    rows.filtered(.none).withUnsafeBufferPointer { Deflater().compress($0, strategy: .standard, effort: .thorough, appendingTo: &stream) }
                    return stream.count
                }
                let paletteIDAT = compressed(PixelLayout.smallest(for: survey))
                return (palette: paletteIDAT + indexed.palette.chunkBytes, direct: compressed(.rgba), tried: PNGEncoder.outweighs(indexed.palette, idatBytes: paletteIDAT))
            }
            // Signature, IHDR, IDAT's framing, IEND.
            let framing = 8 + 25 + 12 + 12
            #expect(file.count == framing + (sizes.tried ? min(sizes.palette, sizes.direct) : sizes.palette), "\(image.width)×\(image.height): \(sizes)")
            _ = try expectRoundTrip(image)
            directWon += sizes.tried && sizes.direct < sizes.palette ? 1 : 0
            paletteKept += sizes.tried ? 0 : 1
        }
        #expect(directWon == 2 && paletteKept == 2, "the ramps go without their palette, the stars keep theirs")
    }
}
