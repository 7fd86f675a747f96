import PagedotsPixels

/// Writes straight-alpha RGBA pixels as a small PNG. Keeps a zlib stream and
/// scratch buffers between calls, so it is not `Sendable`: use one per thread.
///
/// The file holds only IHDR, PLTE and tRNS (indexed images), IDAT and IEND.
/// The colour type is chosen from the pixels (a palette when 256 colours or
/// fewer, grey when every pixel is grey, alpha only when a pixel needs it) and
/// a few candidate encodings are compressed; the smallest wins. Decoding the
/// file gives back exactly the input pixels. docs/png.md has the details.
public final class PNGEncoder {
    /// An image that could use a palette is also tried without one when its
    /// direct rows take at most this many bytes: for small images PLTE and
    /// tRNS can outweigh what the indices save. (Larger limits found a
    /// smaller file once in 35 bench images, for twice the time on most.)
    static let directTrialByteLimit = 12288
    /// A larger image that took a palette is tried without one too when
    /// its PLTE and tRNS make at least this share (per cent) of the palette
    /// candidate's PLTE, tRNS and IDAT, and at least `heavyPaletteTranslucentMinimum`
    /// of its colours are translucent: the antialiased edges of stars, hearts
    /// and digits, whose colours share their red, green and blue and differ
    /// in alpha, so that RGBA rows repeat where PLTE and tRNS cannot. (On
    /// 1000 random images 44 % tried 159, 28 in vain; 47 % 117, 14 in vain,
    /// for 90 % of the bytes saved.)
    static let heavyPalettePercent = 47
    static let heavyPaletteTranslucentMinimum = 32
    private let compressor = CandidateCompressor(mode: .still, budget: CacheBudget())

    public init() {}

    /// The PNG file for `width × height` pixels given as RGBA bytes, rows top
    /// to bottom. The same pixels always give the same bytes.
    ///
    /// - Precondition: `width` and `height` are positive and `pixels` holds
    ///   exactly `width × height × 4` bytes.
    public func encode(rgba pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBA buffer does not match \(width)×\(height)")
        return pixels.withUnsafeBytes { encode($0, width: width, height: height) }
    }

    private func encode(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [UInt8] {
        let survey = PixelSurvey(rgba: pixels)
        let indexed = survey.palette()
        let plans = Self.candidates(for: survey, pixelCount: width * height)
        for (number, (layout, trials)) in plans.enumerated() {
            let rows = Scanlines(rgba: pixels, width: width, height: height, layout: layout, colors: indexed?.indices)
            let paletteBytes = layout.isIndexed ? indexed?.palette.chunkBytes ?? 0 : 0
            compressor.add(rows, trials: trials, extraBytes: paletteBytes, tag: number)
        }
        var layout = plans[compressor.compressSmallest()].0
        var idat = compressor.smallest
        if layout.isIndexed, let indexed, plans.count == 1, Self.outweighs(indexed.palette, idatBytes: idat.count) {
            let direct = PixelLayout.direct(for: survey)
            let rows = Scanlines(rgba: pixels, width: width, height: height, layout: direct, colors: nil)
            compressor.add(rows, trials: [(.none, .standard)], extraBytes: 0, tag: 0, thoroughEffort: .thorough)
            _ = compressor.compressSmallest()
            if compressor.smallest.count < idat.count + indexed.palette.chunkBytes {
                layout = direct
                idat = compressor.smallest
            }
        }
        let palette = layout.isIndexed ? indexed?.palette : nil
        // Signature, IHDR (13 bytes of data), palette chunks, IDAT, IEND.
        let framing = PNGChunkWriter.framingBytes
        var writer = PNGChunkWriter(capacity: PNGChunkWriter.signature.count + framing + 13 + (palette?.chunkBytes ?? 0) + framing + idat.count + framing)
        writer.appendHeader(width: width, height: height, layout: layout)
        palette.map { writer.appendPalette($0) }
        writer.appendChunk("IDAT") { $0.append(contentsOf: idat) }
        writer.appendChunk("IEND") { _ in }
        return writer.bytes
    }

    /// The encodings worth trying, by layout: the layout expected to be
    /// smallest with its row filterings, and for a small image that could
    /// use a palette, the direct layout unfiltered.
    static func candidates(for survey: PixelSurvey, pixelCount: Int) -> [(PixelLayout, [(RowFiltering, Deflater.Strategy)])] {
        let preferred = PixelLayout.smallest(for: survey)
        var candidates = [(preferred, trials(for: preferred))]
        let direct = PixelLayout.direct(for: survey)
        if direct != preferred && pixelCount * direct.bitsPerPixel / 8 <= directTrialByteLimit {
            candidates.append((direct, [(.none, .standard)]))
        }
        return candidates
    }

    /// Whether a palette carries so much that the image is worth trying
    /// without one (see `heavyPalettePercent`), given the IDAT it took.
    static func outweighs(_ palette: Palette, idatBytes: Int) -> Bool {
        palette.translucentCount >= heavyPaletteTranslucentMinimum
            && palette.chunkBytes * 100 >= heavyPalettePercent * (palette.chunkBytes + idatBytes)
    }

    /// The row filterings, each with the zlib strategy that suits it, tried
    /// for a layout. Filters rarely help indices or sub-byte samples, so
    /// those get filter type 0 only.
    static func trials(for layout: PixelLayout) -> [(RowFiltering, Deflater.Strategy)] {
        if layout.bitsPerPixel < 8 || layout.isIndexed {
            return [(.none, .standard)]
        }
        return [(.none, .standard), (.minimumSum, .filtered)]
    }
}
