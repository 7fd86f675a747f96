import PagedotsPixels

/// A GIF file written into memory, in the bytes giflib's encoder (`EGif…`)
/// writes for the same calls: the header, the logical screen descriptor and
/// global palette, the NETSCAPE2.0 loop extension, graphic control
/// extensions, images (their data from `LZWCompressor`) and the trailer.
/// What is written is held until `flush` hands it on, so that a large file
/// need not be held whole.
///
/// Images can be written as candidates: `appendSmallest` writes several
/// encodings of one frame and keeps the smallest, discarding the others'
/// bytes. Each image is compressed afresh, so what was written before a
/// discarded candidate stays valid.
final class GIFFileWriter {
    /// The file's bytes since the last flush.
    private var output: [UInt8] = []
    /// Compresses the images' indices.
    private let lzw: LZWCompressor

    /// Writes the header (`GIF89a`: the file has extensions), the logical
    /// screen descriptor and the global palette (`globalColors`, 24-bit RGB,
    /// padded with black to `globalSize` entries, a power of two from 2 to
    /// 256), or no global palette when `globalColors` is nil.
    init(width: Int, height: Int, globalColors: [UInt32]?, globalSize: Int, backgroundIndex: Int, lzw: LZWCompressor) {
        self.lzw = lzw
        output.append(contentsOf: "GIF89a".utf8)
        appendWord(width)
        appendWord(height)
        // Packed fields: a global table and its size (2^(n+1) entries), the
        // colour resolution (8 bits, stored as 7), not sorted; without a
        // table, giflib gives the size field its largest value.
        let sizeField = globalColors == nil ? 7 : UInt8(truncatingIfNeeded: globalSize.trailingZeroBitCount - 1)
        output.append((globalColors == nil ? 0 : 0x80) | 0x70 | sizeField)
        output.append(UInt8(truncatingIfNeeded: backgroundIndex))
        // Pixel aspect ratio: none given.
        output.append(0)
        if let globalColors {
            appendColors(globalColors, tableSize: globalSize)
        }
    }

    /// The NETSCAPE2.0 application extension: after the last frame, start
    /// over `repetitions` more times, 0 meaning forever.
    func appendLoop(repetitions: Int) {
        // Extension introducer and application label, the 11-byte
        // identifier block, the 3-byte block (sub-block 1: the count,
        // little-endian), and the terminator.
        output.append(contentsOf: [0x21, 0xFF, 11])
        output.append(contentsOf: "NETSCAPE2.0".utf8)
        output.append(contentsOf: [3, 1])
        appendWord(repetitions)
        output.append(0)
    }

    /// A graphic control extension: how long the next image shows, what
    /// happens to it afterwards, and its transparent index.
    func appendGraphicControl(delayCentiseconds: Int, disposal: FramePatch.Disposal, transparentIndex: Int?) {
        // Packed fields: the disposal method (1 keep, 2 restore to
        // background) in bits 2–4, no user input, and whether a transparent
        // index is given. Without one, giflib writes 0xFF in its place.
        let disposalMethod: UInt8 = disposal == .clear ? 2 : 1
        output.append(contentsOf: [0x21, 0xF9, 4, disposalMethod << 2 | (transparentIndex == nil ? 0 : 1)])
        appendWord(delayCentiseconds)
        output.append(transparentIndex.map { UInt8(truncatingIfNeeded: $0) } ?? 0xFF)
        output.append(0)
    }

    /// One image: `rect` on the canvas, its palette indices row by row in
    /// `indices`. With `localColors` (padded to
    /// `localSize` entries, a power of two) the image has its own palette and
    /// its LZW codes start at that palette's width; without, it uses the global
    /// palette and its codes start at `codeBits` (2…8) bits, which must cover
    /// every index it uses. The data is compressed by `lzw`, lossily when
    /// `lossy` says how: `indices` then holds what a decoder reads back.
    /// Returns whether lossy compression changed any index.
    @discardableResult
    func appendImage(rect: PixelRect, localColors: [UInt32]?, localSize: Int, codeBits: Int, indices: inout [UInt8], lossy: LossyMatching? = nil) -> Bool {
        // A local table has a power-of-two size, from 2 entries.
        let tableBits = localSize.trailingZeroBitCount
        output.append(0x2C)
        for value in [rect.x, rect.y, rect.width, rect.height] {
            appendWord(value)
        }
        // Packed fields: a local table and its size (2^(n+1) entries); not interlaced, not sorted.
        output.append(localColors == nil ? 0 : 0x80 | UInt8(truncatingIfNeeded: tableBits - 1))
        if let localColors {
            appendColors(localColors, tableSize: localSize)
        }
        let rootBits = localColors == nil ? codeBits : tableBits
        guard let lossy else {
            indices.withUnsafeBufferPointer { lzw.compress($0, codeBits: rootBits, into: &output) }
            return false
        }
        return indices.withUnsafeMutableBufferPointer { lzw.compressLossy($0, codeBits: rootBits, matching: lossy, into: &output) }
    }

    /// The bytes written since the last flush.
    var byteCount: Int { output.count }

    /// The last `count` bytes written (since the last flush).
    func lastBytes(_ count: Int) -> [UInt8] {
        Array(output.suffix(count))
    }

    /// An image that `appendImage` wrote before (its bytes from the
    /// descriptor on, as `lastBytes` gave them), again with its top left
    /// corner at `rect`'s: the descriptor's position is all that changes.
    func appendImage(copying image: [UInt8], at rect: PixelRect) {
        let start = output.count
        output.append(contentsOf: image)
        // Image descriptor: ',' then left and top, little-endian 16-bit words.
        for (offset, value) in [(1, rect.x), (3, rect.y)] {
            output[start + offset] = UInt8(truncatingIfNeeded: value)
            output[start + offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
    }

    /// Calls `write` for each of `count` candidates (each appending the same
    /// frame some other way) and keeps only the bytes of the smallest; on a
    /// tie, the earlier. Returns the number of the candidate kept.
    @discardableResult
    func appendSmallest(of count: Int, _ write: (Int) -> Void) -> Int {
        let start = output.count
        var best: (candidate: Int, size: Int)?
        for candidate in 0..<count {
            let candidateStart = output.count
            write(candidate)
            let size = output.count - candidateStart
            if let best, size >= best.size {
                output.removeSubrange(candidateStart...)
            } else {
                output.removeSubrange(start..<candidateStart)
                best = (candidate, size)
            }
        }
        return best?.candidate ?? 0
    }

    /// Hands the bytes written since the last flush to `write` and lets go
    /// of them: between images, never inside `appendSmallest`.
    func flush(to write: (UnsafeRawBufferPointer) -> Void) {
        guard !output.isEmpty else { return }
        output.withUnsafeBytes(write)
        output.removeAll(keepingCapacity: true)
    }

    /// Writes the trailer (then `flush` hands it on).
    func finish() {
        output.append(0x3B)
    }

    /// A 16-bit field, little-endian.
    private func appendWord(_ value: Int) {
        output.append(UInt8(truncatingIfNeeded: value))
        output.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// A colour table: `colors` (24-bit RGB, red in the low byte) as red,
    /// green and blue bytes, padded with black to `tableSize` entries.
    private func appendColors(_ colors: [UInt32], tableSize: Int) {
        for color in colors {
            output.append(UInt8(truncatingIfNeeded: color))
            output.append(UInt8(truncatingIfNeeded: color >> 8))
            output.append(UInt8(truncatingIfNeeded: color >> 16))
        }
        output.append(contentsOf: repeatElement(0, count: 3 * max(tableSize - colors.count, 0)))
    }
}
