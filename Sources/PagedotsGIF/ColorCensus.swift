/// What the encoder learns about the frames' colours while it plans them:
/// which colours each frame draws. `plan()` then chooses the global palette:
/// all the colours when they fit, else the colours that serve the frames
/// whose own palettes would cost most, when that saves bytes.
struct ColorCensus {
    /// The most distinct colours considered for the global palette; frames
    /// with colours beyond them get their own palettes.
    static let colorLimit = 1024

    /// What one frame draws, and how many frames draw the same pixels.
    private struct Frame {
        /// Its colours (positions in `all`) with the pixels it draws in
        /// each: a range of `counted`.
        var counted: Range<Int>
        /// Whether it can use the global palette: not with more colours than
        /// a palette, or colours past `colorLimit` (`counted` then holds
        /// those before the first that did not fit).
        var fitsGlobal: Bool
        var hasTransparentPixels: Bool
        /// The bytes its own palette would take.
        var ownPaletteBytes: Int
        /// The frames with these pixels: it and its repeats.
        var count = 1

        /// Its colours' range of `counted`, empty when it cannot use the global palette.
        var colors: Range<Int> { fitsGlobal ? counted : counted.lowerBound..<counted.lowerBound }
    }

    /// Every colour frames draw, in the order first drawn.
    private var all = ColorTable(capacity: colorLimit)
    /// Per colour of `all`: how many pixels draw it.
    private var pixelsDrawn: [Int] = []
    /// The frames' colours (positions in `all`) and the pixels they draw in
    /// each, one frame after the other (no per-frame lists to allocate).
    private var counted: [(color: Int, pixels: Int)] = []
    /// The frames, a repeat counted in its original's `count`: frames with
    /// the same pixels draw the same colours, so they keep or lose the
    /// global palette together.
    private var frames: [Frame] = []
    /// Per frame counted, in order: its position in `frames`.
    private var frameGroups: [Int] = []

    /// How many frames were counted.
    var frameCount: Int { frameGroups.count }

    /// Counts the colours of the next frame.
    mutating func add(_ colors: PatchColors) {
        frameGroups.append(frames.count)
        let start = counted.count
        var fitsGlobal = !colors.overflowed
        for (rgb, pixels) in colors.colors {
            guard fitsGlobal, let found = all.insert(rgb) else {
                fitsGlobal = false
                break
            }
            if found == pixelsDrawn.count {
                pixelsDrawn.append(0)
            }
            pixelsDrawn[found] += pixels
            counted.append((found, pixels))
        }
        let needsTransparent = colors.hasTransparentPixels || colors.hasKeptPixels
        let ownEntries = colors.overflowed ? ColorTable.paletteCapacity : colors.colors.count + (needsTransparent ? 1 : 0)
        frames.append(Frame(
            counted: start..<counted.count, fitsGlobal: fitsGlobal, hasTransparentPixels: colors.hasTransparentPixels,
            ownPaletteBytes: 3 * FrameWriter.tableSize(ownEntries)
        ))
    }

