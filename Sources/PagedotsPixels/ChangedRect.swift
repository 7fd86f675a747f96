#if canImport(Glibc)
import Glibc
#endif

extension PixelRect {
    /// The smallest rectangle holding every pixel (four bytes) in which two
    /// canvases of `width` pixels a row differ, looked for only inside
    /// `bounds` (cut to the canvas), which must hold every difference;
    /// `.empty` when there is none (or the canvases differ in size).
    ///
    /// Rows are compared whole within the bounds first, from the top and
    /// from the bottom; columns are then scanned in from both sides, four
    /// pixels at a time, only as far as the rectangle found so far.
    public static func changed(
        from old: UnsafeRawBufferPointer, to new: UnsafeRawBufferPointer, width: Int, within bounds: PixelRect
    ) -> PixelRect {
        guard width > 0, old.count == new.count, let oldBase = old.baseAddress, let newBase = new.baseAddress else { return .empty }
        let rowBytes = width * 4
        let bounds = bounds.intersection(PixelRect(x: 0, y: 0, width: width, height: old.count / rowBytes))
        guard !bounds.isEmpty else { return .empty }
        // Each row from the bounds' left edge.
        func rowDiffers(_ y: Int) -> Bool {
            let start = y * rowBytes + bounds.x * 4
            return memcmp(oldBase + start, newBase + start, bounds.width * 4) != 0
        }
        var top = bounds.y
        while top < bounds.maxY && !rowDiffers(top) { top += 1 }
        guard top < bounds.maxY else { return .empty }
        var bottom = bounds.maxY - 1
        while !rowDiffers(bottom) { bottom -= 1 }
        // Narrow the columns from both sides: each row only has to be
        // searched where the rectangle does not already reach.
        var left = bounds.maxX, right = bounds.x - 1
        for y in top...bottom {
            let oldRow = oldBase + y * rowBytes, newRow = newBase + y * rowBytes
            func same(_ x: Int) -> Bool {
                oldRow.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) == newRow.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            }
            func sameFour(_ x: Int) -> Bool {
                oldRow.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self) == newRow.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt32>.self)
            }
            // Four pixels at a time, then one.
            var x = bounds.x
            while x + 4 <= left && sameFour(x) { x += 4 }
            while x < left && same(x) { x += 1 }
            left = x
            var last = bounds.maxX - 1
            while last - 4 >= right && sameFour(last - 3) { last -= 4 }
            while last > right && same(last) { last -= 1 }
            right = last
        }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// `changed(from:to:width:within:)` for two canvases in arrays.
    public static func changed(from old: [UInt8], to new: [UInt8], width: Int, within bounds: PixelRect) -> PixelRect {
        old.withUnsafeBytes { old in new.withUnsafeBytes { new in changed(from: old, to: new, width: width, within: bounds) } }
    }
}
