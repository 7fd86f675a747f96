import CImageCodecs

/// Reducing an image by a whole factor while it is decoded, where its
/// library cannot scale it (PNG, HEIC, AVIF, and the WebP images whose
/// scaling libwebp gets wrong or cannot do): each cell of k × k pixels
/// becomes one pixel, their average in premultiplied alpha
/// (`pd_png_decode_reduced` states the rounding).
enum BoxReduction {
    /// The largest factor: a cell holds at most 256 × 256 pixels, so that
    /// its sums fit in 32 bits.
    static let maxFactor = 256

    /// The factor k for an image of `width` × `height` that must come out at
    /// least `minimum` in size: the largest whole k ≤ `maxFactor` with
    /// ceil(`width` / k) ≥ `minimum.width` and ceil(`height` / k) ≥
    /// `minimum.height` (the smallest reduction still at least as large, as
    /// a JPEG's 1/2, 1/4 or 1/8 is chosen); 1 without a minimum.
    static func factor(width: Int, height: Int, atLeast minimum: (width: Int, height: Int)?) -> Int {
        guard let minimum else { return 1 }
        return stride(from: maxFactor, to: 1, by: -1).first { factor in
            reducedSide(width, by: factor) >= minimum.width && reducedSide(height, by: factor) >= minimum.height
        } ?? 1
    }

    /// An image of `width` × `height` pixels reduced with `factor`, whose
    /// rows `fill` writes in order, as straight RGBA, into the buffer it is
    /// given; only the reduced image and one row of sums are held.
    static func reduce(
        width: Int, height: Int, by factor: Int, kind: ImageKind, rows fill: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws(ImageDecodingError) -> DecodedImage {
        guard let reducer = pd_box_reducer_new(UInt32(width), UInt32(height), UInt32(factor), 0) else {
            throw .corrupt(kind, reason: "out of memory")
        }
        defer { pd_box_reducer_free(reducer) }
        let reducedWidth = reducedSide(width, by: factor)
        let reducedHeight = reducedSide(height, by: factor)
        var row = [UInt8](repeating: 0, count: width * 4)
        let pixels = [UInt8](unsafeUninitializedCapacity: reducedWidth * reducedHeight * 4) { reduced, count in
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<height {
                    fill(y, row)
                    pd_box_reducer_add_row(reducer, row.baseAddress, UInt32(y), reduced.baseAddress)
                }
            }
            count = reduced.count
        }
        return DecodedImage(width: reducedWidth, height: reducedHeight, pixels: pixels)
    }

    /// `image` reduced with `factor`.
    static func reduce(_ image: DecodedImage, by factor: Int, kind: ImageKind) throws(ImageDecodingError) -> DecodedImage {
        let rowBytes = image.width * 4
        return try reduce(width: image.width, height: image.height, by: factor, kind: kind) { y, row in
            image.pixels.withUnsafeBytes { pixels in
                UnsafeMutableRawBufferPointer(row).copyMemory(from: UnsafeRawBufferPointer(rebasing: pixels[(y * rowBytes)..<((y + 1) * rowBytes)]))
            }
        }
    }
}

/// A side reduced by `factor` (rounded up, as libjpeg reduces it and as the
/// box reduction keeps the partial cells at the right and bottom edges).
func reducedSide(_ side: Int, by factor: Int) -> Int {
    (side + factor - 1) / factor
}
