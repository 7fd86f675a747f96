import CZlib
@testable import PagedotsPNG
import Testing
import TestSupport

/// The file served is compressed with the search its rows call for
/// (`Deflater.Effort`; docs/png.md, "Deflate"): 256 links for rows of a byte
/// a pixel or less, level 9's own 4096 for rows of several bytes a pixel.
struct DeflateEffortTests {
    /// Discs in many colours: more than 256 colours, so RGBA rows, with matches to search for.
    static let manyColouredDiscs = TestImage(width: 96, height: 48) { x, y in
        let cx = Double(x % 24) - 11.5, cy = Double(y % 24) - 11.5
        let coverage = max(0, min(1, 10 - (cx * cx + cy * cy).squareRoot()))
        let alpha = UInt8((coverage * 255).rounded())
        return alpha == 0 ? [0, 0, 0, 0] : [UInt8(x * 5 % 256), UInt8(y * 3 % 256), UInt8((x / 24 + y / 24) * 40), alpha]
    }

    /// The images, by name (the test's arguments print as names, not pixels).
    static let images = ["many-coloured discs": manyColouredDiscs, "forty dots": TestImage.dots(count: 40, diameter: 16)]

    @Test(arguments: ["many-coloured discs", "forty dots"])
    func theServedStreamIsCompressedWithTheEffortOfItsRows(name: String) throws {
        let image = try #require(Self.images[name])
        let png = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
        let decoded = try PNGDecoder.decode(png)
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(decoded.colorType), default: 0]
        let bitsPerPixel = channels * Int(decoded.bitDepth)
        let idat = try #require(Self.idat(of: png))
        let rows = try #require(Self.inflated(idat, count: image.height * (1 + (image.width * bitsPerPixel + 7) / 8)))
        func streams(_ effort: Deflater.Effort) -> [[UInt8]] {
            [Deflater.Strategy.standard, .filtered].map { strategy in
                var stream: [UInt8] = []
                rows.withUnsafeBufferPointer { Deflater().compress($0, strategy: strategy, effort: effort, appendingTo: &stream) }
                return stream
            }
        }
        let effort: Deflater.Effort = bitsPerPixel > 8 ? .exhaustive : .thorough
        #expect((name == "many-coloured discs") == (decoded.colorType == 6), "the discs are RGBA, the dots a palette")
        #expect(streams(effort).contains(idat))
        // The point: the other effort would have written another stream.
        #expect(!streams(effort == .thorough ? .exhaustive : .thorough).contains(idat))
    }

    @Test("a carousel's APNG (photographs) plays back exactly, its rows filtered per row and compressed with zlib's default search")
    func photographsTakeThePhotographicEffort() throws {
        // Two images of many colours, the one fading into the other
        // (RGBA rows, where the searches find different matches).
        let from = Self.manyColouredDiscs.rgba
        let to = TestImage(width: 96, height: 48) { x, y in
            let pixel = Self.manyColouredDiscs.rgba[((y * 96 + (x + 7) % 96) * 4)...].prefix(4)
            return Array(pixel)
        }.rgba
        let fade = (0 ... 4).map { step -> [UInt8] in
            zip(from, to).map { a, b -> UInt8 in
                let mixed = Int(a) * (4 - step) + Int(b) * step
                return UInt8(mixed / 4)
            }
        }
        let animation = TestAnimation(width: 96, height: 48, frames: fade, delays: [1000, 40, 40, 40, 1000])
        try expectAnimationRoundTrip(animation, encoder: APNGEncoder(photographs: true))

        let apng = animation.encode(encoder: APNGEncoder(photographs: true))
        let idat = try #require(Self.idat(of: apng))
        let rows = try #require(Self.inflated(idat, count: 48 * (1 + 96 * 4)))
        func stream(_ effort: Deflater.Effort) -> [UInt8] {
            var stream: [UInt8] = []
            let deflater = Deflater(memLevel: CandidateCompressor.animationStreamMemLevel)
            rows.withUnsafeBufferPointer { deflater.compress($0, strategy: .filtered, effort: effort, appendingTo: &stream) }
            return stream
        }
        let filterTypes = stride(from: 0, to: rows.count, by: 1 + 96 * 4).map { rows[$0] }
        #expect(filterTypes.contains { $0 != 0 }, "rows are filtered")
        let (photographic, exhaustive) = (idat == stream(.photographic), idat == stream(.exhaustive))
        #expect(photographic)
        #expect(!exhaustive, "the exhaustive search (an indicator's RGB rows) writes another stream")
    }

    /// The data of the file's IDAT chunks, joined.
    static func idat(of png: [UInt8]) -> [UInt8]? {
        var data: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[offset + 4 ..< offset + 8], as: UTF8.self) == "IDAT" {
                data += png[offset + 8 ..< offset + 8 + length]
            }
            offset += 12 + length
        }
        return data.isEmpty ? nil : data
    }

    static func inflated(_ stream: [UInt8], count: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: count)
        var length = UInt(count)
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, UInt($0.count)) }
        }
        return status == Z_OK && length == UInt(count) ? output : nil
    }
}
