/// GIF's LZW compression of one image's palette indices: the same codes,
/// code widths and table clears as giflib's encoder (`EGifCompressLine`),
/// so the same bytes, from a table that is quicker to search; or, given a
/// `LossyMatching`, lossy compression in the way of gifsicle's `--lossy`
/// (`compressLossy`).
///
/// giflib keys its string table by `prefix << 8 | index` in 8192 slots
/// hashed by `(key >> 12) ^ key`, which puts neighbouring prefixes in
/// neighbouring slots: probes run long, and the search was a fifth of an
/// indicator GIF's time. Here the key is hashed by multiplication, and each
/// slot carries the number of the image it belongs to, so a new image
/// starts without clearing the table.
///
/// One compressor per thread, reused from image to image: not `Sendable`.
final class LZWCompressor {
    /// The largest code GIF allows (12 bits): when the next code would be
    /// this one, giflib sends a clear code instead of adding it.
    private static let maxCode = 4095
    /// The fewest codes written between two clear codes: with 8-bit
    /// indices, the table's entries are codes 258…4094, one per code written.
    private static let codesPerClear = maxCode - (1 << 8 + 2)
    /// Slots of the table, as a power of two: the entries a table holds
    /// (at most 4089, with 2-bit indices) take at most half of them, so
    /// probes stay short.
    private static let slotBits = 13
    private static let slotMask = (1 << slotBits) - 1

    /// Each slot: the table's generation (bits 32–63), the key (prefix code
    /// and index, bits 12–31) and its code (bits 0–11). A slot of an
    /// earlier generation is empty.
    private let slots: UnsafeMutablePointer<UInt64>
    private var generation: UInt64 = 1
    /// The string table as a tree, for the lossy search (made at its first use).
    private lazy var tree = StringTree()

    init() {
        slots = .allocate(capacity: 1 << Self.slotBits)
        slots.initialize(repeating: 0, count: 1 << Self.slotBits)
    }

    deinit {
        slots.deallocate()
    }

    /// Appends the image data of `indices` to `file`: the LZW minimum code
    /// size (`codeBits`, raised to 2), the codes in sub-blocks of at most 255
    /// bytes, and the empty block that ends them. Every index must fit in
    /// `codeBits` bits.
    func compress(_ indices: UnsafeBufferPointer<UInt8>, codeBits: Int, into file: inout [UInt8]) {
        Self.writeCodes(count: indices.count, codeBits: codeBits, into: &file) { bits, rootBits in
            encode(indices, rootBits: rootBits, into: &bits)
        }
    }

    /// Appends the image data of `indices` as `compress` does, but where
    /// `matching` allows, a string of the table is written for pixels whose
    /// indices it only comes close to (see `LossyMatching`), and replaces
    /// each index by the one written, which is what a decoder reads back.
    /// Returns whether any index changed. With a threshold of 0 nothing
    /// changes and the bytes are `compress`'s.
    @discardableResult
    func compressLossy(_ indices: UnsafeMutableBufferPointer<UInt8>, codeBits: Int, matching: LossyMatching, into file: inout [UInt8]) -> Bool {
        guard matching.threshold > 0 else {
            compress(UnsafeBufferPointer(indices), codeBits: codeBits, into: &file)
            return false
        }
        var changed = false
        Self.writeCodes(count: indices.count, codeBits: codeBits, into: &file) { bits, rootBits in
            changed = encodeLossy(indices, rootBits: rootBits, matching: matching, into: &bits)
        }
        return changed
    }

