/// What the encoder learns about the frames' colours while it plans them:
/// which colours each frame draws. `plan()` then chooses the global palette:
/// all the colours when they fit, else the colours that serve the frames
/// whose own palettes would cost most, when that saves bytes.
struct ColorCensus {
    /// The most distinct colours considered for the global palette; frames
    /// with colours beyond them get their own palettes.
    static let colorLimit = 1024

    /// What one frame draws.
    private struct Frame {
        /// Its colours as positions in `all`; nil when it cannot use the
        /// global palette (more colours than a palette, or past `colorLimit`).
        var colors: [Int]?
        var hasTransparentPixels: Bool
        /// The bytes its own palette would take.
        var ownPaletteBytes: Int
    }

    /// Every colour frames draw, in the order first drawn.
    private var all = ColorTable(capacity: colorLimit)
    /// Per colour of `all`: how many pixels draw it.
    private var pixelsDrawn: [Int] = []
    private var frames: [Frame] = []
    /// The colours of the frame being counted, and their pixel counts.
    private var frame = ColorTable()
    private var frameCounts = [Int](repeating: 0, count: ColorTable.paletteCapacity)

    /// How many frames were counted.
    var frameCount: Int { frames.count }

    /// Counts the colours of the next frame.
    mutating func add(_ patch: FramePatch) {
        frame.removeAll()
        var hasTransparentPixels = false, hasKeptPixels = false
        patch.pixels.withUnsafeBufferPointer { pixels in
            frameCounts.withUnsafeMutableBufferPointer { counts in
                var previous: PatchPixel = 0
                var position = 0
                for pixel in pixels {
                    if pixel.mustDraw {
                        if pixel != previous {
                            // A run of one colour needs one probe.
                            let known = frame.count
                            guard let found = frame.insert(pixel.rgb) else { continue }
                            position = found
                            if frame.count > known {
                                counts[found] = 0
                            }
                            previous = pixel
                        }
                        counts[position] += 1
                    } else if pixel.isKept {
                        hasKeptPixels = true
                    } else {
                        hasTransparentPixels = true
                    }
                }
            }
        }
        let needsTransparent = hasTransparentPixels || hasKeptPixels
        var colors: [Int]? = frame.overflowed ? nil : []
        for (position, rgb) in frame.colors.enumerated() where colors != nil {
            if let found = all.insert(rgb) {
                if found == pixelsDrawn.count {
                    pixelsDrawn.append(0)
                }
                pixelsDrawn[found] += frameCounts[position]
                colors?.append(found)
            } else {
                colors = nil
            }
        }
        let ownEntries = frame.overflowed ? ColorTable.paletteCapacity : frame.count + (needsTransparent ? 1 : 0)
        frames.append(Frame(colors: colors, hasTransparentPixels: hasTransparentPixels, ownPaletteBytes: 3 * FrameWriter.tableSize(ownEntries)))
    }