    /// Counts the next frame, which has the same pixels as frame `original`:
    /// it draws what that one draws, and is not read again.
    mutating func addRepeat(of original: Int) {
        let group = frameGroups[original]
        frames[group].count += 1
        for (color, pixels) in counted[frames[group].counted] {
            pixelsDrawn[color] += pixels
        }
        frameGroups.append(group)
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
        let drawers = Drawers(of: self)
        var kept = [Bool](repeating: true, count: all.count)
        var keptCount = all.count
        func needsOwnTransparentEntry(_ onGlobal: [Bool]) -> Bool {
            frames.indices.contains { onGlobal[$0] && frames[$0].hasTransparentPixels && frames[$0].colors.count == keptCount }
        }
        let ownCosts = frames.map { $0.ownPaletteBytes * $0.count }
        // Drop colours, the one whose frames would lose least by having their
        // own palettes first, until the rest fit.
        func fits(_ onGlobal: [Bool]) -> Bool {
            keptCount + (needsOwnTransparentEntry(onGlobal) ? 1 : 0) <= ColorTable.paletteCapacity
        }
        let canUseGlobal = frames.map(\.fitsGlobal)
        let onGlobal = fits(canUseGlobal) ? canUseGlobal : peel(drawers: drawers, framesIn: canUseGlobal, weights: ownCosts) { color, onGlobal in
            guard !fits(onGlobal) else { return false }
            kept[color] = false
            keptCount -= 1
            return true
        }
        // Only colours that a frame on the global palette draws.
        for color in 0..<all.count where kept[color] && !drawers.frames(drawing: color).contains(where: { onGlobal[$0] }) {
            kept[color] = false
            keptCount -= 1
        }
        let entryCount = keptCount + (needsOwnTransparentEntry(onGlobal) ? 1 : 0)
        let ownCost = ownCosts.reduce(0, +)
        let sharedCost = 3 * FrameWriter.tableSize(entryCount) + frames.indices.filter { !onGlobal[$0] }.map { ownCosts[$0] }.reduce(0, +)
        guard onGlobal.contains(true), sharedCost <= ownCost || !onGlobal.contains(false) else {
            return PalettePlan(global: nil, framesOnGlobal: [Bool](repeating: false, count: frameCount))
        }
        // Index order, from the top: the colour that the fewest frames still
        // below it draw takes the highest free index; those frames now need
        // wide codes anyway, so their other colours stop counting. (A colour
        // dropped above has no drawer on the global palette, so it weighs
        // nothing and takes no frame out.)
        var order: [Int] = []
        order.reserveCapacity(keptCount)
        _ = peel(drawers: drawers, framesIn: onGlobal, weights: frames.map(\.count)) { color, _ in
            if kept[color] {
                order.append(color)
            }
            return true
        }
        var table = ColorTable()
        for color in order.reversed() {
            table.insert(all.colors[color])
        }
        return PalettePlan(global: GlobalPalette(colors: table, entryCount: entryCount), framesOnGlobal: frameGroups.map { onGlobal[$0] })
    }

    /// Per colour of `all`, the frames that draw it among those that can use
    /// the global palette (positions in `frames`, in order): one flat list,
    /// each colour's part of it in turn.
    private struct Drawers {
        /// Per colour, where its frames end in `numbers` (they start where the previous colour's end).
        private let ends: [Int]
        private let numbers: [Int]

        init(of census: ColorCensus) {
            var ends = [Int](repeating: 0, count: census.all.count)
            for frame in census.frames {
                for entry in frame.colors {
                    ends[census.counted[entry].color] += 1
                }
            }
            var total = 0
            for color in ends.indices {
                total += ends[color]
                ends[color] = total - ends[color]
            }
            // `ends` now holds the starts, and moves to the ends as the frames are placed.
            var numbers = [Int](repeating: 0, count: total)
            for (number, frame) in census.frames.enumerated() {
                for entry in frame.colors {
                    let color = census.counted[entry].color
                    numbers[ends[color]] = number
                    ends[color] += 1
                }
            }
            self.ends = ends
            self.numbers = numbers
        }

        /// Where the frames drawing `color` lie in `numbers`.
        func range(of color: Int) -> Range<Int> {
            (color == 0 ? 0 : ends[color - 1])..<ends[color]
        }

        /// The frames that draw `color`.
        func frames(drawing color: Int) -> ArraySlice<Int> {
            numbers[range(of: color)]
        }

        /// Runs `body` on the flat list of frame numbers.
        func withNumbers<Result>(_ body: (UnsafeBufferPointer<Int>) -> Result) -> Result {
            numbers.withUnsafeBufferPointer(body)
        }
    }

    /// Takes the colours out one at a time, the lightest first: a colour
    /// weighs the summed `weights` of the frames still in that draw it (ties:
    /// fewer pixels, then the larger value). `take` is asked first, with
    /// the frames still in; when it returns false, peeling stops. A frame
    /// that draws a taken colour is out: its colours weigh less. Returns the
    /// frames still in.
    private func peel(drawers: Drawers, framesIn: [Bool], weights frameWeights: [Int], take: (Int, [Bool]) -> Bool) -> [Bool] {
        var framesIn = framesIn
        var weights = [Int](repeating: 0, count: all.count)
        counted.withUnsafeBufferPointer { counted in
            weights.withUnsafeMutableBufferPointer { weights in
                for (number, frame) in frames.enumerated() where framesIn[number] {
                    for entry in frame.colors {
                        weights[counted[entry].color] += frameWeights[number]
                    }
                }
            }
        }
        // One number orders the colours: weight, pixels, and the value
        // reversed (20, 20 and 24 bits; larger weights and counts saturate).
        let field = 1 << 20 - 1
        ColorHeap.with(count: all.count, key: { color in
            UInt64(min(weights[color], field)) << 44 | UInt64(min(pixelsDrawn[color], field)) << 24 | UInt64(0xFF_FFFF - all.colors[color])
        }) { heap in
            counted.withUnsafeBufferPointer { counted in
                drawers.withNumbers { numbers in
                    weights.withUnsafeMutableBufferPointer { weights in
                        while let color = heap.first {
                            guard take(color, framesIn) else { break }
                            heap.removeFirst()
                            for number in numbers[drawers.range(of: color)] where framesIn[number] {
                                framesIn[number] = false
                                let weight = frameWeights[number]
                                for entry in frames[number].colors {
                                    let other = counted[entry].color
                                    guard let key = heap.key(of: other) else { continue }
                                    weights[other] -= weight
                                    // Only the weight's field changes.
                                    heap.lower(other, to: key & (1 << 44 - 1) | UInt64(min(weights[other], field)) << 44)
                                }
                            }
                        }
                    }
                }
            }
        }
        return framesIn
    }
}

