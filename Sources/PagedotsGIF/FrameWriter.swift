/// Writes the frames that `FrameDiffer` plans into a `GIFFileWriter`: each
/// frame's palette indices, with the global palette or its own, in up to
/// three variants that differ only in which unchanged pixels become the
/// transparent index; the file keeps whichever compresses smallest.
final class FrameWriter {
    /// GIF delays are 16-bit hundredths of a second.
    static let maxDelayCentiseconds = 65535
    /// Browsers show shorter delays as 100 ms.
    static let minDelayCentiseconds = 2

    private let file: GIFFileWriter
    private let plan: PalettePlan
    /// The number of the next frame.
    private var frameNumber = 0
    /// A file of one frame needs no delay, so a graphic control extension
    /// only for transparency.
    private let isStill: Bool
    private var frameColors = ColorTable()
    /// The variants' indices: unchanged pixels kept where their colour is
    /// drawn anyway; mixed runs of them transparent; all of them transparent.
    private var simple: [UInt8] = []
    private var runs: [UInt8] = []
    private var hidden: [UInt8] = []

    init(file: GIFFileWriter, plan: PalettePlan, isStill: Bool) {
        self.file = file
        self.plan = plan
        self.isStill = isStill
    }

    /// The index buffers of a frame's variants.
    private enum Variant {
        case simple, runs, hidden
    }

    /// One way to write a frame: indices and what they need.
    private struct Candidate {
        var variant: Variant
        var usesTransparentIndex = false
        var maxIndex = 0
    }

    /// Whether a frame's colours fit a palette.
    private enum Fit {
        /// They do, with this transparent index, if the frame needs one.
        case fits(transparentIndex: Int?)
        /// Some pixel has no index.
        case doesNotFit
    }

    private func withIndices<Result>(of variant: Variant, _ body: (inout [UInt8]) -> Result) -> Result {
        switch variant {
        case .simple: body(&simple)
        case .runs: body(&runs)
        case .hidden: body(&hidden)
        }
    }

    /// Writes `patch` (frames in order; the first covers the canvas).
    func write(_ patch: FramePatch) {
        let onGlobal = plan.framesOnGlobal.indices.contains(frameNumber) && plan.framesOnGlobal[frameNumber]
        frameNumber += 1
        let delays = Self.centiseconds(patch.delayMilliseconds)
        let hasTransparent = patch.pixels.contains { !$0.mustDraw && !$0.isKept }
        let hasKept = patch.pixels.contains { $0.isKept }
        // Disposal happens after the last piece of a split delay.
        let disposal = delays.count > 1 ? .keep : patch.disposal
        let needsTransparent = hasTransparent || hasKept
        let transparentIndex: Int?
        var palette = onGlobal ? plan.global : nil
        if let global = palette, case .fits(let index) = indexWithGlobalPalette(patch, palette: global, needsTransparent: needsTransparent) {
            transparentIndex = index
        } else if case .fits(let index) = indexWithOwnPalette(patch, needsTransparent: needsTransparent) {
            palette = nil
            transparentIndex = index
        } else {
            writeQuantized(patch, delay: delays[0], disposal: disposal)
            writeHolds(patch, delays: delays, onGlobal: false)
            return
        }
        var candidates = [Candidate(variant: .simple)]
        if let transparentIndex, hasKept {
            makeVariants(of: patch, transparentIndex: UInt8(transparentIndex))
            if runs != simple {
                candidates.append(Candidate(variant: .runs))
            }
            if hidden != simple && hidden != runs {
                candidates.append(Candidate(variant: .hidden))
            }
        }
        for number in candidates.indices {
            withIndices(of: candidates[number].variant) { indices in
                candidates[number].maxIndex = Int(indices.max() ?? 0)
                candidates[number].usesTransparentIndex = transparentIndex.map { indices.contains(UInt8($0)) } ?? false
            }
        }
        print("DEBUG frame", patch.rect, "t", transparentIndex as Any, "hasKept", hasKept, "candidates", candidates.map { "\($0.variant) max \($0.maxIndex) t? \($0.usesTransparentIndex)" })
        file.appendSmallest(of: candidates.count) { number in
            let candidate = candidates[number]
            let transparent = candidate.usesTransparentIndex ? transparentIndex : nil
            if !isStill || transparent != nil {
                file.appendGraphicControl(delayCentiseconds: delays[0], disposal: disposal, transparentIndex: transparent)
            }
            let colors = palette == nil ? frameColors.colors + (candidate.usesTransparentIndex ? [0] : []) : nil
            withIndices(of: candidate.variant) { indices in
                file.appendImage(rect: patch.rect, localColors: colors, localSize: Self.tableSize(colors?.count ?? 0),
                                 codeBits: Self.bitWidth(candidate.maxIndex), indices: &indices)
            }
        }
        writeHolds(patch, delays: delays, onGlobal: palette != nil)
    }

