/// A decoded image: straight (not premultiplied) RGBA, 8 bits a channel,
/// rows top to bottom with no padding (`width` × 4 bytes a row).
///
/// The same layout as `PagedotsRender.RGBAImage`; kept small and
/// self-contained here (this target does not draw) so that it can give way
/// to the shared pixel module's image type when that lands.
public struct DecodedImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image of `pixels`, which must hold `width` × `height` × 4 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "DecodedImage: pixels do not fit the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image.
    init(transparentWidth width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The pixel at (`x`, `y`) as `[r, g, b, a]`.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * 4
        return Array(pixels[start..<(start + 4)])
    }
}
