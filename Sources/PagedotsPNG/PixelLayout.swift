/// How a PNG stores its pixels: its colour type and bit depth.
enum PixelLayout: Equatable {
    /// Palette indices of 1, 2, 4 or 8 bits.
    case indexed(bitDepth: Int)
    /// Grey levels of 1, 2, 4 or 8 bits.
    case grey(bitDepth: Int)
    /// 8-bit grey and alpha.
    case greyAlpha
    /// 8-bit red, green, blue.
    case rgb
    /// 8-bit red, green, blue, alpha.
    case rgba

    /// IHDR's colour type.
    var colorType: UInt8 {
        switch self {
        case .grey: 0
        case .rgb: 2
        case .indexed: 3
        case .greyAlpha: 4
        case .rgba: 6
        }
    }

    /// Whether the pixels are palette indices (PLTE and tRNS go with them).
    var isIndexed: Bool {
        if case .indexed = self { return true }
        return false
    }

    /// IHDR's bit depth: bits per sample.
    var bitDepth: Int {
        switch self {
        case .indexed(let depth), .grey(let depth): depth
        case .greyAlpha, .rgb, .rgba: 8
        }
    }

    var bitsPerPixel: Int {
        switch self {
        case .indexed(let depth), .grey(let depth): depth
        case .greyAlpha: 16
        case .rgb: 24
        case .rgba: 32
        }
    }

    /// The byte distance to "the pixel to the left" for the PNG filters.
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes in one row, without its filter-type byte.
    func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    /// The smallest layout without a palette that holds the survey's pixels exactly.
    static func direct(for survey: PixelSurvey) -> PixelLayout {
        switch (survey.isGrey, survey.isOpaque) {
        case (true, true): .grey(bitDepth: survey.greyBitDepth)
        case (true, false): .greyAlpha
        case (false, true): .rgb
        case (false, false): .rgba
        }
    }

    /// The layout expected to give the smallest file: a palette whenever the
    /// colours fit one, unless the image is opaque grey and its levels fit
    /// in as few bits as the palette indices would (then no PLTE is needed).
    static func smallest(for survey: PixelSurvey) -> PixelLayout {
        guard let colors = survey.colors else { return direct(for: survey) }
        let indexDepth = Palette.bitDepth(forColorCount: colors.count)
        if survey.isGrey && survey.isOpaque && survey.greyBitDepth <= indexDepth {
            return .grey(bitDepth: survey.greyBitDepth)
        }
        return .indexed(bitDepth: indexDepth)
    }
}

/// The colours of an indexed PNG, in index order: translucent colours first,
/// so that `tRNS` stops at the last of them, then the opaque ones; within
/// each group the most frequent first.
struct Palette {
    /// Index order.
    var colors: [PackedPixel]
    /// The `tRNS` length: the leading entries up to the last one with alpha
    /// below 255 (only translucent ones, unless a transparent entry was added).
    var translucentCount: Int

    init(_ table: ColorTable) {
        let sorted = table.entries.sorted { a, b in
            let aOpaque = a.pixel.alpha == 255, bOpaque = b.pixel.alpha == 255
            if aOpaque != bOpaque { return bOpaque }
            if a.count != b.count { return a.count > b.count }
            return a.pixel < b.pixel
        }
        colors = sorted.map(\.pixel)
        translucentCount = colors.prefix { $0.alpha != 255 }.count
    }

    /// This palette with transparent black added, for an animation's frames
    /// blended OVER (whose unchanged pixels it marks), when the palette has
    /// no fully transparent colour and one more entry needs no more bits an
    /// index; nil otherwise. It goes after the translucent colours, and
    /// after the most frequent colour when all are opaque (which keeps index
    /// 0, the byte the rows' filter types share, for the background): tRNS
    /// grows by one byte, or appears with two.
    func addingTransparent() -> Palette? {
        guard !colors.contains(where: { $0.alpha == 0 }), !colors.isEmpty,
              Self.bitDepth(forColorCount: colors.count + 1) == Self.bitDepth(forColorCount: colors.count) else { return nil }
        var palette = self
        let index = max(1, translucentCount)
        palette.colors.insert(0, at: index)
        palette.translucentCount = index + 1
        return palette
    }

    /// The bytes that PLTE and tRNS add to the file, chunk framing included.
    var chunkBytes: Int {
        let framing = PNGChunkWriter.framingBytes
        return framing + 3 * colors.count + (translucentCount > 0 ? framing + translucentCount : 0)
    }

    /// The fewest bits an index needs for `count` colours.
    static func bitDepth(forColorCount count: Int) -> Int {
        switch count {
        case ...2: 1
        case ...4: 2
        case ...16: 4
        default: 8
        }
    }
}
