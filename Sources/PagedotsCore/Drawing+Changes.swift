/// Where two drawings can differ, so that an animation frame can be drawn
/// over the one before by repainting only that part (docs/gif.md, "Drawing
/// the frames").
extension Drawing {
    /// A box (points) outside which this drawing and `earlier` paint the
    /// same pixels at any scale; nil when they are the same drawing.
    ///
    /// Items are compared in order: an item that differs from the one in its
    /// place, and every item past the shorter list, adds its bounds (those
    /// of both drawings' items). A pixel outside them sees the same items
    /// paint it in the same order, so it comes out the same. Anything whose
    /// bounds are not known (a text run outside a clip), another canvas size
    /// or background gives the whole canvas.
    public func changedBounds(since earlier: Drawing) -> Rect? {
        let canvas = Rect(x: 0, y: 0, width: size.width, height: size.height)
        guard size == earlier.size, background == earlier.background else { return canvas }
        // One pass over the items: an animation compares every frame with the one before.
        var changed: Rect?
        let common = min(items.count, earlier.items.count)
        for index in 0 ..< common where !DrawItem.areEqual(items[index], earlier.items[index]) {
            changed = changed.union(items[index].bounds ?? canvas).union(earlier.items[index].bounds ?? canvas)
        }
        for item in items[common...] {
            changed = changed.union(item.bounds ?? canvas)
        }
        for item in earlier.items[common...] {
            changed = changed.union(item.bounds ?? canvas)
        }
        return changed.map { $0.intersection(canvas) }
    }
}

extension DrawItem {
    /// `a == b`, matching fills (nearly every item) where they lie,
    /// borrowed: the derived `==` copies both items whole first.
    static func areEqual(_ a: borrowing DrawItem, _ b: borrowing DrawItem) -> Bool {
        switch a {
        case .fill(let path, let color):
            switch b {
            case .fill(let otherPath, let otherColor): color == otherColor && path == otherPath
            default: false
            }
        default:
            copy a == copy b
        }
    }

    /// A box holding every point the item can paint, nil when it is not
    /// known (text, whose glyphs the renderer lays out, or an empty path). A stroke's box
    /// grows by twice its line width, the reach of a mitre join at the
    /// renderers' mitre limit of 4.
    public var bounds: Rect? {
        switch self {
        case .fill(let path, _):
            path.controlBounds
        case .stroke(let path, let lineWidth, _):
            path.controlBounds?.outsetBy(2 * lineWidth)
        case .clipped(let clip, let items):
            Self.clippedBounds(clip: clip, items: items)
        case .text:
            nil
        }
    }

    /// Items painted through a clip stay inside it, whatever they are (text too).
    private static func clippedBounds(clip: Path, items: [DrawItem]) -> Rect? {
        guard let clipBounds = clip.controlBounds else { return nil }
        var inner: Rect?
        for item in items {
            guard let bounds = item.bounds else { return clipBounds }
            inner = inner.union(bounds)
        }
        return inner.map(clipBounds.intersection) ?? clipBounds
    }
}

extension Path {
    /// The box of every point of the path and of its curves' control points,
    /// which holds the curves; nil for an empty path.
    var controlBounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func include(_ point: Point) {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }
        for element in elements {
            switch element {
            case .move(let point), .line(let point): include(point)
            case .curve(let first, let second, let end):
                include(first)
                include(second)
                include(end)
            case .close: break
            }
        }
        return minX <= maxX && minY <= maxY ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }
}

extension Rect {
    /// The rectangle grown by `outset` on every side.
    func outsetBy(_ outset: Double) -> Rect {
        insetBy(-outset)
    }

    /// Whether the two share some area or edge.
    public func meets(_ other: Rect) -> Bool {
        x <= other.x + other.width && other.x <= x + width && y <= other.y + other.height && other.y <= y + height
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x), top = min(y, other.y)
        return Rect(x: left, y: top, width: max(x + width, other.x + other.width) - left, height: max(y + height, other.y + other.height) - top)
    }

    /// The part of both, with no width or height (never negative) when they do not meet.
    func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        return Rect(x: left, y: top, width: max(0, min(x + width, other.x + other.width) - left), height: max(0, min(y + height, other.y + other.height) - top))
    }
}

extension Rect? {
    /// The smallest rectangle holding this one (if any) and `other`.
    func union(_ other: Rect) -> Rect {
        map { $0.union(other) } ?? other
    }
}
