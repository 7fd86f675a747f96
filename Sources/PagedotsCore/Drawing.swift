/// A point in the image's coordinate space: points, origin top-left, y down.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in points.
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// The rectangle with `inset` taken off every side.
    public func insetBy(_ inset: Double) -> Rect {
        Rect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
    }
}

/// A size in points.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// One step of a path. Curves are cubic Béziers, so every back end (Cairo,
/// SVG) draws exactly the same outline.
public enum PathElement: Hashable, Sendable {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    case close
}

/// A basic shape that a path traces exactly, remembered where the path is
/// built so that a writer can name it (SVG's `<circle>`, `<rect>`, a stroked
/// ring) instead of spelling out its curves. Renderers that only draw the
/// path's elements may ignore it: the elements are the shape.
public enum PathPrimitive: Hashable, Sendable {
    /// The ellipse inscribed in the box (a circle in a square box).
    case ellipse(Rect)
    /// The box with quarter-circle corners of `radius` (0: square corners;
    /// half the short side: a capsule).
    case roundedRect(Rect, radius: Double)
    /// The band `width` wide just inside the edge of `outline`: filled, it
    /// is a line `width` wide centred `width/2` inside the edge.
    /// (Boxed: the other cases, which every dot and capsule has, are built without an allocation.)
    indirect case ring(PathPrimitive, width: Double)
}

/// An outline made of subpaths; filled with the non-zero winding rule.
public struct Path: Hashable, Sendable {
    public var elements: [PathElement]
    /// The basic shape the elements trace, when the path was built as one.
    public var primitive: PathPrimitive?

    public init(_ elements: [PathElement] = [], primitive: PathPrimitive? = nil) {
        self.elements = elements
        self.primitive = primitive
    }
}

/// The weight of a text run.
public enum FontWeight: String, Hashable, Sendable {
    case regular, semibold
}

/// A line of text centred in `box`; the renderer ellipsises it when it does
/// not fit the box's width, and never rotates or mirrors it.
public struct TextRun: Hashable, Sendable {
    public var text: String
    public var box: Rect
    public var fontSize: Double
    public var weight: FontWeight
    public var color: RGBA

    public init(text: String, box: Rect, fontSize: Double, weight: FontWeight, color: RGBA) {
        self.text = text
        self.box = box
        self.fontSize = fontSize
        self.weight = weight
        self.color = color
    }
}

/// One thing to paint, in order.
public enum DrawItem: Hashable, Sendable {
    /// Fill a path with a colour.
    case fill(Path, RGBA)
    /// Stroke a path with a line centred on it.
    case stroke(Path, lineWidth: Double, RGBA)
    /// Paint `items` clipped to a path.
    case clipped(Path, [DrawItem])
    /// A line of text.
    case text(TextRun)
}

/// A complete image in points, independent of scale and file format: what the
/// layout produces and the renderers consume.
public struct Drawing: Hashable, Sendable {
    /// The canvas in points (after direction); the PNG is `round(size × scale)` pixels.
    public var size: Size
    public var background: RGBA
    public var items: [DrawItem]

    public init(size: Size, background: RGBA, items: [DrawItem]) {
        self.size = size
        self.background = background
        self.items = items
    }
}
