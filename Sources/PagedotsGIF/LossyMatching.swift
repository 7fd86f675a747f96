/// How far lossy LZW compression (`LZWCompressor.compressLossy`) may move
/// an image's pixels from their indices: the giflossy idea of gifsicle
/// 1.92 and later (`--lossy`), with a bound of its own.
///
/// Each code is the longest string of the table that the pixels from the
/// next one on come close to, its first index always the pixel's own. A
/// pixel may be written as another index than its own when the colour
/// error, plus the error carried along the string so far (or half of it),
/// is within the threshold: with `wanted` and `written` the two indices'
/// colours and `carried` the carried error (RGB, 0 at a string's start),
///
///     min(|wanted − written + carried|², |wanted − written + carried / 2|²) ≤ threshold,
///
/// and the string then carries `wanted − written + carried − carried / 4`
/// on (each channel's half and quarter rounded toward zero): the next
/// pixels lean the other way, as in error diffusion, the older error
/// fading. A pixel written as its own index carries `carried − carried / 4`.
/// Ties in length go to the least summed squared error (the smaller of the
/// two above, a pixel), then to the string found first. These are gifsicle
/// 1.93's rules but for rounding: its files and these come to about the
/// same size and error at the same level.
///
/// The carried error then stays below (4/3)·(√threshold + 0.87) (0.87 for
/// the rounding), so every pixel decodes within (7/3)·(√threshold + 1) of
/// its own colour (Euclidean RGB, so each channel too).
///
/// Never changed: a pixel marked in `exactPixels` (it also carries no error
/// on), and the transparent index, which is written for no other index and
/// replaced by none.
struct LossyMatching {
    /// The most squared RGB error a pixel may be written with, its carried
    /// error included (0: every pixel exact).
    let threshold: Int
    /// Per palette index, its red, green and blue (every index the image holds).
    let reds: [Int]
    let greens: [Int]
    let blues: [Int]
    /// The transparent index, or −1 when the image has none.
    let transparentIndex: Int
    /// Per pixel of the image: whether it must be written as its own index.
    let exactPixels: [Bool]

    /// Matching as gifsicle 1.93's `--lossy=loss` does: a squared RGB
    /// error of at most 10 × `loss` a pixel, its carried error included.
    /// `colors`: the palette (24-bit RGB, red in the low byte).
    init(loss: Int, colors: [UInt32], transparentIndex: Int?, exactPixels: [Bool]) {
        threshold = 10 * max(loss, 0)
        reds = colors.map { Int($0 & 0xFF) }
        greens = colors.map { Int($0 >> 8 & 0xFF) }
        blues = colors.map { Int($0 >> 16 & 0xFF) }
        self.transparentIndex = transparentIndex ?? -1
        self.exactPixels = exactPixels
    }

    /// Whether a pixel that decodes as `written` instead of `wanted` (24-bit
    /// RGB) lies within the bound that this matching keeps every pixel to.
    static func isWithinBound(_ wanted: UInt32, _ written: UInt32, threshold: Int) -> Bool {
        var squared = 0
        for shift: UInt32 in [0, 8, 16] {
            let difference = Int(wanted >> shift & 0xFF) - Int(written >> shift & 0xFF)
            squared += difference * difference
        }
        return 3 * Double(squared).squareRoot() <= 7 * (Double(threshold).squareRoot() + 1)
    }
}

/// The LZW string table as a tree (each code a node under the code of its
/// string without its last index), for the lossy search, which needs every
/// string that extends a given one: the hashed table of exact matching
/// finds only one extension at a time.
final class StringTree {
    /// GIF's codes: 12 bits.
    private static let capacity = 4096
    /// Per code: the last index of its string, the code of the string
    /// without it, its first child, and its next sibling (−1 for none).
    private let suffixes: UnsafeMutablePointer<UInt8>
    private let parents: UnsafeMutablePointer<Int32>
    private let firstChildren: UnsafeMutablePointer<Int32>
    private let nextSiblings: UnsafeMutablePointer<Int32>
    /// The search's strings still to extend: each node is reached by one
    /// string, so a search holds at most one entry per code.
    private let pending: UnsafeMutablePointer<Candidate>

    /// A string that the pixels from a search's start match: its code, one
    /// past the last pixel it covers, the error it carries on, and its
    /// summed squared error.
    private struct Candidate {
        var code: Int
        var end: Int
        var carriedRed: Int
        var carriedGreen: Int
        var carriedBlue: Int
        var error: Int
    }

    init() {
        suffixes = .allocate(capacity: Self.capacity)
        suffixes.initialize(repeating: 0, count: Self.capacity)
        parents = .allocate(capacity: Self.capacity)
        parents.initialize(repeating: -1, count: Self.capacity)
        firstChildren = .allocate(capacity: Self.capacity)
        firstChildren.initialize(repeating: -1, count: Self.capacity)
        nextSiblings = .allocate(capacity: Self.capacity)
        nextSiblings.initialize(repeating: -1, count: Self.capacity)
        pending = .allocate(capacity: Self.capacity)
    }

