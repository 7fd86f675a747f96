import CGif
@testable import PagedotsGIF
import Testing

@Suite("The LZW data is giflib's, byte for byte")
struct LZWEncoderTests {
    /// Where giflib's output function appends.
    final class Output {
        var bytes: [UInt8] = []
    }

    /// The LZW data (code size byte, sub-blocks, terminator) that giflib's
    /// `EGifPutLine` writes for `indices` as one image on a global palette of
    /// `1 << codeSize` entries.
    static func giflibData(_ indices: [UInt8], codeSize: Int) throws -> [UInt8] {
        let output = Output()
        var error: Int32 = 0
        let file = try #require(EGifOpen(Unmanaged.passUnretained(output).toOpaque(), { file, data, count in
            guard let file, let data, let userData = file.pointee.UserData else { return 0 }
            Unmanaged<Output>.fromOpaque(userData).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &error))
        let entries = 1 << codeSize
        let colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: entries)
        let map = try #require(GifMakeMapObject(Int32(entries), colors))
        defer { GifFreeMapObject(map) }
        #expect(EGifPutScreenDesc(file, Int32(indices.count), 1, 8, 0, map) == GIF_OK)
        let start = output.bytes.count
        #expect(EGifPutImageDesc(file, 0, 0, Int32(indices.count), 1, false, nil) == GIF_OK)
        var line = indices
        #expect(EGifPutLine(file, &line, Int32(line.count)) == GIF_OK)
        // After the 10 bytes of the image descriptor.
        let data = Array(output.bytes[(start + 10)...])
        #expect(EGifCloseFile(file, nil) == GIF_OK)
        return data
    }

    static func ours(_ indices: [UInt8], codeSize: Int, encoder: LZWEncoder = LZWEncoder()) -> [UInt8] {
        var output: [UInt8] = []
        indices.withUnsafeBufferPointer { encoder.append($0, minimumCodeSize: codeSize, to: &output) }
        return output
    }

    /// Indices below `1 << codeSize`: noise (seeded), so that the table fills
    /// and clears, with runs of one index between.
    static func indices(count: Int, codeSize: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var result: [UInt8] = []
        while result.count < count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = UInt8(truncatingIfNeeded: state >> 33) & UInt8((1 << codeSize) - 1)
            let run = state >> 60 == 0 ? Int(state >> 40 & 63) : 1
            result += repeatElement(value, count: min(run, count - result.count))
        }
        return result
    }

    @Test("noise and runs, code sizes 2 to 8, past the 4095-code table, and one index", arguments: 2...8)
    func sameAsGiflib(codeSize: Int) throws {
        let encoder = LZWEncoder()
        for count in [1, 2, 3, 257, 5000, 40000] {
            let indices = Self.indices(count: count, codeSize: codeSize, seed: UInt64(count * 10 + codeSize))
            #expect(Self.ours(indices, codeSize: codeSize, encoder: encoder) == (try Self.giflibData(indices, codeSize: codeSize)), "\(count) indices")
        }
        let flat = [UInt8](repeating: UInt8((1 << codeSize) - 1), count: 70000)
        #expect(Self.ours(flat, codeSize: codeSize, encoder: encoder) == (try Self.giflibData(flat, codeSize: codeSize)))
    }
}
