import CZlib
@testable import PagedotsPNG
import Testing
import TestSupport

@Suite("The file: chunks, CRCs, zlib header, determinism")
struct FileStructureTests {
    static let samples: [TestImage] = [
        .dots(count: 5, diameter: 16),
        .randomPick(width: 40, height: 40, from: TestImage.distinctColors(300, seed: 1), seed: 1),
        .randomPick(width: 40, height: 40, from: LayoutCase.greys([0, 85, 170, 255]), seed: 1),
        .randomPick(width: 90, height: 40, from: TestImage.distinctColors(7, seed: 2, opaque: true), seed: 1),
    ]

    @Test("only IHDR, PLTE, tRNS, IDAT, IEND, in that order, with correct CRCs")
    func chunks() throws {
        for image in Self.samples {
            let png = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
            // The decoder checks every CRC and the order rules.
            let decoded = try PNGDecoder.decode(png)
            let allowed = [["IHDR", "IDAT", "IEND"], ["IHDR", "PLTE", "IDAT", "IEND"], ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]]
            #expect(allowed.contains(decoded.chunkTypes))
            #expect(decoded.chunkTypes.contains("PLTE") == (decoded.colorType == 3))
        }
    }

    @Test("a flipped bit anywhere after the signature is caught")
    func corruption() throws {
        let image = Self.samples[0]
        let png = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
        for offset in stride(from: 8, to: png.count, by: 7) {
            var damaged = png
            damaged[offset] ^= 0x10
            #expect(throws: PNGDecodingError.self) { try PNGDecoder.decode(damaged) }
        }
    }

    @Test("the same pixels always give the same bytes")
    func deterministic() {
        for image in Self.samples {
            let first = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
            let encoder = PNGEncoder()
            for other in Self.samples {
                _ = encoder.encode(rgba: other.rgba, width: other.width, height: other.height)
            }
            #expect(encoder.encode(rgba: image.rgba, width: image.width, height: image.height) == first)
        }
    }

    @Test("the zlib header claims the smallest window that holds the data, and checks", arguments: [
        (100, 8), (256, 8), (257, 9), (4000, 12), (32768, 15), (1_000_000, 15),
    ])
    func zlibWindow(length: Int, windowBits: Int) {
        var header: [UInt8] = [0x78, 0xDA]
        Deflater.claimSmallestWindow(forLength: length, header: &header, at: 0)
        #expect(Int(header[0] >> 4) + 8 == windowBits)
        #expect(header[0] & 0x0F == 8)
        #expect((Int(header[0]) << 8 | Int(header[1])) % 31 == 0)
        #expect(header[1] & 0xC0 == 0xC0, "the compression level bits are kept")
    }

    @Test("IDAT's zlib stream announces a window no larger than its data")
    func idatWindow() throws {
        let image = TestImage.dots(count: 3, diameter: 8)
        let png = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
        let idat = try #require(firstChunkData(png, type: "IDAT"))
        let window = 1 << (Int(idat[0] >> 4) + 8)
        let decoded = try PNGDecoder.decode(png)
        let rawLength = decoded.height * (1 + (decoded.width * Int(decoded.bitDepth) * [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(decoded.colorType), default: 4] + 7) / 8)
        #expect(window >= rawLength)
        #expect(window == 256 || window / 2 < rawLength)
    }

    /// The data of the first chunk of `type`, read without the decoder.
    func firstChunkData(_ png: [UInt8], type: String) -> [UInt8]? {
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[offset + 4 ..< offset + 8], as: UTF8.self) == type {
                return Array(png[offset + 8 ..< offset + 8 + length])
            }
            offset += 12 + length
        }
        return nil
    }
}
