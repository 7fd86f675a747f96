@testable import PagedotsPNG
import Testing
import TestSupport

@Suite("Packing and filtering rows")
struct ScanlinesTests {
    @Test("minimum-sum filtering uses several filter types and decodes back to the pixels", arguments: [
        (PixelLayout.rgba, UInt8(6)), (.rgb, 2), (.greyAlpha, 4), (.grey(bitDepth: 8), 0),
    ])
    func minimumSum(layout: PixelLayout, colorType: UInt8) throws {
        let width = 60, height = 40
        // A smooth gradient with noise where red is odd: filters pay here.
        let image = TestImage(width: width, height: height) { x, y in
            let level = UInt8((x * 3 + y * 5) % 256)
            switch layout {
            case .rgba: return [level, UInt8(y * 6), UInt8(x * y % 256), UInt8(255 - x)]
            case .rgb: return [level, UInt8(y * 6), UInt8(x * y % 256), 255]
            case .greyAlpha: return [level, level, level, UInt8(255 - x)]
            default: return [level, level, level, 255]
            }
        }
        let rows = image.rgba.withUnsafeBytes { Scanlines(rgba: $0, width: width, height: height, layout: layout, colors: nil) }
        let filtered = rows.filtered(.minimumSum)
        let lineBytes = rows.rowBytes + 1
        let types = Set((0..<height).map { filtered[$0 * lineBytes] })
        #expect(types.count >= 2, "filter types used: \(types.sorted())")
        #expect(types.allSatisfy { $0 < 5 })

        let png = HandMadePNG(chunks: [
            ("IHDR", HandMadePNG.header(width: width, height: height, bitDepth: 8, colorType: colorType)),
            ("IDAT", HandMadePNG.zlibCompressed(filtered)),
            ("IEND", []),
        ])
        let decoded = try PNGDecoder.decode(png.bytes)
        #expect(RGBADifference.between(expected: image.rgba, actual: decoded.rgba, width: width, height: height) == nil)
    }

    @Test("sub-byte samples are packed most significant bits first, rows padded to a byte")
    func packing() {
        // Four greys at 2 bits: 0, 85, 170, 255 → 00 01 10 11; five pixels need two bytes a row.
        let levels: [UInt8] = [0, 85, 170, 255, 255]
        let rgba: [UInt8] = levels.flatMap { [$0, $0, $0, 255] }
        let rows = rgba.withUnsafeBytes { Scanlines(rgba: $0, width: 5, height: 1, layout: .grey(bitDepth: 2), colors: nil) }
        #expect(rows.bytes == [0b0001_1011, 0b1100_0000])
    }
}
