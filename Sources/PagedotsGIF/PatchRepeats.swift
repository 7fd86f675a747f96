#if canImport(Glibc)
import Glibc
#endif

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
    /// The first frame of each patch seen, while their pixels fit `pixelLimit`.
    private var firsts: [Key: Int] = [:]
    /// The patch pixels held as keys of `firsts`.
    private var keptPixels = 0
    /// The most patch pixels `firsts` holds.
    let pixelLimit: Int

    /// A patch's pixels and width, with its hash made once.
    private struct Key: Hashable {
        var pixels: [PatchPixel]
        var width: Int
        var hash: Int

        init(_ patch: FramePatch) {
            pixels = patch.pixels
            width = patch.rect.width
            // Every `hashStride`th pixel (and the size): hashing all of them
            // costs more than it saves, and equal hashes still compare every pixel.
            var hash = UInt64(truncatingIfNeeded: pixels.count) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: width)
            pixels.withUnsafeBufferPointer { pixels in
                for position in stride(from: 0, to: pixels.count, by: Self.hashStride) {
                    hash = (hash ^ UInt64(pixels[position])) &* 0x9E37_79B9_7F4A_7C15
                }
            }
            self.hash = Int(truncatingIfNeeded: hash ^ hash >> 29)
        }

        /// Pixels apart from one hashed to the next: odd, so that columns
        /// vary from row to row.
        static let hashStride = 7

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.width == b.width && a.pixels.count == b.pixels.count && a.pixels.withUnsafeBytes { aBytes in
                b.pixels.withUnsafeBytes { bBytes in
                    guard let a = aBytes.baseAddress, let b = bBytes.baseAddress else { return true }
                    return memcmp(a, b, aBytes.count) == 0
                }
            }
        }
    }

    /// Finds repeats among patches of up to `pixelLimit` pixels in all (0: none).
    init(pixelLimit: Int) {
        self.pixelLimit = pixelLimit
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
        let fits = keptPixels + patch.pixels.count <= pixelLimit
        guard fits || !firsts.isEmpty else {
            originals.append(nil)
            return nil
        }
        let key = Key(patch)
        if let first = firsts[key] {
            originals.append(first)
            repeated[first] = true
            return first
        }
        originals.append(nil)
        if fits {
            keptPixels += patch.pixels.count
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
