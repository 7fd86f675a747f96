import PagedotsPixels

/// Writes the frames that `FrameDiffer` plans into a `GIFFileWriter`: each
/// frame's palette indices, with the global palette or its own, in up to
/// three variants that differ only in which unchanged pixels become the
/// transparent index; the file keeps whichever compresses smallest. With a
/// `QuantizerSettings.lossy` level, every variant is compressed lossily
/// (`LossyMatching`), and what the writer notes of the screen is what the
/// kept variant's data decodes to.
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
    /// The colours of a frame with its own palette.
    private var frameColors = ColorTable()
    /// Reads the colours of frames that come without them (a second pass).
    private lazy var reader = PatchColorReader()
    /// The frame's indices in each variant (`Variant`), reused from frame to frame.
    private var simple: [UInt8] = []
    private var runs: [UInt8] = []
    private var hidden: [UInt8] = []
    /// Per palette index: whether the frame draws it.
    private var drawn = [Bool](repeating: false, count: ColorTable.paletteCapacity + 1)
    /// Per colour of the frame (`PatchColors.colors`): its palette index.
    private var colorIndices = [UInt8](repeating: 0, count: ColorTable.paletteCapacity)
    /// Which frames repeat an earlier one's pixels.
    private let repeats: PatchRepeats
    /// The image (descriptor, palette and LZW data) that won for each frame
    /// that a later one repeats, by frame number, so that the repeat (each
    /// move between two neighbouring pages draws the same pixels, only
    /// elsewhere) costs a copy: the same pixels on the same palette give the
    /// same indices, candidates and winner, and only the position differs.
    /// An image that lossy compression changed is not remembered: where
    /// its pixels may change depends on where it lies (`exactPixels`).
    private var images: [Int: RememberedImage] = [:]

    /// A frame's winning image, to write again elsewhere.
    private struct RememberedImage {
        /// Its graphic control's transparent index.
        var transparentIndex: Int?
        /// Whether its frame was planned on the global palette.
        var plannedOnGlobal: Bool
        /// Whether it uses the global palette (a frame planned on it may not fit it).
        var onGlobal: Bool
        /// The image's bytes, from its descriptor on.
        var bytes: [UInt8]
    }

    /// How frames of more than 256 colours are quantised, and whether
    /// images are compressed lossily.
    private let quantizing: QuantizerSettings
    /// The global palette's colours, padded to its table's size (empty without one).
    private let globalColors: [UInt32]
    /// With lossy compression: per pixel of the frame being written, whether
    /// it must keep its index (it is not drawn anew, or lies in a protected
    /// rectangle). Reused from frame to frame.
    private var exactPixels: [Bool] = []
    /// The canvas: the first frame's rectangle, which covers it.
    private var canvas = PixelRect.empty
    /// What the screen shows where quantised or lossy frames drew, from the
    /// first one on, while every frame keeps its rectangle (`ShownColors`).
    private var shown: ShownColors?
    /// False once a frame is cleared after it shows: kept pixels then stay transparent.
    private var tracksShown = true

    init(file: GIFFileWriter, plan: PalettePlan, isStill: Bool, repeats: PatchRepeats, quantizing: QuantizerSettings) {
        self.quantizing = quantizing
        self.file = file
        self.repeats = repeats
        self.plan = plan
        self.isStill = isStill
        globalColors = plan.global.map { $0.colors.colors + repeatElement(0, count: Self.tableSize($0.entryCount) - $0.colors.count) } ?? []
    }

    /// The ways to write a frame, by which unchanged (kept) pixels become
    /// the transparent index: those whose colour the frame does not draw
    /// (simple); also every run of them that holds two or more different
    /// indices, so that it compresses as one run (runs); all of them (hidden).
    private enum Variant {
        case simple, runs, hidden
    }

    /// How a frame's pixels map to a palette.
    private enum Fit {
        /// Every pixel has an index: the simple variant holds them.
        case fits(Indexing)
        /// Some pixel has none.
        case doesNotFit
    }

    /// What indexing a frame found.
    private struct Indexing {
        /// The index for transparent pixels (and hidden kept ones), if the
        /// frame has any pixel that is not drawn and an index is free.
        var transparentIndex: Int?
        /// Whether some pixel is kept (already on screen), so that variants differ.
        var hasKeptPixels: Bool
        /// Whether some pixel that is not drawn has no index of its own in
        /// the simple variant (it takes the transparent index).
        var hasHiddenPixels: Bool
        /// The largest index of a pixel the frame draws (0 when none): every
        /// variant holds it.
        var largestDrawnIndex: Int
        /// The largest index of the simple variant.
        var largestIndex: Int
    }

    /// One way to write a frame: a variant and what its indices need.
    private struct Candidate {
        var variant: Variant
        /// The largest index it holds.
        var maxIndex: Int
        /// Whether it holds the transparent index.
        var usesTransparentIndex: Bool
    }

    /// Writes `patch` (frames in order; the first covers the canvas), with
    /// its colours as the first pass read them, or nil to read them again.
    func write(_ patch: FramePatch, colors: PatchColors? = nil) {
        let number = frameNumber
        if number == 0 {
            canvas = patch.rect
        }
        if patch.disposal != .keep {
            tracksShown = false
            shown = nil
        }
        if quantizing.loss > 0 && tracksShown && shown == nil {
            // Lossy frames leave colours other than the exact ones on screen.
            shown = ShownColors(width: canvas.width, height: canvas.height)
        }
        let onGlobal = plan.framesOnGlobal.indices.contains(number) && plan.framesOnGlobal[number]
        frameNumber += 1
        // A still shows for good: its delay means nothing.
        let delays = isStill ? [0] : Self.centiseconds(patch.delayMilliseconds)
        // Disposal happens after the last piece of a split delay.
        let disposal = delays.count > 1 ? .keep : patch.disposal
        if let original = repeats.original(of: number), let image = images[original], image.plannedOnGlobal == onGlobal {
            appendGraphicControl(delay: delays[0], disposal: disposal, transparentIndex: image.transparentIndex)
            file.appendImage(copying: image.bytes, at: patch.rect)
            shown?.recordCopy(of: patch)
            writeHolds(patch, delays: delays, onGlobal: image.onGlobal)
            return
        }
        if quantizing.loss > 0 {
            markExactPixels(of: patch)
        }
        let colors = colors ?? reader.read(patch)
        var palette = onGlobal ? plan.global : nil
        var fit = Fit.doesNotFit
        if let palette, !colors.overflowed {
            // An entry of the table's padding (up to its power-of-two size) serves as transparent as well.
            fit = index(patch, colors: colors, palette: palette.colors, indexLimit: Self.tableSize(palette.entryCount))
        }
        if case .doesNotFit = fit {
            palette = nil
            if !colors.overflowed {
                // Its own palette, in the order the colours are first drawn.
                frameColors.removeAll()
                for color in colors.colors {
                    frameColors.insert(color.rgb)
                }
                fit = index(patch, colors: colors, palette: frameColors, indexLimit: ColorTable.paletteCapacity)
            }
        }
        guard case .fits(let indexing) = fit else {
            writeQuantized(patch, delay: delays[0], disposal: disposal)
            writeHolds(patch, delays: delays, onGlobal: false)
            return
        }
        let candidates = candidates(for: patch, undrawnRuns: colors.undrawnRuns, indexing: indexing)
        var imageSizes = [Int](repeating: 0, count: candidates.count)
        var changedByLoss = [Bool](repeating: false, count: candidates.count)
        /// A candidate's palette of its own (nil on the global one), and the colours its indices stand for.
        func paletteColors(of candidate: Candidate) -> (local: [UInt32]?, byIndex: [UInt32]) {
            guard palette == nil else { return (nil, globalColors) }
            let local = frameColors.colors + (candidate.usesTransparentIndex ? [0] : [])
            return (local, local)
        }
        let winner = file.appendSmallest(of: candidates.count) { number in
            let candidate = candidates[number]
            let transparent = candidate.usesTransparentIndex ? indexing.transparentIndex : nil
            appendGraphicControl(delay: delays[0], disposal: disposal, transparentIndex: transparent)
            let colors = paletteColors(of: candidate)
            let lossy = lossyMatching(colors: colors.byIndex, transparentIndex: transparent)
            let start = file.byteCount
            withIndices(of: candidate.variant) { indices in
                changedByLoss[number] = file.appendImage(
                    rect: patch.rect, localColors: colors.local, localSize: Self.tableSize(colors.local?.count ?? 0),
                    codeBits: Self.bitWidth(candidate.maxIndex), indices: &indices, lossy: lossy
                )
            }
            imageSizes[number] = file.byteCount - start
        }
        let transparent = candidates[winner].usesTransparentIndex ? indexing.transparentIndex : nil
        if shown != nil {
            // Exact indices show exact colours; lossy ones, their palette's.
            let colors = quantizing.loss > 0 ? paletteColors(of: candidates[winner]).byIndex : nil
            shown?.record(indices(of: candidates[winner].variant), in: patch.rect, transparentIndex: transparent, palette: colors)
        }
        if repeats.isRepeated(number) && !changedByLoss[winner] {
            images[number] = RememberedImage(
                transparentIndex: transparent, plannedOnGlobal: onGlobal, onGlobal: palette != nil, bytes: file.lastBytes(imageSizes[winner])
            )
        }
        writeHolds(patch, delays: delays, onGlobal: palette != nil)
    }

    /// The frame's graphic control extension, unless a still without transparency needs none.
    private func appendGraphicControl(delay: Int, disposal: FramePatch.Disposal, transparentIndex: Int?) {
        if !isStill || transparentIndex != nil {
            file.appendGraphicControl(delayCentiseconds: delay, disposal: disposal, transparentIndex: transparentIndex)
        }
    }

    /// Fills the simple variant with the frame's indices in `palette` (a
    /// colour's position is its index), each pixel's through a table of the
    /// frame's colours (`colors`). Transparent pixels, and kept pixels whose
    /// colour the frame does not draw, get the transparent index: the lowest
    /// index below `indexLimit` that the frame does not draw. Kept pixels
    /// whose colour it draws keep that index. Does not fit when a drawn
    /// colour is missing from `palette`, or a pixel needs the transparent
    /// index and none is free (a kept colour from a frame with its own
    /// palette may be missing from the global one).
    private func index(_ patch: FramePatch, colors: PatchColors, palette: ColorTable, indexLimit: Int) -> Fit {
        var hasHiddenPixels = false, hasKeptPixels = false, largestHiddenIndex = 0, transparentIndex: Int?
        let fits = Self.resized(&simple, to: patch.pixels.count) { indices in
            drawn.withUnsafeMutableBufferPointer { drawn in
                colorIndices.withUnsafeMutableBufferPointer { colorIndices in
                    drawn.update(repeating: false)
                    for (color, drawnColor) in colors.colors.enumerated() {
                        guard let index = palette.position(of: drawnColor.rgb) else { return false }
                        colorIndices[color] = UInt8(truncatingIfNeeded: index)
                        drawn[index] = true
                    }
                    colors.codes.withUnsafeBufferPointer { codes in
                        for position in indices.indices {
                            indices[position] = colorIndices[Int(codes[position])]
                        }
                    }
                    let free = drawn.firstIndex(of: false) ?? ColorTable.paletteCapacity
                    transparentIndex = free < indexLimit ? free : nil
                    // Each run of pixels not drawn gets its index at once.
                    return patch.pixels.withUnsafeBufferPointer { pixels in
                        for run in colors.undrawnRuns {
                            let pixel = pixels[run.lowerBound]
                            var own: Int?
                            if pixel.isKept {
                                hasKeptPixels = true
                                own = palette.position(of: pixel.rgb)
                            }
                            if let own, drawn[own] {
                                indices[run].update(repeating: UInt8(truncatingIfNeeded: own))
                                continue
                            }
                            hasHiddenPixels = true
                            guard let index = transparentIndex ?? own else { return false }
                            indices[run].update(repeating: UInt8(truncatingIfNeeded: index))
                            largestHiddenIndex = max(largestHiddenIndex, index)
                        }
                        return true
                    }
                }
            }
        }
        guard fits else { return .doesNotFit }
        let largestDrawnIndex = drawn.lastIndex(of: true) ?? 0
        return .fits(Indexing(
            transparentIndex: hasHiddenPixels || hasKeptPixels ? transparentIndex : nil, hasKeptPixels: hasKeptPixels,
            hasHiddenPixels: hasHiddenPixels, largestDrawnIndex: largestDrawnIndex, largestIndex: max(largestDrawnIndex, largestHiddenIndex)
        ))
    }

    /// The variants worth compressing, duplicates left out: the simple one,
    /// and when kept pixels can be transparent, the runs and hidden ones,
    /// which it fills in. Only pixels not drawn differ between variants, so
    /// the runs of them tell which variants differ, and what each variant's
    /// indices need follows from `indexing`.
    private func candidates(for patch: FramePatch, undrawnRuns: [Range<Int>], indexing: Indexing) -> [Candidate] {
        let simpleCandidate = Candidate(
            variant: .simple, maxIndex: indexing.largestIndex, usesTransparentIndex: indexing.transparentIndex != nil && indexing.hasHiddenPixels
        )
        guard let transparentIndex = indexing.transparentIndex, indexing.hasKeptPixels else { return [simpleCandidate] }
        let transparent = UInt8(transparentIndex)
        // The runs variant differs from the simple one where a run of pixels
        // not drawn (of one value or more, side by side) holds two different
        // indices (a mixed run); the hidden one from both where a run that is
        // not mixed keeps an index other than the transparent one.
        var hasMixedRuns = false, hasShownRuns = false
        let count = patch.pixels.count
        Self.resized(&runs, to: count) { runs in
            simple.withUnsafeBufferPointer { simple in
                undrawnRuns.withUnsafeBufferPointer { valueRuns in
                    _ = runs.update(fromContentsOf: simple)
                    var next = 0
                    while next < valueRuns.count {
                        let start = valueRuns[next].lowerBound, index = simple[start]
                        var end = valueRuns[next].upperBound, mixed = false
                        next += 1
                        while next < valueRuns.count && valueRuns[next].lowerBound == end {
                            mixed = mixed || simple[end] != index
                            end = valueRuns[next].upperBound
                            next += 1
                        }
                        if mixed {
                            runs[start..<end].update(repeating: transparent)
                            hasMixedRuns = true
                        } else if index != transparent {
                            hasShownRuns = true
                        }
                    }
                }
            }
        }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(3)
        candidates.append(simpleCandidate)
        // Both other variants use the transparent index.
        let largestIndex = max(indexing.largestDrawnIndex, transparentIndex)
        if hasMixedRuns {
            candidates.append(Candidate(variant: .runs, maxIndex: largestIndex, usesTransparentIndex: true))
        }
        if hasShownRuns {
            Self.resized(&hidden, to: count) { hidden in
                simple.withUnsafeBufferPointer { simple in
                    undrawnRuns.withUnsafeBufferPointer { valueRuns in
                        _ = hidden.update(fromContentsOf: simple)
                        for run in valueRuns {
                            hidden[run].update(repeating: transparent)
                        }
                    }
                }
            }
            candidates.append(Candidate(variant: .hidden, maxIndex: largestIndex, usesTransparentIndex: true))
        }
        return candidates
    }

    private func indices(of variant: Variant) -> [UInt8] {
        switch variant {
        case .simple: simple
        case .runs: runs
        case .hidden: hidden
        }
    }

    /// Runs `body` on the buffer of `variant`'s indices, in place.
    private func withIndices<Result>(of variant: Variant, _ body: (inout [UInt8]) -> Result) -> Result {
        switch variant {
        case .simple: body(&simple)
        case .runs: body(&runs)
        case .hidden: body(&hidden)
        }
    }

    /// Marks in `exactPixels` the pixels of `patch` that lossy compression
    /// must leave as they are: those it does not draw anew (kept pixels
    /// written in the colour they show must stay that colour, or the
    /// screen would change where the frame keeps it), and those in the
    /// protected rectangles.
    private func markExactPixels(of patch: FramePatch) {
        exactPixels.removeAll(keepingCapacity: true)
        exactPixels.append(contentsOf: patch.pixels.lazy.map { !$0.mustDraw })
        let rect = patch.rect
        for protected in quantizing.protectedRects {
            let inside = protected.intersection(rect)
            guard !inside.isEmpty else { continue }
            for row in inside.y..<inside.maxY {
                let start = (row - rect.y) * rect.width + inside.x - rect.x
                exactPixels.replaceSubrange(start..<start + inside.width, with: repeatElement(true, count: inside.width))
            }
        }
    }

    /// How the frame's image with `colors` (per index) and `transparentIndex`
    /// is compressed lossily, or nil when the settings ask for no loss.
    private func lossyMatching(colors: [UInt32], transparentIndex: Int?) -> LossyMatching? {
        guard quantizing.loss > 0 else { return nil }
        return LossyMatching(loss: quantizing.loss, colors: colors, transparentIndex: transparentIndex, exactPixels: exactPixels)
    }

    /// Runs `body` on `buffer` made `count` long (its old contents are not
    /// kept), reusing its storage.
    @discardableResult
    private static func resized<Result>(_ buffer: inout [UInt8], to count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        if buffer.count != count {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: repeatElement(0, count: count))
        }
        return buffer.withUnsafeMutableBufferPointer { body($0) }
    }

    /// A frame with too many colours for one palette, quantised.
    private func writeQuantized(_ patch: FramePatch, delay: Int, disposal: FramePatch.Disposal) {
        let result = ColorQuantizer.quantize(patch.pixels, width: patch.rect.width, height: patch.rect.height, settings: quantizing)
        if tracksShown && shown == nil {
            shown = ShownColors(width: canvas.width, height: canvas.height)
        }
        // Kept pixels are transparent; filled, they show what is already there.
        var variants = [result.indices]
        if let transparentIndex = result.transparentIndex,
           let filled = shown?.filling(result.indices, of: patch, palette: result.colors, transparentIndex: transparentIndex) {
            variants.append(filled)
        }
        let lossy = lossyMatching(colors: result.colors, transparentIndex: result.transparentIndex)
        let winner = file.appendSmallest(of: variants.count) { number in
            if !isStill || result.transparentIndex != nil {
                file.appendGraphicControl(delayCentiseconds: delay, disposal: disposal, transparentIndex: result.transparentIndex)
            }
            file.appendImage(rect: patch.rect, localColors: result.colors, localSize: Self.tableSize(result.colors.count),
                             codeBits: 0, indices: &variants[number], lossy: lossy)
        }
        shown?.record(variants[winner], in: patch.rect, transparentIndex: result.transparentIndex, palette: result.colors)
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

    /// A delay in hundredths of a second (rounded, at least the minimum, at
    /// most `FrameDiffer.maxDelayMilliseconds`), cut into pieces that fit the 16-bit field.
    static func centiseconds(_ milliseconds: Int) -> [Int] {
        var remaining = max(minDelayCentiseconds, (min(milliseconds, FrameDiffer.maxDelayMilliseconds) + 5) / 10)
        var pieces: [Int] = []
        while remaining > maxDelayCentiseconds {
            // Never leave a piece shorter than the minimum.
            let piece = remaining - maxDelayCentiseconds >= minDelayCentiseconds ? maxDelayCentiseconds : maxDelayCentiseconds - minDelayCentiseconds
            pieces.append(piece)
            remaining -= piece
        }
        pieces.append(remaining)
        return pieces
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
