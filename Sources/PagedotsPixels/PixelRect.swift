/// A rectangle of whole pixels on a canvas, origin top left: columns
/// `x ..< x + width`, rows `y ..< y + height`.
///
/// Empty when either side is 0 or less, wherever it lies: every empty
/// rectangle equals `.empty`, is left out of a union, and stays empty when
/// moved or cut.
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle of no pixels.
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// One past the right column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }
    public var area: Int { isEmpty ? 0 : width * height }

    /// The smallest rectangle that holds both (the other one when either is empty).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other.isEmpty ? .empty : other }
        if other.isEmpty { return self }
        let left = min(x, other.x), top = min(y, other.y)
        return PixelRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The pixels in both; `.empty` when they share none.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return left < right && top < bottom ? PixelRect(x: left, y: top, width: right - left, height: bottom - top) : .empty
    }

    /// Moved `dx` pixels right and `dy` down.
    public func moved(by dx: Int, _ dy: Int) -> PixelRect {
        isEmpty ? .empty : PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    @inline(__always)
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    public static func == (a: PixelRect, b: PixelRect) -> Bool {
        a.isEmpty || b.isEmpty ? a.isEmpty && b.isEmpty : a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
    }

    public func hash(into hasher: inout Hasher) {
        let rect = isEmpty ? .empty : self
        hasher.combine(rect.x)
        hasher.combine(rect.y)
        hasher.combine(rect.width)
        hasher.combine(rect.height)
    }
}

/// Grows to the smallest rectangle holding every pixel it is shown.
public struct PixelBounds {
    private var left = Int.max
    private var top = Int.max
    private var right = Int.min
    private var bottom = Int.min

    public init() {}

    /// Takes in the pixels `x ..< x + count` of row `y`.
    @inline(__always)
    public mutating func include(row y: Int, from x: Int, count: Int = 1) {
        left = min(left, x)
        right = max(right, x + count - 1)
        top = min(top, y)
        bottom = max(bottom, y)
    }

    /// The rectangle, `.empty` when no pixel was taken in.
    public var rect: PixelRect {
        left <= right ? PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1) : .empty
    }
}
