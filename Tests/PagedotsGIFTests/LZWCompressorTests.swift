@testable import PagedotsGIF
import PagedotsPixels
import Testing

/// The images `GIFFileWriter` writes with its own LZW compressor, against
/// the bytes giflib's encoder writes for the same indices.
@Suite("LZW: the bytes giflib writes")
struct LZWCompressorTests {
    /// Indices of `bits` bits: random, in runs, or few of them, from a fixed seed.
    static func indices(count: Int, bits: Int, pattern: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let limit = 1 << bits
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            switch pattern {
            case 0: result.append(UInt8(next() % limit))
            case 1: result += repeatElement(UInt8(next() % limit), count: 1 + next() % 40)
            default: result.append(UInt8(next() % min(limit, 3)))
            }
        }
        return Array(result.prefix(count))
    }

    /// giflib's bytes for one image, from its descriptor to its data's end.
    static func giflibImage(width: Int, height: Int, globalBits: Int, localColors: [UInt32]?, indices: [UInt8]) throws -> [UInt8] {
        let file = try GiflibWriter(width: width, height: height, globalColors: [UInt32](repeating: 0x10_20_30, count: 1 << globalBits))
        let start = file.bytes.count
        try file.putImage(left: 3, top: 2, width: width, height: height, localColors: localColors, indices: indices)
        let image = Array(file.bytes[start...])
        _ = try file.close()
        return image
    }

    /// The image as `GIFFileWriter` writes it, compressed lossily by `lossy` if given.
    static func ownImage(
        width: Int, height: Int, globalBits: Int, localColors: [UInt32]?, indices: [UInt8], lzw: LZWCompressor, lossy: LossyMatching? = nil
    ) -> [UInt8] {
        let file = GIFFileWriter(width: width, height: height, globalColors: [UInt32](repeating: 0x10_20_30, count: 1 << globalBits),
                                 globalSize: 1 << globalBits, backgroundIndex: 0, lzw: lzw)
        var bytes: [UInt8] = []
        file.flush { bytes = Array($0) }
        var written = indices
        file.appendImage(rect: PixelRect(x: 3, y: 2, width: width, height: height), localColors: localColors,
                         localSize: localColors?.count ?? 0, codeBits: globalBits, indices: &written, lossy: lossy)
        file.flush { bytes = Array($0) }
        return bytes
    }

    @Test("on the global palette: every code size, random, runs and few indices, up to several table clears", arguments: 1...8)
    func globalPalette(bits: Int) throws {
        let lzw = LZWCompressor()
        for (width, height) in [(1, 1), (2, 1), (3, 1), (17, 15), (200, 100), (640, 150)] {
            for pattern in 0..<3 {
                let indices = Self.indices(count: width * height, bits: bits, pattern: pattern, seed: UInt64(bits * 100 + pattern + width))
                let expected = try Self.giflibImage(width: width, height: height, globalBits: bits, localColors: nil, indices: indices)
                let written = Self.ownImage(width: width, height: height, globalBits: bits, localColors: nil, indices: indices, lzw: lzw)
                #expect(written == expected, "\(width)×\(height), \(bits) bits, pattern \(pattern)")
            }
        }
    }

    @Test("with a palette of its own, from 2 to 256 entries")
    func localPalette() throws {
        let lzw = LZWCompressor()
        for bits in 1...8 {
            let colors = (0..<(1 << bits)).map { UInt32($0) * 0x01_03_07 }
            let indices = Self.indices(count: 300 * 40, bits: bits, pattern: bits % 3, seed: UInt64(bits))
            let expected = try Self.giflibImage(width: 300, height: 40, globalBits: 8, localColors: colors, indices: indices)
            let written = Self.ownImage(width: 300, height: 40, globalBits: 8, localColors: colors, indices: indices, lzw: lzw)
            #expect(written == expected, "\(bits) bits")
        }
    }

    @Test("a long run of one index: strings up to thousands of pixels")
    func longRun() throws {
        let lzw = LZWCompressor()
        let indices = [UInt8](repeating: 2, count: 1500 * 1000 - 1) + [1]
        let expected = try Self.giflibImage(width: 1500, height: 1000, globalBits: 2, localColors: nil, indices: indices)
        #expect(Self.ownImage(width: 1500, height: 1000, globalBits: 2, localColors: nil, indices: indices, lzw: lzw) == expected)
    }
}

@Suite("LZW: the lossy search, when it may change nothing, writes the bytes giflib writes")
struct LossyExactLZWTests {
    @Test("every pixel marked exact, a threshold that would accept any colour: every code size, random, runs and few indices, table clears",
          arguments: 1...8)
    func everyPixelExact(bits: Int) throws {
        let lzw = LZWCompressor()
        // Colours close together: any index would be accepted for any other.
        let colors = (0..<(1 << bits)).map { UInt32($0 % 4) }
        for (width, height) in [(1, 1), (3, 1), (17, 15), (640, 150)] {
            for pattern in 0..<3 {
                let indices = LZWCompressorTests.indices(count: width * height, bits: bits, pattern: pattern, seed: UInt64(bits * 10 + pattern))
                let matching = LossyMatching(loss: 200, colors: colors, transparentIndex: nil, exactPixels: [Bool](repeating: true, count: indices.count))
                let expected = try LZWCompressorTests.giflibImage(width: width, height: height, globalBits: bits, localColors: nil, indices: indices)
                let written = LZWCompressorTests.ownImage(
                    width: width, height: height, globalBits: bits, localColors: nil, indices: indices, lzw: lzw, lossy: matching
                )
                #expect(written == expected, "\(width)×\(height), \(bits) bits, pattern \(pattern)")
            }
        }
    }

    @Test("colours too far apart to stand for one another: the same bytes, the threshold at its largest")
    func distantColors() throws {
        let lzw = LZWCompressor()
        // Corners of the RGB cube: at least 255 apart, beyond the reach of a loss of 1,000 (a threshold of 100², carried errors under 135).
        let colors: [UInt32] = [0x00_0000, 0xFF_FFFF, 0x00_00FF, 0x00_FF00]
        let indices = LZWCompressorTests.indices(count: 300 * 200, bits: 2, pattern: 1, seed: 5)
        let matching = LossyMatching(loss: 1000, colors: colors, transparentIndex: nil, exactPixels: [Bool](repeating: false, count: indices.count))
        let expected = try LZWCompressorTests.giflibImage(width: 300, height: 200, globalBits: 2, localColors: nil, indices: indices)
        #expect(LZWCompressorTests.ownImage(width: 300, height: 200, globalBits: 2, localColors: nil, indices: indices, lzw: lzw, lossy: matching) == expected)
    }
}
