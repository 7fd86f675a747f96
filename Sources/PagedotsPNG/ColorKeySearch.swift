/// Looks for a colour that no pixel of an opaque animation uses, to serve as
/// its `tRNS` colour key: with one, an RGB animation can blend frames OVER
/// (pixels that stay as they are become the key, which decodes as fully
/// transparent), as a palette does with its transparent entry.
///
/// The colours seen are recorded by cell, 4 bits a channel (4096 cells, a
/// 512-byte bitmap); a colour in a cell no pixel fell in is used by none.
struct ColorKeySearch {
    private static let cellCount = 4096
    private var seen = [UInt64](repeating: 0, count: cellCount / 64)

    /// Records the colours of RGBA pixels (alpha is not looked at).
    mutating func add(_ pixels: UnsafeRawBufferPointer) {
        let pixelCount = pixels.count / 4
        guard pixelCount > 0 else { return }
        seen.withUnsafeMutableBufferPointer { seen in
            // Differs from the first pixel, so that it is recorded.
            var previous = ~pixels.pixel(at: 0)
            for index in 0 ..< pixelCount {
                let pixel = pixels.pixel(at: index)
                // Runs of one colour are the rule: they skip the bit arithmetic.
                if pixel == previous { continue }
                previous = pixel
                let cell = Self.cell(of: pixel)
                seen[cell >> 6] |= 1 << UInt64(cell & 63)
            }
        }
    }

    /// A colour (fully transparent, as the key decodes) that no pixel
    /// recorded has, or nil when every cell holds one.
    var unusedColor: PackedPixel? {
        for (word, bits) in seen.enumerated() where bits != .max {
            let cell = word * 64 + (~bits).trailingZeroBitCount
            // The cell's darkest colour: red, green, blue from the cell's three 4-bit parts.
            let red = PackedPixel(cell >> 8) << 4, green = PackedPixel(cell >> 4 & 15) << 4, blue = PackedPixel(cell & 15) << 4
            return red | green << 8 | blue << 16
        }
        return nil
    }

    @inline(__always)
    private static func cell(of pixel: PackedPixel) -> Int {
        Int(pixel.red >> 4) << 8 | Int(pixel.green >> 4) << 4 | Int(pixel.blue >> 4)
    }
}
