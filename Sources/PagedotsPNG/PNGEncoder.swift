/// Writes straight-alpha RGBA pixels as a small PNG. Keeps a zlib stream and
/// scratch buffers between calls, so it is not `Sendable`: use one per thread.
///
/// The file holds only IHDR, PLTE and tRNS (indexed images), IDAT and IEND.
/// The colour type is chosen from the pixels (a palette when 256 colours or
/// fewer, grey when every pixel is grey, alpha only when a pixel needs it) and
/// a few candidate encodings are compressed; the smallest wins. Decoding the
/// file gives back exactly the input pixels. docs/png.md has the details.
public final class PNGEncoder {
    /// An image of at most this many pixels that could use a palette is also
    /// tried without one: for tiny images PLTE and tRNS outweigh the savings.
    static let directTrialPixelLimit = 2048
    /// How close, in per cent, a quick compression must come to the best
    /// quick one for its candidate to get a thorough compression too.
    static let finalistMarginPercent = 3

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
        var candidates: [Candidate] = []
        for (layout, trials) in Self.candidates(for: survey, pixelCount: width * height) {
            let rows = Scanlines(rgba: pixels, width: width, height: height, layout: layout, colors: colors)
            let paletteBytes = layout.isIndexed ? palette?.chunkBytes ?? 0 : 0
            for (filtering, strategy) in trials {
                candidates.append(Candidate(layout: layout, filteredRows: rows.filtered(filtering), strategy: strategy, paletteBytes: paletteBytes))
            }
        }

        var best: (layout: PixelLayout, size: Int)?
        for finalist in finalists(among: candidates) {
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

    /// The candidates worth a thorough compression: all of them when there is
    /// one, else those whose quick compression comes within
    /// `finalistMarginPercent` of the best quick one (a quick compression
    /// costs a fraction of a thorough one and ranks candidates much the same).
    private func finalists(among candidates: [Candidate]) -> [Candidate] {
        guard candidates.count > 1 else { return candidates }
        let quickSizes = candidates.map { compress($0, effort: .quick) }
        let cutoff = (quickSizes.min() ?? 0) * (100 + Self.finalistMarginPercent) / 100
        return zip(candidates, quickSizes).filter { $0.1 <= cutoff }.map(\.0)
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
    /// use a palette, the direct layout unfiltered (a palette's PLTE and tRNS
    /// can outweigh what the indices save).
    static func candidates(for survey: PixelSurvey, pixelCount: Int) -> [(PixelLayout, [(RowFiltering, Deflater.Strategy)])] {
        let preferred = PixelLayout.smallest(for: survey)
        var candidates = [(preferred, trials(for: preferred))]
        let direct = PixelLayout.direct(for: survey)
        if direct != preferred && pixelCount <= directTrialPixelLimit {
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
        var writer = PNGChunkWriter(capacity: 8 + 25 + (palette?.chunkBytes ?? 0) + idat.count + 24)
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
