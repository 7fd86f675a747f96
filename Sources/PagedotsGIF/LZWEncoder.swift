/// A GIF image's LZW data: the minimum code size byte, the codes in
/// sub-blocks of at most 255 bytes, and the empty block that ends them.
///
/// It makes the codes giflib's encoder (`EGifCompressLine`, 5.2) makes, code
/// for code: a clear code first; the longest string in the table, then that
/// string plus the next index as a new code; the code width grows by one bit
/// when, after a code is written, the next new code would not fit it; when
/// the next new code would be 4095, a clear code instead, and the table and
/// width start over; the last string and the end code at the end. Only the
/// table is faster: open addressing, inlined, and no larger than the image
/// needs (giflib clears a 32 KiB table per image and calls a function per
/// pixel, the larger part of its time on small frames), so that it stays in
/// the processor's first-level cache.
///
/// Keeps its table between images, so it is not `Sendable`: one per `GIFFileWriter`.
final class LZWEncoder {
    /// The codes are 12 bits at most; giflib clears when the next code would be this.
    private static let codeLimit = 4095
    /// Table slots at most: a power of two, twice the most codes, so that
    /// probes stay short.
    private static let slotLimit = 1 << 13
    /// Per slot: the string (prefix code << 8 | index, 20 bits), then its
    /// code (12 bits); all ones when empty (no string has prefix 4095).
    private var slots = [UInt32](repeating: emptySlot, count: slotLimit)
    private static let emptySlot = UInt32.max
    /// The data bytes before they are cut into sub-blocks, reused (only its
    /// first bytes are the current image's).
    private var data: [UInt8] = []

    /// Appends the LZW data of `indices` (each below `1 << minimumCodeSize`)
    /// to `output`; `minimumCodeSize` is 2…8.
    func append(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, to output: inout [UInt8]) {
        output.append(UInt8(minimumCodeSize))
        // At most one code per index, and the clear codes (one per 4000
        // codes), of at most 12 bits; the first clear, the last and end codes.
        let bound = 2 * indices.count + 16
        if data.count < bound {
            data = [UInt8](repeating: 0, count: bound)
        }
        // Twice the codes this image can make, at most the limit.
        let slotBits = min(Self.slotLimit.trailingZeroBitCount, max(6, Int.bitWidth - (2 * indices.count).leadingZeroBitCount))
        let count = data.withUnsafeMutableBufferPointer { data in
            slots.withUnsafeMutableBufferPointer { slots in
                Self.compress(indices, minimumCodeSize: minimumCodeSize, slots: UnsafeMutableBufferPointer(rebasing: slots[..<(1 << slotBits)]), into: data)
            }
        }
        // Sub-blocks of 255 bytes, the last one shorter, then an empty one.
        var start = 0
        while start < count {
            let length = min(255, count - start)
            output.append(UInt8(length))
            output.append(contentsOf: data[start..<start + length])
            start += length
        }
        output.append(0)
    }

    /// Compresses `indices` into `data` with `slots` (a power of two of
    /// them, more than twice the codes) as the table; returns the bytes written.
    private static func compress(
        _ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int,
        slots: UnsafeMutableBufferPointer<UInt32>, into data: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let clearCode = 1 << minimumCodeSize, endCode = clearCode + 1
        let slotMask = slots.count - 1, hashShift = UInt64(64 - slots.count.trailingZeroBitCount)
        slots.update(repeating: emptySlot)
        var bits = minimumCodeSize + 1, nextCode = endCode + 1
        var bitBuffer: UInt64 = 0, bitCount = 0, written = 0
        /// Writes `code` at the current width, then widens it when the
        /// next new code needs more bits (as giflib does, after writing).
        func emit(_ code: Int) {
            bitBuffer |= UInt64(code) << bitCount
            bitCount += bits
            while bitCount >= 8 {
                data[written] = UInt8(truncatingIfNeeded: bitBuffer)
                written += 1
                bitBuffer >>= 8
                bitCount -= 8
            }
            if nextCode >= 1 << bits {
                bits += 1
            }
        }
        emit(clearCode)
        if var prefix = indices.first.map(Int.init) {
            for index in indices.dropFirst() {
                let key = UInt32(truncatingIfNeeded: prefix) << 8 | UInt32(index)
                var slot = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> hashShift)
                var found = false
                while slots[slot] != emptySlot {
                    if slots[slot] >> 12 == key {
                        prefix = Int(slots[slot] & 0xFFF)
                        found = true
                        break
                    }
                    slot = (slot + 1) & slotMask
                }
                if found { continue }
                emit(prefix)
                prefix = Int(index)
                if nextCode >= codeLimit {
                    emit(clearCode)
                    bits = minimumCodeSize + 1
                    nextCode = endCode + 1
                    slots.update(repeating: emptySlot)
                } else {
                    slots[slot] = key << 12 | UInt32(nextCode)
                    nextCode += 1
                }
            }
            emit(prefix)
        }
        emit(endCode)
        if bitCount > 0 {
            data[written] = UInt8(truncatingIfNeeded: bitBuffer)
            written += 1
        }
        return written
    }
}