/// The colours not yet taken by `ColorCensus.peel`, as a binary heap ordered
/// by their keys (least on top), each colour's place in it known, so that a
/// key that falls moves up in a logarithm's time. Its buffers live for one
/// call of `with(count:key:_:)`: no reference counting or uniqueness checks
/// while colours move (several times per colour a frame draws).
private struct ColorHeap {
    /// Per colour: its key, or `taken`.
    private let keys: UnsafeMutableBufferPointer<UInt64>
    /// The colours in heap order (the first `count`).
    private let colors: UnsafeMutableBufferPointer<Int>
    /// Per colour: its position in `colors`.
    private let places: UnsafeMutableBufferPointer<Int>
    private var count: Int
    /// The key of a colour taken out.
    private static let taken = UInt64.max

    /// Runs `body` on a heap of the colours `0 ..< count`, colour c with key `key(c)`.
    static func with<Result>(count: Int, key: (Int) -> UInt64, _ body: (inout ColorHeap) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { keys in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { positions in
                guard let start = positions.baseAddress else {
                    var empty = ColorHeap(keys: keys, colors: positions, places: positions, count: 0)
                    return body(&empty)
                }
                let colors = UnsafeMutableBufferPointer(start: start, count: count)
                let places = UnsafeMutableBufferPointer(start: start + count, count: count)
                for color in 0..<count {
                    keys.initializeElement(at: color, to: key(color))
                    colors.initializeElement(at: color, to: color)
                    places.initializeElement(at: color, to: color)
                }
                var heap = ColorHeap(keys: keys, colors: colors, places: places, count: count)
                for start in stride(from: count / 2 - 1, through: 0, by: -1) {
                    heap.siftDown(from: start)
                }
                return body(&heap)
            }
        }
    }

    private init(keys: UnsafeMutableBufferPointer<UInt64>, colors: UnsafeMutableBufferPointer<Int>, places: UnsafeMutableBufferPointer<Int>, count: Int) {
        self.keys = keys
        self.colors = colors
        self.places = places
        self.count = count
    }

    /// The colour with the least key.
    var first: Int? { count > 0 ? colors[0] : nil }

    /// A colour's key, nil once it is taken out.
    func key(of color: Int) -> UInt64? {
        keys[color] == Self.taken ? nil : keys[color]
    }

    /// Takes the first colour out.
    mutating func removeFirst() {
        keys[colors[0]] = Self.taken
        count -= 1
        guard count > 0 else { return }
        let last = colors[count]
        colors[0] = last
        places[last] = 0
        siftDown(from: 0)
    }

    /// Lowers the key of `color` (not taken out) to `key` and moves the
    /// colour up to where it now belongs.
    func lower(_ color: Int, to key: UInt64) {
        keys[color] = key
        var child = places[color]
        while child > 0 {
            let parent = (child - 1) / 2
            guard key < keys[colors[parent]] else { break }
            colors[child] = colors[parent]
            places[colors[child]] = child
            child = parent
        }
        colors[child] = color
        places[color] = child
    }

    private func siftDown(from start: Int) {
        let color = colors[start], key = keys[color]
        var parent = start
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && keys[colors[child + 1]] < keys[colors[child]] {
                child += 1
            }
            guard keys[colors[child]] < key else { break }
            colors[parent] = colors[child]
            places[colors[parent]] = parent
            parent = child
        }
        colors[parent] = color
        places[color] = parent
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
