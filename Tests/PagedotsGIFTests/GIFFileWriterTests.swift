@testable import PagedotsGIF
import PagedotsPixels
import Testing

/// Whole files as `GIFFileWriter` writes them, against giflib's encoder
/// given the same calls, byte for byte.
@Suite("The GIF container: the bytes giflib writes")
struct GIFFileWriterTests {
    /// One frame of a test file: its graphic control (if any) and its image.
    struct Frame {
        var control: (delay: Int, clear: Bool, transparentIndex: Int?)?
        var rect: PixelRect
        var localColors: [UInt32]?
        var indices: [UInt8]
    }

    /// The file from `GIFFileWriter`; global images use the global table's width, as giflib's do.
    static func written(width: Int, height: Int, global: [UInt32]?, background: Int, loop: Int?, frames: [Frame]) -> [UInt8] {
        let file = GIFFileWriter(width: width, height: height, globalColors: global, globalSize: global?.count ?? 0,
                                 backgroundIndex: background, lzw: LZWCompressor())
        var bytes: [UInt8] = []
        func flush() { file.flush { bytes += $0 } }
        flush()
        if let loop {
            file.appendLoop(repetitions: loop)
        }
        for frame in frames {
            if let control = frame.control {
                file.appendGraphicControl(delayCentiseconds: control.delay, disposal: control.clear ? .clear : .keep, transparentIndex: control.transparentIndex)
            }
            var indices = frame.indices
            file.appendImage(rect: frame.rect, localColors: frame.localColors, localSize: frame.localColors?.count ?? 0,
                             codeBits: (global?.count ?? 2).trailingZeroBitCount, indices: &indices)
            flush()
        }
        file.finish()
        flush()
        return bytes
    }

    /// The file from giflib, given the same calls.
    static func giflib(width: Int, height: Int, global: [UInt32]?, background: Int, loop: Int?, frames: [Frame]) throws -> [UInt8] {
        let file = try GiflibWriter(width: width, height: height, globalColors: global, backgroundIndex: background)
        if let loop {
            try file.putLoop(repetitions: loop)
        }
        for frame in frames {
            if let control = frame.control {
                try file.putGraphicControl(delay: control.delay, clear: control.clear, transparentIndex: control.transparentIndex)
            }
            try file.putImage(left: frame.rect.x, top: frame.rect.y, width: frame.rect.width, height: frame.rect.height,
                              localColors: frame.localColors, indices: frame.indices)
        }
        return try file.close()
    }

    /// `count` colours from a seed.
    static func colors(_ count: Int, seed: UInt32) -> [UInt32] {
        (0..<count).map { (UInt32($0) &* 0x9E37_79B1 &+ seed) & 0xFF_FFFF }
    }

    @Test("screens with global palettes of 2 to 256 entries, and none; loop counts; every kind of graphic control; local and global images")
    func wholeFiles() throws {
        let controls: [(delay: Int, clear: Bool, transparentIndex: Int?)?] = [
            nil, (0, false, nil), (2, true, 0), (65535, false, 1), (300, true, nil), (7, false, 3),
        ]
        for globalBits in [0, 1, 2, 5, 8] {
            let global = globalBits == 0 ? nil : Self.colors(1 << globalBits, seed: UInt32(globalBits))
            for loop in [nil, 0, 1, 300, 65535] as [Int?] {
                let frames = controls.enumerated().map { number, control in
                    let rect = PixelRect(x: number, y: number * 2 % 5, width: 9 - number, height: 4 + number % 3)
                    let localBits = global == nil || number % 2 == 1 ? 1 + number % 8 : nil
                    let bits = localBits ?? globalBits
                    let indices = (0..<rect.area).map { UInt8(truncatingIfNeeded: ($0 * 7 + number) % (1 << bits)) }
                    return Frame(control: control, rect: rect, localColors: localBits.map { Self.colors(1 << $0, seed: UInt32(number)) }, indices: indices)
                }
                let background = globalBits == 0 ? 0 : (1 << globalBits) - 1
                let expected = try Self.giflib(width: 20, height: 12, global: global, background: background, loop: loop, frames: frames)
                let written = Self.written(width: 20, height: 12, global: global, background: background, loop: loop, frames: frames)
                #expect(written == expected, "global palette of \(global?.count ?? 0), loop \(String(describing: loop))")
            }
        }
    }

    @Test("a screen of the largest size, with no frames at all")
    func emptyLargest() throws {
        let expected = try Self.giflib(width: 65535, height: 65535, global: [0, 0xFF_FFFF], background: 1, loop: nil, frames: [])
        #expect(Self.written(width: 65535, height: 65535, global: [0, 0xFF_FFFF], background: 1, loop: nil, frames: []) == expected)
    }
}
