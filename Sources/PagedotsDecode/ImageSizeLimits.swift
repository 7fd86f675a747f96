/// The sizes beyond which an image is refused, from its header, before any
/// pixel is decoded.
public struct ImageSizeLimits: Equatable, Sendable {
    /// Widest and tallest image (a GIF's screen, and each of its frames). Default 4096.
    public var maxSide: Int
    /// Most pixels in the image (width × height; a GIF's screen, and each of its frames). Default 16,777,216.
    public var maxPixels: Int
    /// Most frames an animated GIF may have (`GIFAnimation`, `GIFFramePlayer`). Default 5000.
    public var maxFrames: Int
    /// Most pixels decoded over all of an animated GIF's frames (the sum of
    /// their rectangles), which bounds the time a crafted file can take. Default 400,000,000.
    public var maxAnimationPixels: Int

    public init(maxSide: Int = 4096, maxPixels: Int = 16_777_216, maxFrames: Int = 5000, maxAnimationPixels: Int = 400_000_000) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// Throws `tooLarge` unless an image of `width` × `height` is within the limits.
    func check(width: Int, height: Int) throws(ImageDecodingError) {
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height, limits: self)
        }
    }
}
