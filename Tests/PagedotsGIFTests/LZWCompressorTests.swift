import CGif
@testable import PagedotsGIF
import PagedotsPixels
import Testing

/// The images `GIFFileWriter` writes with its own LZW compressor, against
/// the bytes giflib's encoder writes for the same indices.
@Suite("LZW: the bytes giflib writes")
struct LZWCompressorTests {
    /// Indices of `bits` bits: random, in runs, or few of them, from a fixed seed.
    private static func indices(count: Int, bits: Int, pattern: Int, seed: UInt64) -> [UInt8] {
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
    private static func giflibImage(width: Int, height: Int, globalBits: Int, localColors: [UInt32]?, indices: [UInt8]) -> [UInt8] {
        let output = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
        output.initialize(to: [])
        defer {
            output.deinitialize(count: 1)
            output.deallocate()
        }
        var error: Int32 = 0
        let file = EGifOpen(output, { file, data, count in
            guard let file, let data, let userData = file.pointee.UserData else { return 0 }
            userData.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &error)!
        EGifSetGifVersion(file, true)
        func map(_ colors: [UInt32]) -> UnsafeMutablePointer<ColorMapObject> {
            let entries = colors.map { GifColorType(Red: UInt8(truncatingIfNeeded: $0), Green: UInt8(truncatingIfNeeded: $0 >> 8), Blue: UInt8(truncatingIfNeeded: $0 >> 16)) }
            return GifMakeMapObject(Int32(colors.count), entries)!
        }
        let global = map([UInt32](repeating: 0x10_20_30, count: 1 << globalBits))
        EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, global)
        GifFreeMapObject(global)
        let start = output.pointee.count
        let local = localColors.map(map)
        EGifPutImageDesc(file, 3, 2, Int32(width), Int32(height), false, local)
        var pixels = indices
        EGifPutLine(file, &pixels, Int32(pixels.count))
        let image = Array(output.pointee[start...])
        EGifCloseFile(file, nil)
        if let local { GifFreeMapObject(local) }
        return image
    }

    private static func ownImage(width: Int, height: Int, globalBits: Int, localColors: [UInt32]?, indices: [UInt8], lzw: LZWCompressor) -> [UInt8] {
        let file = GIFFileWriter(width: width, height: height, globalColors: [UInt32](repeating: 0x10_20_30, count: 1 << globalBits),
                                 globalSize: 1 << globalBits, backgroundIndex: 0, lzw: lzw)
        var bytes: [UInt8] = []
        file.flush { bytes = Array($0) }
        file.appendImage(rect: PixelRect(x: 3, y: 2, width: width, height: height), localColors: localColors,
                         localSize: localColors?.count ?? 0, codeBits: globalBits, indices: indices)
        file.flush { bytes = Array($0) }
        return bytes
    }

    @Test("on the global palette: every code size, random, runs and few indices, up to several table clears", arguments: 1...8)
    func globalPalette(bits: Int) {
        let lzw = LZWCompressor()
        for (width, height) in [(1, 1), (2, 1), (3, 1), (17, 15), (200, 100), (640, 150)] {
            for pattern in 0..<3 {
                let indices = Self.indices(count: width * height, bits: bits, pattern: pattern, seed: UInt64(bits * 100 + pattern + width))
                let expected = Self.giflibImage(width: width, height: height, globalBits: bits, localColors: nil, indices: indices)
                let written = Self.ownImage(width: width, height: height, globalBits: bits, localColors: nil, indices: indices, lzw: lzw)
                #expect(written == expected, "\(width)×\(height), \(bits) bits, pattern \(pattern)")
            }
        }
    }

    @Test("with a palette of its own, from 2 to 256 entries")
    func localPalette() {
        let lzw = LZWCompressor()
        for bits in 1...8 {
            let colors = (0..<(1 << bits)).map { UInt32($0) * 0x01_03_07 }
            let indices = Self.indices(count: 300 * 40, bits: bits, pattern: bits % 3, seed: UInt64(bits))
            let expected = Self.giflibImage(width: 300, height: 40, globalBits: 8, localColors: colors, indices: indices)
            let written = Self.ownImage(width: 300, height: 40, globalBits: 8, localColors: colors, indices: indices, lzw: lzw)
            #expect(written == expected, "\(bits) bits")
        }
    }

    @Test("a long run of one index: strings up to thousands of pixels")
    func longRun() {
        let lzw = LZWCompressor()
        let indices = [UInt8](repeating: 2, count: 1500 * 1000 - 1) + [1]
        let expected = Self.giflibImage(width: 1500, height: 1000, globalBits: 2, localColors: nil, indices: indices)
        #expect(Self.ownImage(width: 1500, height: 1000, globalBits: 2, localColors: nil, indices: indices, lzw: lzw) == expected)
    }
}
