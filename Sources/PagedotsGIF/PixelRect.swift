/// A rectangle of whole pixels on the canvas, origin top-left.
struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// One past the right column.
    var maxX: Int { x + width }
    /// One past the bottom row.
    var maxY: Int { y + height }
    var area: Int { width * height }

    /// The part of it inside `bounds` (of no area when none).
    func clipped(to bounds: PixelRect) -> PixelRect {
        let left = max(x, bounds.x), top = max(y, bounds.y)
        return PixelRect(x: left, y: top, width: max(0, min(maxX, bounds.maxX) - left), height: max(0, min(maxY, bounds.maxY) - top))
    }

    /// Moved `dx` pixels right and `dy` down.
    func moved(by dx: Int, _ dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The smallest rectangle that holds both.
    func union(_ other: PixelRect) -> PixelRect {
        let left = min(x, other.x), top = min(y, other.y)
        return PixelRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }
}

extension PixelRect? {
    /// The smallest rectangle that holds both; nil when neither exists.
    func union(_ other: PixelRect?) -> PixelRect? {
        guard let self else { return other }
        guard let other else { return self }
        return self.union(other)
    }
}

/// Grows to the smallest rectangle holding every pixel it is shown.
struct BoundingBox {
    private var left = Int.max
    private var top = Int.max
    private var right = Int.min
    private var bottom = Int.min

    /// Takes in the pixels `x ..< x + count` of row `y`.
    @inline(__always)
    mutating func include(row y: Int, from x: Int, count: Int = 1) {
        left = min(left, x)
        right = max(right, x + count - 1)
        top = min(top, y)
        bottom = max(bottom, y)
    }

    /// The rectangle, or nil when no pixel was taken in.
    var rect: PixelRect? {
        left <= right ? PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1) : nil
    }
}
