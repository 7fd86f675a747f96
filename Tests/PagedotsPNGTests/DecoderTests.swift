import CZlib
import Testing
import TestSupport

/// Builds PNG files by hand, to feed the test decoder what pagedots never
/// writes: every filter type, 16-bit samples, colour keys, broken files.
struct HandMadePNG {
    var chunks: [(type: String, data: [UInt8])] = []

    static func header(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlace: UInt8 = 0) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Rows (unfiltered bytes) filtered with `types[y]` each, then zlib-compressed.
    static func imageData(rows: [[UInt8]], types: [UInt8], stride: Int) -> [UInt8] {
        var filtered: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let prior = y > 0 ? rows[y - 1] : [UInt8](repeating: 0, count: row.count)
            filtered.append(types[y])
            for i in row.indices {
                let a = i >= stride ? Int(row[i - stride]) : 0, b = Int(prior[i]), c = i >= stride ? Int(prior[i - stride]) : 0
                let p = a + b - c
                let paeth = abs(p - a) <= abs(p - b) && abs(p - a) <= abs(p - c) ? a : abs(p - b) <= abs(p - c) ? b : c
                // A type beyond 4 is written unfiltered, for the decoder to refuse.
                let predictor = [0, a, b, (a + b) / 2, paeth, 0][min(Int(types[y]), 5)]
                filtered.append(row[i] &- UInt8(predictor))
            }
        }
        return zlibCompressed(filtered)
    }

    /// A zlib stream of `data`, as IDAT holds it.
    static func zlibCompressed(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(data.count))
        var compressed = [UInt8](repeating: 0, count: Int(size))
        _ = compress2(&compressed, &size, data, UInt(data.count), 9)
        return Array(compressed.prefix(Int(size)))
    }

    var bytes: [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let typed = Array(chunk.type.utf8) + chunk.data
            file += Self.bigEndian(chunk.data.count) + typed
            file += Self.bigEndian(Int(crc32(0, typed, UInt32(typed.count))))
        }
        return file
    }

    /// A valid 2×2 indexed file with a palette of two colours.
    static var valid: HandMadePNG {
        HandMadePNG(chunks: [
            ("IHDR", header(width: 2, height: 2, bitDepth: 8, colorType: 3)),
            ("PLTE", [255, 0, 0, 0, 0, 255]),
            ("tRNS", [128]),
            ("IDAT", imageData(rows: [[0, 1], [1, 0]], types: [0, 0], stride: 1)),
            ("IEND", []),
        ])
    }
}

/// Breaks `file` the way `broken` says (what is wrong, words the error must
/// contain, the change) and expects `decode` to refuse it with those words.
func expectRefused(
    _ broken: (problem: String, words: String, change: @Sendable (inout HandMadePNG) -> Void), breaking file: HandMadePNG,
    decode: ([UInt8]) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) {
    var png = file
    broken.change(&png)
    let error = #expect(throws: PNGDecodingError.self, "\(broken.problem)", sourceLocation: sourceLocation) { try decode(png.bytes) }
    #expect(error?.description.contains(broken.words) == true, "\(broken.problem): \(error?.description ?? "")", sourceLocation: sourceLocation)
}

@Suite("The test decoder is strict and complete")
struct DecoderTests {
    @Test("a valid hand-made file decodes, ancillary chunks are listed")
    func valid() throws {
        var png = HandMadePNG.valid
        png.chunks.insert(("tEXt", Array("Comment\u{0}hi".utf8)), at: 1)
        let decoded = try PNGDecoder.decode(png.bytes)
        #expect(decoded.rgba == [255, 0, 0, 128, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 128])
        #expect(decoded.chunkTypes == ["IHDR", "tEXt", "PLTE", "tRNS", "IDAT", "IEND"])
    }

    @Test("all five filter types, at 8 and 16 bits, RGB and grey+alpha")
    func filters() throws {
        var random = SplitMix64(seed: 42)
        for (colorType, bitDepth, channels) in [(2, 8, 3), (6, 16, 4), (4, 8, 2), (0, 16, 1)] as [(UInt8, UInt8, Int)] {
            let bytesPerPixel = channels * Int(bitDepth) / 8
            let width = 7, height = 10
            let rows = (0..<height).map { _ in (0..<width * bytesPerPixel).map { _ in UInt8(truncatingIfNeeded: random.next() % 64) } }
            let types: [UInt8] = (0..<height).map { UInt8($0 % 5) }
            let png = HandMadePNG(chunks: [
                ("IHDR", HandMadePNG.header(width: width, height: height, bitDepth: bitDepth, colorType: colorType)),
                ("IDAT", HandMadePNG.imageData(rows: rows, types: types, stride: bytesPerPixel)),
                ("IEND", []),
            ])
            let decoded = try PNGDecoder.decode(png.bytes)
            // The first sample of every pixel, high byte first, expands to red.
            for y in 0..<height {
                for x in 0..<width {
                    #expect(decoded.rgba[(y * width + x) * 4] == rows[y][x * bytesPerPixel])
                }
            }
        }
    }