    /// The global palette and which frames use it.
    ///
    /// When every frame's colours fit 256 entries together, all of them do.
    /// Otherwise colours are dropped one at a time, the one whose frames'
    /// own palettes would cost least first; a frame that loses a colour
    /// leaves the global palette (and no longer holds its other colours in
    /// it). What is left serves the frames that kept all their colours, if
    /// that makes the file smaller than one palette per frame.
    ///
    /// The transparent index needs an entry of its own only when a frame with
    /// transparent pixels draws every colour (other frames take an index they
    /// do not draw). The order of the colours keeps as many frames as it can
    /// on low indices, where their LZW codes start narrower.
    func plan() -> PalettePlan {
        // Per colour: the frames that draw it.
        var drawers = [[Int]](repeating: [], count: all.count)
        for (number, frame) in frames.enumerated() {
            for color in frame.colors ?? [] {
                drawers[color].append(number)
            }
        }
        var kept = [Bool](repeating: true, count: all.count)
        var keptCount = all.count
        func needsOwnTransparentEntry(_ onGlobal: [Bool]) -> Bool {
            frames.indices.contains { onGlobal[$0] && frames[$0].hasTransparentPixels && frames[$0].colors?.count == keptCount }
        }
        // Drop colours, the one whose frames would lose least by having their
        // own palettes first, until the rest fit.
        let onGlobal = peel(drawers: drawers, framesIn: frames.map { $0.colors != nil }, weight: { frames[$0].ownPaletteBytes }) { color, onGlobal in
            guard keptCount + (needsOwnTransparentEntry(onGlobal) ? 1 : 0) > ColorTable.paletteCapacity else { return false }
            kept[color] = false
            keptCount -= 1
            return true
        }
        // Only colours that a frame on the global palette draws.
        for color in 0..<all.count where kept[color] && !drawers[color].contains(where: { onGlobal[$0] }) {
            kept[color] = false
            keptCount -= 1
        }
        let entryCount = keptCount + (needsOwnTransparentEntry(onGlobal) ? 1 : 0)
        let ownCost = frames.map(\.ownPaletteBytes).reduce(0, +)
        let sharedCost = 3 * FrameWriter.tableSize(entryCount) + frames.indices.filter { !onGlobal[$0] }.map { frames[$0].ownPaletteBytes }.reduce(0, +)
        guard onGlobal.contains(true), sharedCost <= ownCost || !onGlobal.contains(false) else {
            return PalettePlan(global: nil, framesOnGlobal: [Bool](repeating: false, count: frames.count))
        }
        // Index order, from the top: the colour that the fewest frames still
        // below it draw takes the highest free index; those frames now need
        // wide codes anyway, so their other colours stop counting.
        var order: [Int] = []
        _ = peel(drawers: drawers.enumerated().map { kept[$0.offset] ? $0.element : [] }, framesIn: onGlobal, weight: { _ in 1 }) { color, _ in
            if kept[color] {
                order.append(color)
            }
            return true
        }
        var table = ColorTable()
        for color in order.reversed() {
            table.insert(all.colors[color])
        }
        return PalettePlan(global: GlobalPalette(colors: table, entryCount: entryCount), framesOnGlobal: onGlobal)
    }

    /// Takes the colours out one at a time, the lightest first: a colour
    /// weighs the summed `weight` of the frames still in that draw it (ties:
    /// fewer pixels, then the larger value). `take` is asked first, with
    /// the frames still in; when it returns false, peeling stops. A frame
    /// that draws a taken colour is out: its colours weigh less. Returns the
    /// frames still in.
    private func peel(drawers: [[Int]], framesIn: [Bool], weight: (Int) -> Int, take: (Int, [Bool]) -> Bool) -> [Bool] {
        var framesIn = framesIn
        var weights = drawers.map { $0.filter { framesIn[$0] }.map(weight).reduce(0, +) }
        // One number orders the colours: weight, pixels, and the value
        // reversed (20, 20 and 24 bits; larger weights and counts saturate).
        let taken = UInt64.max
        func key(_ color: Int) -> UInt64 {
            let field = 1 << 20 - 1
            return UInt64(min(weights[color], field)) << 44 | UInt64(min(pixelsDrawn[color], field)) << 24 | UInt64(0xFF_FFFF - all.colors[color])
        }
        var keys = drawers.indices.map(key)
        while let color = keys.indices.min(by: { keys[$0] < keys[$1] }), keys[color] != taken {
            guard take(color, framesIn) else { break }
            keys[color] = taken
            for number in drawers[color] where framesIn[number] {
                framesIn[number] = false
                for other in frames[number].colors ?? [] where keys[other] != taken {
                    weights[other] -= weight(number)
                    keys[other] = key(other)
                }
            }
        }
        return framesIn
    }
}

/// The palette in the file's header, shared by the frames that use it.
struct GlobalPalette {
    /// The colours, each at its index.
    var colors: ColorTable
    /// The entries used: the colours, and one more when the transparent
    /// index needs its own.
    var entryCount: Int
}

/// Which palette each frame uses.
struct PalettePlan {
    var global: GlobalPalette?
    /// Per frame, in order: whether it uses the global palette (else its own).
    var framesOnGlobal: [Bool]
}
