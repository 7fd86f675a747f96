import PagedotsPixels

/// Which frames repeat an earlier frame's patch: the same pixels in a
/// rectangle of the same width, wherever it lies (each move between two
/// neighbouring pages draws the same pixels, only elsewhere). Such a frame
/// draws the same colours, so `ColorCensus` need not count it again, and on
/// the same palette it gets the same image, so `FrameWriter` need not index
/// and compress it again (docs/gif.md, "Repeated frames").
///
/// The first pass finds them, comparing pixels unless the differ tells
/// (`FramePatch.sameAs`); the second, if there is one, plans the same
/// frames, so it only looks them up by number.
struct PatchRepeats {
    /// Per frame, in order: the first earlier frame with the same pixels, if any.
    private var originals: [Int?] = []
    /// Per frame, in order: whether a later frame repeats it.
    private var repeated: [Bool] = []
    /// Per frame, in order: whether its pixels are a key of `firsts`.
    private var isFirst: [Bool] = []
    /// The first frame of each patch seen, while the budget holds their pixels.
    private var firsts: [Key: Int] = [:]
    /// The bytes that the keys of `firsts` took from the budget (`.patches`).
    private var keptBytes = 0
    private let budget: CacheBudget

    /// A patch's pixels, and its width: two pixels in every six hashed (and
    /// the size), since hashing all of them costs more than it saves.
    private typealias Key = DigestKey<PatchPixel>

    /// Finds repeats among the patches that `budget` holds (`.patches`),
    /// until `forget()`.
    init(budget: CacheBudget) {
        self.budget = budget
    }

    /// Gives back the memory of the patches held (the answers stay).
    mutating func forget() {
        firsts = [:]
        budget.giveBack(keptBytes, for: .patches)
        keptBytes = 0
    }

    /// Takes the next frame's patch; returns the earlier frame it repeats, if any.
    @discardableResult
    mutating func add(_ patch: FramePatch) -> Int? {
        let number = originals.count
        repeated.append(false)
        isFirst.append(false)
        if let same = patch.sameAs {
            // What comparing would find: the first frame with these pixels
            // is `same`'s original, or `same` when it is a key. Otherwise no
            // key has them, and they do not fit (`same`'s did not).
            let first = originals[same] ?? (isFirst[same] ? same : nil)
            originals.append(first)
            if let first {
                repeated[first] = true
            }
            return first
        }
        let bytes = 4 * patch.pixels.count
        let fits = budget.fits(bytes, for: .patches)
        guard fits || !firsts.isEmpty else {
            originals.append(nil)
            return nil
        }
        let key = Key(patch.pixels, tag: patch.rect.width, stride: 3)
        if let first = firsts[key] {
            originals.append(first)
            repeated[first] = true
            return first
        }
        originals.append(nil)
        if fits && budget.take(bytes, for: .patches) {
            keptBytes += bytes
            firsts[key] = number
            isFirst[number] = true
        }
        return nil
    }

    /// The earlier frame that frame `number` repeats, if any.
    func original(of number: Int) -> Int? {
        originals.indices.contains(number) ? originals[number] : nil
    }

    /// Whether a later frame repeats frame `number`.
    func isRepeated(_ number: Int) -> Bool {
        repeated.indices.contains(number) && repeated[number]
    }
}
