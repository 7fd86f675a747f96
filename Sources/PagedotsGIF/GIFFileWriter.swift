import CGif
import PagedotsPixels

/// A GIF file written into memory: by giflib's encoder (`EGif…`) the
/// screen descriptor and global palette, the NETSCAPE2.0 loop extension and
/// graphic control extensions; images by this writer and its
/// `LZWCompressor`, in the bytes giflib would write for them. What
/// is written is held until `flush` hands it on, so that a large file need
/// not be held whole.
///
/// Images can be written as candidates: `appendSmallest` writes several
/// encodings of one frame and keeps the smallest, discarding the others'
/// bytes. Each image is compressed afresh, so what was written before a
/// discarded candidate stays valid.
///
/// Only a failed allocation inside giflib can make a call fail, never the
/// pixels, so failures are preconditions.
final class GIFFileWriter {
    /// The file's bytes since the last flush, where giflib's output function appends, reached
    /// through a pointer of the writer's own: giflib calls that function
    /// hundreds of times a file (a block or a header field at a time), each
    /// without taking a reference to an object or checking exclusive access.
    private let output = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
    private var file: UnsafeMutablePointer<GifFileType>?
    /// Compresses the images' indices.
    private let lzw: LZWCompressor

    /// Opens the file and writes its header, logical screen descriptor and
    /// global palette (`globalColors`, 24-bit RGB, padded to `globalSize`
    /// entries, a power of two), or no global palette when `globalColors` is nil.
    init(width: Int, height: Int, globalColors: [UInt32]?, globalSize: Int, backgroundIndex: Int, lzw: LZWCompressor) {
        self.lzw = lzw
        output.initialize(to: [])
        var error: Int32 = 0
        let opened = EGifOpen(output, { file, data, count in
            guard let file, let data, count >= 0, let userData = file.pointee.UserData else { return 0 }
            userData.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &error)
        guard let opened else { preconditionFailure("giflib EGifOpen failed with error \(error)") }
        file = opened
        // Extensions (delays, transparency, looping) need GIF89a.
        EGifSetGifVersion(opened, true)
        let status = Self.withColorMap(globalColors, size: globalSize) { map in
            EGifPutScreenDesc(opened, Int32(width), Int32(height), 8, Int32(backgroundIndex), map)
        }
        Self.check(status, "EGifPutScreenDesc")
    }

    deinit {
        if let file {
            EGifCloseFile(file, nil)
        }
        output.deinitialize(count: 1)
        output.deallocate()
    }

    /// The NETSCAPE2.0 application extension: after the last frame, start
    /// over `repetitions` more times, 0 meaning forever.
    func appendLoop(repetitions: Int) {
        guard let file else { return }
        let identifier = Array("NETSCAPE2.0".utf8)
        // Sub-block 1 of the extension: the repetition count, little-endian.
        let loop: [UInt8] = [1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8 & 0xFF)]
        Self.check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
        Self.check(EGifPutExtensionBlock(file, Int32(identifier.count), identifier), "EGifPutExtensionBlock")
        Self.check(EGifPutExtensionBlock(file, Int32(loop.count), loop), "EGifPutExtensionBlock")
        Self.check(EGifPutExtensionTrailer(file), "EGifPutExtensionTrailer")
    }

