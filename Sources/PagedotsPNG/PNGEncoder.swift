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
    /// How close, in per cent, a quick compression must come to the best
    /// quick one for its candidate to get a thorough compression too.
    static let finalistMarginPercent = 3
    /// Rows that compress unfiltered to this fraction (1/n) of their size or
    /// less are flat-colour art, where per-row filters do not pay (never once
    /// on the bench set) and cost more than the compression: they are not tried.
    static let flatImageRatio = 6

    private let deflater = Deflater()
    private var candidate: [UInt8] = []
    private var smallest: [UInt8] = []

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
        var colors = survey.colors
        let palette = colors.map(Palette.init)
        if let palette {
            colors?.assignIndices(palette.colors)
        }
        let plans = Self.candidates(for: survey, pixelCount: width * height)
        let needsRanking = plans.map(\.1.count).reduce(0, +) > 1
        var ranked: [(candidate: Candidate, quickSize: Int)] = []
        for (layout, trials) in plans {
            let rows = Scanlines(rgba: pixels, width: width, height: height, layout: layout, colors: colors)
            let paletteBytes = layout.isIndexed ? palette?.chunkBytes ?? 0 : 0
            var unfilteredQuickSize: Int?
            for (filtering, strategy) in trials {
                if filtering == .minimumSum, let unfiltered = unfilteredQuickSize,
                   unfiltered * Self.flatImageRatio <= rows.bytes.count {
                    continue  // flat-colour art: filters do not pay
                }
                let encoding = Candidate(layout: layout, filteredRows: rows.filtered(filtering), strategy: strategy, paletteBytes: paletteBytes)
                let quickSize = needsRanking ? compress(encoding, effort: .quick) : 0
                if filtering == .none {
                    unfilteredQuickSize = quickSize
                }
                ranked.append((encoding, quickSize))
            }
        }

        // Only candidates whose quick compression comes close to the best
        // quick one get a thorough compression; a quick one costs a fraction
        // of a thorough one and ranks candidates much the same.
        let cutoff = (ranked.map(\.quickSize).min() ?? 0) * (100 + Self.finalistMarginPercent) / 100
        var best: (layout: PixelLayout, size: Int)?
        for (finalist, quickSize) in ranked where quickSize <= cutoff {
            let size = compress(finalist, effort: .thorough)
            if size < best?.size ?? .max {
                best = (finalist.layout, size)
                swap(&smallest, &candidate)
            }
        }
        guard let best else { preconditionFailure("no candidate encoding") }
        return file(width: width, height: height, layout: best.layout, palette: palette, idat: smallest)
    }

    /// One way to write the image: a layout, its rows filtered one way, and
    /// the zlib strategy that suits that filtering.
    struct Candidate {
        var layout: PixelLayout
        /// Each row with its filter-type byte: what IDAT compresses.
        var filteredRows: [UInt8]
        var strategy: Deflater.Strategy
        /// What PLTE and tRNS add to the file for this layout.
        var paletteBytes: Int
    }

    /// Compresses a candidate into `candidate`; returns the file bytes that
    /// its IDAT, PLTE and tRNS data would take.
    private func compress(_ encoding: Candidate, effort: Deflater.Effort) -> Int {
        candidate.removeAll(keepingCapacity: true)
        encoding.filteredRows.withUnsafeBufferPointer { deflater.compress($0, strategy: encoding.strategy, effort: effort, appendingTo: &candidate) }
        return candidate.count + encoding.paletteBytes
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

    /// The row filterings, each with the zlib strategy that suits it, tried
    /// for a layout. Filters rarely help indices or sub-byte samples, so
    /// those get filter type 0 only.
    static func trials(for layout: PixelLayout) -> [(RowFiltering, Deflater.Strategy)] {
        if layout.bitsPerPixel < 8 || layout.isIndexed {
            return [(.none, .standard)]
        }
        return [(.none, .standard), (.minimumSum, .filtered)]
    }

    private func file(width: Int, height: Int, layout: PixelLayout, palette: Palette?, idat: [UInt8]) -> [UInt8] {
        // Signature, IHDR (13 bytes of data), palette chunks, IDAT, IEND.
        let framing = PNGChunkWriter.framingBytes
        let capacity = PNGChunkWriter.signature.count + framing + 13 + (palette?.chunkBytes ?? 0) + framing + idat.count + framing
        var writer = PNGChunkWriter(capacity: capacity)
        writer.appendHeader(width: width, height: height, layout: layout)
        if layout.isIndexed, let palette {
            writer.appendChunk("PLTE") { data in
                for color in palette.colors {
                    data.append(contentsOf: [color.red, color.green, color.blue])
                }
            }
            if palette.translucentCount > 0 {
                writer.appendChunk("tRNS") { data in
                    data.append(contentsOf: palette.colors.prefix(palette.translucentCount).map(\.alpha))
                }
            }
        }
        writer.appendChunk("IDAT") { $0.append(contentsOf: idat) }
        writer.appendChunk("IEND") { _ in }
        return writer.bytes
    }
}