    /// Fills `simple` with global palette indices, the transparent index
    /// being the lowest index of the table that the frame does not draw.
    /// Does not fit when the frame draws a colour the palette lacks, or has a
    /// pixel that needs the transparent index and none is left. (The plan
    /// puts a frame on the global palette only when it has all the colours
    /// the frame draws; a kept colour may come from a frame with its own.)
    private func indexWithGlobalPalette(_ patch: FramePatch, palette: GlobalPalette, needsTransparent: Bool) -> Fit {
        var drawn = [Bool](repeating: false, count: ColorTable.paletteCapacity)
        simple = [UInt8](repeating: 0, count: patch.pixels.count)
        var previous: PatchPixel?, previousIndex = 0
        for (position, pixel) in patch.pixels.enumerated() where pixel.mustDraw {
            if pixel != previous {
                guard let index = palette.colors.position(of: pixel.rgb) else { return .doesNotFit }
                previous = pixel
                previousIndex = index
                drawn[index] = true
            }
            simple[position] = UInt8(previousIndex)
        }
        // An entry of the table's padding (up to its power-of-two size) serves as well.
        let free = drawn.firstIndex(of: false).flatMap { $0 < Self.tableSize(palette.entryCount) ? $0 : nil }
        let transparentIndex = needsTransparent ? free : nil
        for (position, pixel) in patch.pixels.enumerated() where !pixel.mustDraw {
            let own = pixel.isKept ? palette.colors.position(of: pixel.rgb) : nil
            if let own, drawn[own] {
                simple[position] = UInt8(own)
            } else if let transparentIndex {
                simple[position] = UInt8(transparentIndex)
            } else if let own {
                simple[position] = UInt8(own)
            } else {
                return .doesNotFit
            }
        }
        return .fits(transparentIndex: transparentIndex)
    }

    /// Fills `simple` with indices into the frame's own palette
    /// (`frameColors`, then the transparent index), when its colours fit one.
    private func indexWithOwnPalette(_ patch: FramePatch, needsTransparent: Bool) -> Fit {
        frameColors.removeAll()
        var previous: PatchPixel?
        for pixel in patch.pixels where pixel.mustDraw && pixel != previous {
            previous = pixel
            frameColors.insert(pixel.rgb)
        }
        guard !frameColors.overflowed, frameColors.count + (needsTransparent ? 1 : 0) <= ColorTable.paletteCapacity else { return .doesNotFit }
        let transparentIndex = frameColors.count
        simple = patch.pixels.map { pixel in
            // (A kept colour the frame does not draw becomes transparent.)
            UInt8(truncatingIfNeeded: pixel.showsColor ? frameColors.position(of: pixel.rgb) ?? transparentIndex : transparentIndex)
        }
        return .fits(transparentIndex: needsTransparent ? transparentIndex : nil)
    }

    /// `runs` and `hidden` from `simple`.
    private func makeVariants(of patch: FramePatch, transparentIndex: UInt8) {
        hidden = simple
        runs = simple
        var runStart = -1, mixed = false
        for (position, pixel) in patch.pixels.enumerated() {
            if pixel.mustDraw {
                if mixed {
                    runs.replaceSubrange(runStart..<position, with: repeatElement(transparentIndex, count: position - runStart))
                }
                runStart = -1
                mixed = false
                continue
            }
            hidden[position] = transparentIndex
            if runStart < 0 {
                runStart = position
            } else if simple[position] != simple[runStart] {
                mixed = true
            }
        }
        if mixed {
            runs.replaceSubrange(runStart..., with: repeatElement(transparentIndex, count: runs.count - runStart))
        }
    }

    /// A frame with too many colours for one palette, quantised.
    private func writeQuantized(_ patch: FramePatch, delay: Int, disposal: FramePatch.Disposal) {
        var result = ColorQuantizer.quantize(patch.pixels, width: patch.rect.width, height: patch.rect.height)
        if !isStill || result.transparentIndex != nil {
            file.appendGraphicControl(delayCentiseconds: delay, disposal: disposal, transparentIndex: result.transparentIndex)
        }
        file.appendImage(rect: patch.rect, localColors: result.colors, localSize: Self.tableSize(result.colors.count),
                         codeBits: 0, indices: &result.indices)
    }

    /// When a delay is too long for one frame: frames that show nothing new
    /// for the rest of it, the last with the patch's disposal.
    private func writeHolds(_ patch: FramePatch, delays: [Int], onGlobal: Bool) {
        for (number, delay) in delays.enumerated().dropFirst() {
            file.appendGraphicControl(delayCentiseconds: delay, disposal: number == delays.count - 1 ? patch.disposal : .keep, transparentIndex: 0)
            var indices = [UInt8](repeating: 0, count: patch.rect.area)
            file.appendImage(rect: patch.rect, localColors: onGlobal ? nil : [0, 0], localSize: 2, codeBits: 2, indices: &indices)
        }
    }

    /// A delay in hundredths of a second (rounded, at least the minimum),
    /// cut into pieces that fit the 16-bit field.
    static func centiseconds(_ milliseconds: Int) -> [Int] {
        var remaining = max(minDelayCentiseconds, (min(milliseconds, Int.max - 5) + 5) / 10)
        var pieces: [Int] = []
        while remaining > maxDelayCentiseconds {
            // Never leave a piece shorter than the minimum.
            let piece = remaining - maxDelayCentiseconds >= minDelayCentiseconds ? maxDelayCentiseconds : maxDelayCentiseconds - minDelayCentiseconds
            pieces.append(piece)
            remaining -= piece
        }
        return pieces + [remaining]
    }

    /// The LZW code size for indices up to `maxIndex`: its bit width, at least 2.
    static func bitWidth(_ maxIndex: Int) -> Int {
        max(2, Int.bitWidth - maxIndex.leadingZeroBitCount)
    }

    /// Entries of a palette table for `count` colours: a power of two, at least 2.
    static func tableSize(_ count: Int) -> Int {
        1 << max(1, Int.bitWidth - (max(count, 1) - 1).leadingZeroBitCount)
    }
}