    /// Appends the minimum code size and then the codes that `encode` puts
    /// into a `CodeWriter`, in sub-blocks, for an image of `count` pixels.
    private static func writeCodes(count: Int, codeBits: Int, into file: inout [UInt8], _ encode: (inout CodeWriter, Int) -> Void) {
        let rootBits = max(codeBits, 2)
        // At most a code a pixel, a clear code per `codesPerClear` codes or
        // more, the first clear and the end code, each of at most 12 bits; a
        // length byte per 255 bytes; the code size and the empty block.
        let codes = count + count / codesPerClear + 3
        let dataBytes = (codes * 12 + 7) / 8
        let bound = dataBytes + dataBytes / 255 + 4
        let start = file.count
        file.append(contentsOf: repeatElement(0, count: bound))
        let written = file.withUnsafeMutableBufferPointer { buffer in
            var bits = CodeWriter(buffer: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            bits.appendByte(UInt8(rootBits))
            encode(&bits, rootBits)
            return bits.finish()
        }
        file.removeLast(bound - written)
    }

    /// The LZW codes of `indices`, from the first clear code to the end code.
    private func encode(_ indices: UnsafeBufferPointer<UInt8>, rootBits: Int, into bits: inout CodeWriter) {
        let clearCode = 1 << rootBits
        let endCode = clearCode + 1
        bits.startCodes(width: rootBits + 1)
        var nextCode = endCode + 1
        newTable()
        bits.put(clearCode, nextCode: nextCode)
        guard var prefix = indices.first.map(Int.init) else {
            bits.put(endCode, nextCode: nextCode)
            return
        }
        let slots = self.slots
        var generation = self.generation
        var position = 1
        while position < indices.count {
            let index = indices[position]
            position += 1
            let key = UInt64(prefix) << 8 | UInt64(index)
            let wanted = generation << 20 | key
            var slot = Self.slot(of: key)
            var found = false
            while true {
                let entry = slots[slot]
                if entry >> 12 == wanted {
                    prefix = Int(entry & 0xFFF)
                    found = true
                    break
                }
                if entry >> 32 != generation { break }
                slot = (slot + 1) & Self.slotMask
            }
            if found { continue }
            bits.put(prefix, nextCode: nextCode)
            prefix = Int(index)
            if nextCode >= Self.maxCode {
                // The table is full: giflib sends a clear code and starts again.
                bits.put(clearCode, nextCode: nextCode)
                nextCode = endCode + 1
                bits.startCodes(width: rootBits + 1)
                newTable()
                generation = self.generation
            } else {
                slots[slot] = wanted << 12 | UInt64(nextCode)
                nextCode += 1
            }
        }
        bits.put(prefix, nextCode: nextCode)
        bits.put(endCode, nextCode: nextCode)
    }

    /// The LZW codes of `indices` as `encode` writes them, each code the
    /// string of the table that `StringTree.longestMatch` finds from the
    /// next pixel on, within `matching`'s threshold, its indices written
    /// back over the pixels it stands for. Returns whether any changed.
    private func encodeLossy(_ indices: UnsafeMutableBufferPointer<UInt8>, rootBits: Int, matching: LossyMatching, into bits: inout CodeWriter) -> Bool {
        let clearCode = 1 << rootBits
        let endCode = clearCode + 1
        bits.startCodes(width: rootBits + 1)
        var nextCode = endCode + 1
        tree.clear(roots: clearCode)
        bits.put(clearCode, nextCode: nextCode)
        var changed = false
        var position = 0
        while position < indices.count {
            let match = tree.longestMatch(in: indices, from: position, matching: matching)
            bits.put(match.code, nextCode: nextCode)
            changed = tree.writeString(of: match.code, endingBefore: match.end, startingAt: position, into: indices) || changed
            position = match.end
            guard position < indices.count else { break }
            if nextCode >= Self.maxCode {
                bits.put(clearCode, nextCode: nextCode)
                nextCode = endCode + 1
                bits.startCodes(width: rootBits + 1)
                tree.clear(roots: clearCode)
            } else {
                tree.add(nextCode, extending: match.code, with: indices[position])
                nextCode += 1
            }
        }
        bits.put(endCode, nextCode: nextCode)
        return changed
    }

    /// Empties the table by moving to the next generation (clearing the
    /// slots only when the 32-bit generation runs out).
    private func newTable() {
        generation += 1
        if generation >> 32 != 0 {
            slots.update(repeating: 0, count: 1 << Self.slotBits)
            generation = 1
        }
    }

    /// The first slot to probe for `key`.
    private static func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> UInt32(32 - slotBits))
    }
}

/// Writes LZW codes least significant bit first into sub-blocks of at
/// most 255 bytes, each after its length byte, widening the codes as
/// giflib's `EGifCompressOutput` does.
private struct CodeWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Where the next byte goes.
    private var count = 0
    /// Where the open sub-block's length byte is, if a block is open.
    private var blockStart: Int?
    private var pending: UInt64 = 0
    private var pendingBits = 0
    private var width = 0
    /// The first code that needs a wider code.
    private var widthLimit = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// A byte outside the sub-blocks (the minimum code size).
    mutating func appendByte(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Codes from here on start `width` bits wide (after a clear).
    mutating func startCodes(width: Int) {
        self.width = width
        widthLimit = 1 << width
    }

    /// Writes `code`; then, as giflib, widens the codes once `nextCode` (the
    /// code the table assigns next) no longer fits.
    mutating func put(_ code: Int, nextCode: Int) {
        pending |= UInt64(code) << UInt64(pendingBits)
        pendingBits += width
        while pendingBits >= 8 {
            putBlockByte(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingBits -= 8
        }
        if nextCode >= widthLimit {
            width += 1
            widthLimit <<= 1
        }
    }

    /// Writes the bits left over and the empty block that ends the data;
    /// returns the number of bytes written.
    mutating func finish() -> Int {
        if pendingBits > 0 {
            putBlockByte(UInt8(truncatingIfNeeded: pending))
        }
        pending = 0
        pendingBits = 0
        if let blockStart {
            buffer[blockStart] = UInt8(count - blockStart - 1)
        }
        buffer[count] = 0
        count += 1
        return count
    }

    private mutating func putBlockByte(_ byte: UInt8) {
        if blockStart.map({ count - $0 - 1 == 255 }) ?? true {
            if let blockStart {
                buffer[blockStart] = 255
            }
            blockStart = count
            count += 1
        }
        buffer[count] = byte
        count += 1
    }
}
