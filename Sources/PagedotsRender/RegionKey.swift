import PagedotsCore
import PagedotsPixels

/// What decides the pixels of a region that `RasterRenderer` repaints for
/// an animation frame, but for where the region is: the region's size, the
/// scale, the background, the inks of translucent pixels, and the items
/// drawn, their coordinates taken from the region's top left corner. Two
/// regions with the same key come out as the same pixels (docs/gif.md,
/// "Drawing the frames").
///
/// Cairo turns path coordinates into device space, `scale × x − left`
/// (paths are drawn rounded to 1/100 point, `n / 100`), then into 24.8
/// fixed point, and draws from there alone. The key holds each coordinate
/// as `n × scale − 100 × left`, whole hundredths of a pixel: equal values
/// give equal fixed-point ones, since no such value lies near a rounding
/// boundary of 1/256 pixel (`512 × D = 100 × odd` has no solution, so it is
/// at least 1/12800 pixel away, far beyond a double's error).
struct RegionKey: Hashable {
    /// The region's size in pixels, the scale, the background.
    var width: Int
    var height: Int
    var scale: Int
    var background: RGBA
    /// The items, flattened: a tag per item and path element, then its
    /// numbers (coordinates as above, colours packed, line widths' bits),
    /// then the inks. Hashed once, as a digest: hashing that instead of
    /// every word is what makes a region found again cheap.
    var words: DigestKey<Int64>

    /// The key of `items` drawn in the region of `width × height` pixels
    /// whose top left corner is at pixel (`left`, `top`); nil when an item
    /// is text (laid out by Pango, not by these paths) or a coordinate is
    /// not a finite number of reasonable size.
    init?(
        items: some Collection<DrawItem>, background: RGBA, inks: Inks, scale: Int, left: Int, top: Int, width: Int, height: Int
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
        var complete = false
        // Written straight into the array's memory: an append per word (its
        // uniqueness and capacity checks, out of line) was most of a key's time.
        let words = [Int64](unsafeUninitializedCapacity: Self.wordCount(of: items) + 1 + inks.colors.count) { buffer, count in
            var words = Words(buffer: buffer, scale: scale, left: left, top: top)
            guard words.add(items) else { return }
            words.add(Int64(inks.colors.count))
            for ink in inks.colors { words.add(Int64(ink)) }
            count = words.count
            complete = true
        }
        guard complete else { return nil }
        self.words = DigestKey(words)
    }

    /// The words of a key as they are put together into `buffer`.
    private struct Words {
        let buffer: UnsafeMutableBufferPointer<Int64>
        var count = 0
        let scale: Int, left: Int, top: Int

        mutating func add(_ word: Int64) {
            precondition(count < buffer.count, "RegionKey.wordCount(of:) counts every word")
            buffer.initializeElement(at: count, to: word)
            count += 1
        }

        mutating func add(_ point: Point) -> Bool {
            guard let x = RegionKey.hundredths(point.x, scale: scale, origin: left),
                  let y = RegionKey.hundredths(point.y, scale: scale, origin: top) else { return false }
            add(x)
            add(y)
            return true
        }

        mutating func add(_ path: Path) -> Bool {
            add(Int64(path.elements.count))
            for element in path.elements {
                switch element {
                case .move(let p):
                    add(1)
                    guard add(p) else { return false }
                case .line(let p):
                    add(2)
                    guard add(p) else { return false }
                case .curve(let c1, let c2, let p):
                    add(3)
                    guard add(c1), add(c2), add(p) else { return false }
                case .close:
                    add(4)
                }
            }
            return true
        }

        mutating func add(_ color: RGBA) {
            add(Int64(color.red) << 24 | Int64(color.green) << 16 | Int64(color.blue) << 8 | Int64(color.alpha))
        }

        mutating func add(_ items: some Collection<DrawItem>) -> Bool {
            add(Int64(items.count))
            for item in items {
                switch item {
                case .fill(let path, let color):
                    add(11)
                    guard add(path) else { return false }
                    add(color)
                case .stroke(let path, let lineWidth, let color):
                    add(12)
                    add(Int64(bitPattern: lineWidth.bitPattern))
                    guard add(path) else { return false }
                    add(color)
                case .clipped(let clip, let inner):
                    add(13)
                    guard add(clip), add(inner) else { return false }
                case .text:
                    return false
                }
            }
            return true
        }
    }

    /// How many words `items` take (at most: a curve's seven), to make room for them at once.
    private static func wordCount(of items: some Sequence<DrawItem>) -> Int {
        items.reduce(1) { count, item in
            switch item {
            case .fill(let path, _): count + 3 + 7 * path.elements.count
            case .stroke(let path, _, _): count + 4 + 7 * path.elements.count
            case .clipped(let clip, let inner): count + 2 + 7 * clip.elements.count + wordCount(of: inner)
            case .text: count
            }
        }
    }

    /// `value` (points) as Cairo places it in a region whose edge is at
    /// pixel `origin`, in whole hundredths of a pixel: `n × scale − 100 ×
    /// origin`, with `n` the value in hundredths of a point as drawn.
    private static func hundredths(_ value: Double, scale: Int, origin: Int) -> Int64? {
        let steps = CairoPath.hundredths(value)
        // Within Cairo's 24.8 fixed-point range, and exact in a double.
        guard steps.magnitude < 1e8, let whole = Int64(exactly: steps) else { return nil }
        return whole * Int64(scale) - 100 * Int64(origin)
    }
}