    deinit {
        suffixes.deallocate()
        parents.deallocate()
        firstChildren.deallocate()
        nextSiblings.deallocate()
        pending.deallocate()
    }

    /// A new table: the `roots` one-index strings, none extended.
    func clear(roots: Int) {
        for root in 0..<roots {
            suffixes[root] = UInt8(truncatingIfNeeded: root)
            parents[root] = -1
            firstChildren[root] = -1
        }
    }

    /// Adds `code`: the string of `parent` followed by `index`.
    func add(_ code: Int, extending parent: Int, with index: UInt8) {
        suffixes[code] = index
        parents[code] = Int32(parent)
        firstChildren[code] = -1
        nextSiblings[code] = firstChildren[parent]
        firstChildren[parent] = Int32(code)
    }

    /// The longest string of the table that the pixels of `indices` from
    /// `start` on match within `matching` (see `LossyMatching`), its first
    /// index the pixel at `start`'s own: its code and one past its last pixel.
    ///
    /// The search sees only the strings that start with that index, and
    /// compares each at most once, so a code costs at most the table's
    /// 4,096 comparisons, and on photographs a few.
    func longestMatch(in indices: UnsafeMutableBufferPointer<UInt8>, from start: Int, matching: LossyMatching) -> (code: Int, end: Int) {
        let root = Int(indices[start])
        var best = Candidate(code: root, end: start + 1, carriedRed: 0, carriedGreen: 0, carriedBlue: 0, error: 0)
        var count = 1
        pending[0] = best
        let transparent = matching.transparentIndex, threshold = matching.threshold
        matching.reds.withUnsafeBufferPointer { reds in
            matching.greens.withUnsafeBufferPointer { greens in
                matching.blues.withUnsafeBufferPointer { blues in
                    matching.exactPixels.withUnsafeBufferPointer { exactPixels in
                        while count > 0 {
                            count -= 1
                            let string = pending[count]
                            if string.end > best.end || (string.end == best.end && string.error < best.error) {
                                best = string
                            }
                            guard string.end < indices.count else { continue }
                            let wanted = Int(indices[string.end])
                            let exactOnly = exactPixels[string.end] || wanted == transparent
                            // What an index of the same colour carries on (exact pixels carry nothing).
                            let keptRed = exactOnly ? 0 : string.carriedRed - string.carriedRed / 4
                            let keptGreen = exactOnly ? 0 : string.carriedGreen - string.carriedGreen / 4
                            let keptBlue = exactOnly ? 0 : string.carriedBlue - string.carriedBlue / 4
                            var child = Int(firstChildren[string.code])
                            while child >= 0 {
                                defer { child = Int(nextSiblings[child]) }
                                let index = Int(suffixes[child])
                                if index == wanted {
                                    pending[count] = Candidate(
                                        code: child, end: string.end + 1, carriedRed: keptRed, carriedGreen: keptGreen, carriedBlue: keptBlue,
                                        error: string.error
                                    )
                                    count += 1
                                    continue
                                }
                                guard !exactOnly && index != transparent else { continue }
                                // The error with all the carried error, and with half of it.
                                let red = reds[wanted] - reds[index] + string.carriedRed
                                let green = greens[wanted] - greens[index] + string.carriedGreen
                                let blue = blues[wanted] - blues[index] + string.carriedBlue
                                let halfRed = red - string.carriedRed / 2, halfGreen = green - string.carriedGreen / 2
                                let halfBlue = blue - string.carriedBlue / 2
                                let error = min(red * red + green * green + blue * blue, halfRed * halfRed + halfGreen * halfGreen + halfBlue * halfBlue)
                                guard error <= threshold else { continue }
                                pending[count] = Candidate(
                                    code: child, end: string.end + 1, carriedRed: red - string.carriedRed / 4,
                                    carriedGreen: green - string.carriedGreen / 4, carriedBlue: blue - string.carriedBlue / 4,
                                    error: string.error + error
                                )
                                count += 1
                            }
                        }
                    }
                }
            }
        }
        return (best.code, best.end)
    }

    /// Writes the indices of `code`'s string over the pixels it stands for,
    /// which end before `end` (its first index, the pixel's own, stays);
    /// returns whether any changed.
    func writeString(of code: Int, endingBefore end: Int, startingAt start: Int, into indices: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        var changed = false, node = code
        for position in stride(from: end - 1, to: start, by: -1) {
            let index = suffixes[node]
            changed = changed || indices[position] != index
            indices[position] = index
            node = Int(parents[node])
        }
        return changed
    }
}