    /// A graphic control extension: how long the next image shows, what
    /// happens to it afterwards, and its transparent index.
    func appendGraphicControl(delayCentiseconds: Int, disposal: FramePatch.Disposal, transparentIndex: Int?) {
        guard let file else { return }
        var block = GraphicsControlBlock(
            DisposalMode: disposal == .clear ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT,
            UserInputFlag: false,
            DelayTime: Int32(delayCentiseconds),
            TransparentColor: Int32(transparentIndex ?? Int(NO_TRANSPARENT_COLOR))
        )
        withUnsafeTemporaryAllocation(of: GifByteType.self, capacity: 4) { bytes in
            let length = EGifGCBToExtension(&block, bytes.baseAddress)
            Self.check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes.baseAddress), "EGifPutExtension")
        }
    }

    /// One image: `rect` on the canvas, its palette indices row by row in
    /// `indices`. With `localColors` (padded to
    /// `localSize` entries, a power of two) the image has its own palette and
    /// its LZW codes start at that palette's width; without, it uses the global
    /// palette and its codes start at `codeBits` (2…8) bits, which must cover
    /// every index it uses. The descriptor and palette are written here and
    /// the data by `lzw`, as giflib's `EGifPutImageDesc` and `EGifPutLine`
    /// would write them.
    func appendImage(rect: PixelRect, localColors: [UInt32]?, localSize: Int, codeBits: Int, indices: [UInt8]) {
        // A local table has a power-of-two size, from 2 entries.
        let tableBits = localSize.trailingZeroBitCount
        output.pointee.append(0x2C)
        for value in [rect.x, rect.y, rect.width, rect.height] {
            output.pointee.append(UInt8(truncatingIfNeeded: value))
            output.pointee.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        // Packed fields: a local table and its size (2^(n+1) entries); not interlaced, not sorted.
        output.pointee.append(localColors == nil ? 0 : 0x80 | UInt8(tableBits - 1))
        if let localColors {
            for color in localColors {
                output.pointee.append(UInt8(truncatingIfNeeded: color))
                output.pointee.append(UInt8(truncatingIfNeeded: color >> 8))
                output.pointee.append(UInt8(truncatingIfNeeded: color >> 16))
            }
            // Padded with black to the table's size.
            output.pointee.append(contentsOf: repeatElement(0, count: 3 * (localSize - localColors.count)))
        }
        indices.withUnsafeBufferPointer { pixels in
            lzw.compress(pixels, codeBits: localColors == nil ? codeBits : tableBits, into: &output.pointee)
        }
    }

    /// The bytes written since the last flush.
    var byteCount: Int { output.pointee.count }

    /// The last `count` bytes written (since the last flush).
    func lastBytes(_ count: Int) -> [UInt8] {
        Array(output.pointee.suffix(count))
    }

    /// An image that `appendImage` wrote before (its bytes from the
    /// descriptor on, as `lastBytes` gave them), again with its top left
    /// corner at `rect`'s: the descriptor's position is all that changes.
    /// giflib has finished that image, so the file stays in step.
    func appendImage(copying image: [UInt8], at rect: PixelRect) {
        let start = output.pointee.count
        output.pointee.append(contentsOf: image)
        // Image descriptor: ',' then left and top, little-endian 16-bit words.
        for (offset, value) in [(1, rect.x), (3, rect.y)] {
            output.pointee[start + offset] = UInt8(truncatingIfNeeded: value)
            output.pointee[start + offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
    }

    /// Calls `write` for each of `count` candidates (each appending the same
    /// frame some other way) and keeps only the bytes of the smallest; on a
    /// tie, the earlier. Returns the number of the candidate kept.
    @discardableResult
    func appendSmallest(of count: Int, _ write: (Int) -> Void) -> Int {
        let start = output.pointee.count
        var best: (candidate: Int, size: Int)?
        for candidate in 0..<count {
            let candidateStart = output.pointee.count
            write(candidate)
            let size = output.pointee.count - candidateStart
            if let best, size >= best.size {
                output.pointee.removeSubrange(candidateStart...)
            } else {
                output.pointee.removeSubrange(start..<candidateStart)
                best = (candidate, size)
            }
        }
        return best?.candidate ?? 0
    }

    /// Hands the bytes written since the last flush to `write` and lets go
    /// of them: between images, never inside `appendSmallest`.
    func flush(to write: (UnsafeRawBufferPointer) -> Void) {
        guard !output.pointee.isEmpty else { return }
        output.pointee.withUnsafeBytes(write)
        output.pointee.removeAll(keepingCapacity: true)
    }

    /// Writes the trailer (then `flush` hands it on).
    func finish() {
        if let file {
            Self.check(EGifCloseFile(file, nil), "EGifCloseFile")
            self.file = nil
        }
    }

    /// Runs `body` with a giflib colour map of `colors` padded with black to
    /// `size` entries, or with nil when `colors` is nil.
    private static func withColorMap(_ colors: [UInt32]?, size: Int, _ body: (UnsafeMutablePointer<ColorMapObject>?) -> Int32) -> Int32 {
        guard let colors else { return body(nil) }
        var entries = colors.map { GifColorType(Red: UInt8(truncatingIfNeeded: $0), Green: UInt8(truncatingIfNeeded: $0 >> 8), Blue: UInt8(truncatingIfNeeded: $0 >> 16)) }
        entries += repeatElement(GifColorType(Red: 0, Green: 0, Blue: 0), count: size - entries.count)
        guard let map = GifMakeMapObject(Int32(size), entries) else { preconditionFailure("giflib GifMakeMapObject failed for \(size) colours") }
        defer { GifFreeMapObject(map) }
        return body(map)
    }

    private static func check(_ status: Int32, _ call: String) {
        precondition(status == GIF_OK, "giflib \(call) failed")
    }
}
