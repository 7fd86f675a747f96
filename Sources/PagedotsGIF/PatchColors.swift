/// What a frame's patch draws, read once for the census and the writer both:
/// the colours it draws in the order first drawn (a frame's own palette keeps
/// that order) with their pixel counts, each pixel's colour as a position in
/// that list, and the runs of pixels it does not draw. The writer then gives
/// a pixel its palette index through a table of the frame's colours, with no
/// hash probe and no comparison per pixel.
struct PatchColors {
    /// The colours drawn (24-bit RGB) and how many pixels draw each, in the
    /// order first drawn (at most a palette's worth: see `overflowed`).
    let colors: [(rgb: UInt32, pixels: Int)]
    /// Per pixel: the position in `colors` of the colour it draws; 0 for a
    /// pixel not drawn (`undrawnRuns` holds those). Empty when `overflowed`.
    let codes: [UInt8]
    /// The runs of one value, in scan order, of the pixels not drawn (kept
    /// or transparent).
    let undrawnRuns: [Range<Int>]
    let hasKeptPixels: Bool
    let hasTransparentPixels: Bool
    /// It draws more colours than a palette holds: the reading stopped there,
    /// and the rest tells nothing.
    let overflowed: Bool
}

/// Reads patches' colours (`PatchColors`), keeping its hash table and
/// scratch lists from patch to patch.
struct PatchColorReader {
    /// The colours of the patch being read.
    private var table = ColorTable()
    /// Per colour of `table`: its pixels so far.
    private var counts = [Int](repeating: 0, count: ColorTable.paletteCapacity)
    /// The runs of pixels not drawn, before they are copied out at their count.
    private var undrawnRuns: [Range<Int>] = []

    /// The colours of `patch`. A run of one pixel value needs one look; the
    /// rest of the run is only compared with it, four pixels at a time, and
    /// given its code.
    mutating func read(_ patch: FramePatch) -> PatchColors {
        table.removeAll()
        undrawnRuns.removeAll(keepingCapacity: true)
        var hasKeptPixels = false, hasTransparentPixels = false, overflowed = false
        let pixelCount = patch.pixels.count
        let codes = [UInt8](unsafeUninitializedCapacity: pixelCount) { codes, initialized in
            patch.pixels.withUnsafeBufferPointer { pixels in
                counts.withUnsafeMutableBufferPointer { counts in
                    guard let pixels = pixels.baseAddress, let codes = codes.baseAddress else { return }
                    var runStart = 0
                    while runStart < pixelCount {
                        let pixel = pixels[runStart]
                        // The run's colour's position (nil when not drawn) and code.
                        var runColor: Int?, code: UInt8 = 0
                        if pixel.mustDraw {
                            let known = table.count
                            guard let found = table.insert(pixel.rgb) else {
                                overflowed = true
                                break
                            }
                            if table.count > known {
                                counts[found] = 0
                            }
                            runColor = found
                            code = UInt8(truncatingIfNeeded: found)
                        } else if pixel.isKept {
                            hasKeptPixels = true
                        } else {
                            hasTransparentPixels = true
                        }
                        var end = runStart
                        let four = SIMD4(repeating: pixel), fourCodes = UInt32(code) &* 0x0101_0101
                        while end + 4 <= pixelCount && UnsafeRawPointer(pixels + end).loadUnaligned(as: SIMD4<PatchPixel>.self) == four {
                            UnsafeMutableRawPointer(codes + end).storeBytes(of: fourCodes, as: UInt32.self)
                            end += 4
                        }
                        while end < pixelCount && pixels[end] == pixel {
                            codes[end] = code
                            end += 1
                        }
                        if let runColor {
                            counts[runColor] += end - runStart
                        } else {
                            undrawnRuns.append(runStart..<end)
                        }
                        runStart = end
                    }
                }
            }
            initialized = overflowed ? 0 : pixelCount
        }
        return PatchColors(
            colors: overflowed ? [] : table.colors.indices.map { (table.colors[$0], counts[$0]) },
            codes: codes, undrawnRuns: overflowed ? [] : undrawnRuns.withUnsafeBufferPointer { [Range<Int>]($0) },
            hasKeptPixels: hasKeptPixels, hasTransparentPixels: hasTransparentPixels, overflowed: overflowed
        )
    }
}