    @Test("sub-byte greys scale to 8 bits; a grey colour key makes its level transparent")
    func greyDepths() throws {
        let png = HandMadePNG(chunks: [
            ("IHDR", HandMadePNG.header(width: 4, height: 1, bitDepth: 2, colorType: 0)),
            ("tRNS", [0, 2]),
            ("IDAT", HandMadePNG.imageData(rows: [[0b00_01_10_11]], types: [0], stride: 1)),
            ("IEND", []),
        ])
        let decoded = try PNGDecoder.decode(png.bytes)
        #expect(decoded.rgba == [0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 0, 255, 255, 255, 255])
    }

    @Test("an RGB colour key makes that colour transparent")
    func rgbKey() throws {
        let png = HandMadePNG(chunks: [
            ("IHDR", HandMadePNG.header(width: 2, height: 1, bitDepth: 8, colorType: 2)),
            ("tRNS", [0, 1, 0, 2, 0, 3]),
            ("IDAT", HandMadePNG.imageData(rows: [[1, 2, 3, 1, 2, 4]], types: [1], stride: 3)),
            ("IEND", []),
        ])
        #expect(try PNGDecoder.decode(png.bytes).rgba == [1, 2, 3, 0, 1, 2, 4, 255])
    }

    /// A broken variant of the valid file: what is wrong, words the error
    /// must contain, and the change that breaks it.
    static let broken: [(String, String, @Sendable (inout HandMadePNG) -> Void)] = [
        ("IHDR not first", "first chunk", { $0.chunks.swapAt(0, 1) }),
        ("tRNS before PLTE", "tRNS before PLTE", { $0.chunks.swapAt(1, 2) }),
        ("PLTE after IDAT", "PLTE after IDAT", { $0.chunks.swapAt(1, 3); $0.chunks.swapAt(1, 2) }),
        ("IDATs apart", "consecutive", { $0.chunks.insert(("tEXt", [65, 0, 66]), at: 4); $0.chunks.insert(("IDAT", []), at: 5) }),
        ("no IEND", "IEND", { $0.chunks.removeLast() }),
        ("a chunk after IEND", "IEND", { $0.chunks.append(("tEXt", [65, 0, 66])) }),
        ("unknown critical chunk", "ABCD", { $0.chunks.insert(("ABCD", []), at: 1) }),
        ("no PLTE in an indexed image", "PLTE", { $0.chunks.remove(at: 1); $0.chunks.remove(at: 1) }),
        ("an index beyond PLTE", "beyond PLTE", { $0.chunks[1].data = [255, 0, 0] }),
        ("filter type 5", "filter type 5", { $0.chunks[3].data = HandMadePNG.imageData(rows: [[0, 1], [1, 0]], types: [0, 5], stride: 1) }),
        ("too little image data", "inflate", { $0.chunks[3].data = HandMadePNG.imageData(rows: [[0, 1]], types: [0], stride: 1) }),
        ("interlaced", "interlaced", { $0.chunks[0].data = HandMadePNG.header(width: 2, height: 2, bitDepth: 8, colorType: 3, interlace: 1) }),
        ("RGB at 4 bits", "bit depth 4", { $0.chunks[0].data = HandMadePNG.header(width: 2, height: 2, bitDepth: 4, colorType: 2) }),
        ("tRNS longer than PLTE", "longer than PLTE", { $0.chunks[2].data = [1, 2, 3] }),
    ]

    @Test("broken files are refused", arguments: broken.indices)
    func refused(index: Int) {
        expectRefused(Self.broken[index], breaking: .valid) { _ = try PNGDecoder.decode($0) }
    }

    @Test("a bad signature is refused")
    func signature() {
        var bytes = HandMadePNG.valid.bytes
        bytes[1] = 0x51
        #expect(throws: PNGDecodingError.self) { try PNGDecoder.decode(bytes) }
    }

    @Test("RGBADifference finds where images differ and honours the tolerance")
    func difference() throws {
        let a: [UInt8] = [0, 0, 0, 0, 10, 20, 30, 40, 1, 2, 3, 4]
        var b = a
        b[5] = 23
        b[8] = 0
        #expect(RGBADifference.between(expected: a, actual: a, width: 3, height: 1) == nil)
        #expect(RGBADifference.between(expected: a, actual: b, width: 3, height: 1, tolerance: 3) == nil)
        let found = try #require(RGBADifference.between(expected: a, actual: b, width: 3, height: 1, tolerance: 1))
        #expect(found.pixelCount == 1 && found.firstX == 1 && found.firstY == 0 && found.maxChannelDifference == 3)
        #expect(found.expected == [10, 20, 30, 40] && found.actual == [10, 23, 30, 40])
        #expect(RGBADifference.between(expected: a, actual: b, width: 1, height: 3, tolerance: 0)?.pixelCount == 2)
    }
}
