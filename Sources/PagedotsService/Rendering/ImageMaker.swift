import PagedotsCore
import PagedotsGIF
import PagedotsPNG
import PagedotsPixels
import PagedotsRender

/// An encoded image, ready to serve.
public struct EncodedImage: Sendable {
    public var bytes: [UInt8]
    public var contentType: String
}

/// The whole drawing pipeline for one thread: spec → drawing → pixels → PNG
/// (or spec → drawing → SVG, or spec → timeline → frames → GIF or APNG). Keeps
/// Cairo, zlib and encoder state between images, so it is not `Sendable`:
/// one per thread. The server and `pagedots render` both use it, so they
/// give the same bytes.
public final class ImageMaker {
    /// What the caches of repeated work of the renderer and the animation
    /// encoders hold while an animation is made: reset after each one.
    private let budget = CacheBudget()
    // Each made when first used: the still lane's threads never write an
    // animation, nor the animation lane's a still PNG, and each encoder holds
    // its own zlib or giflib buffers.
    lazy var renderer = RasterRenderer(budget: budget)
    private lazy var encoder = PNGEncoder()
    private lazy var svgWriter = SVGWriter()
    private lazy var gifEncoder = GIFEncoder(budget: budget)
    lazy var apngEncoder = APNGEncoder(budget: budget)
    /// For carousels: their photographs are quantised for photographs.
    lazy var photoEncoder = GIFEncoder(quantizing: .photographic, budget: budget)
    lazy var photoAPNGEncoder = APNGEncoder(photographs: true, budget: budget)

    public init() {}

    /// The image file for a validated spec.
    public func makeImage(for spec: IndicatorSpec) -> EncodedImage {
        let bytes: [UInt8]
        switch spec.format {
        case .svg:
            // theme=auto: the same image in the dark colours, for the SVG to switch to.
            let drawing = IndicatorLayout.drawing(for: spec)
            bytes = svgWriter.svg(for: drawing, dark: spec.darkVariant.map(IndicatorLayout.drawing(for:)))
        case .png:
            let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: spec.scale)
            bytes = encoder.encode(rgba: image.pixels, width: image.width, height: image.height)
        case .gif:
            // The frames are drawn when the encoder asks for them (again on a
            // later pass, rather than held), each over the one before
            // (docs/gif.md, "Drawing the frames"). What the animation
            // repeats is its own: its caches are emptied after it.
            defer { budget.reset() }
            let matte = (red: spec.matte.red, green: spec.matte.green, blue: spec.matte.blue)
            bytes = gifEncoder.encode(AnimationFrames(spec: spec, renderer: renderer), plays: spec.loop, matte: matte)
        case .apng:
            defer { budget.reset() }
            bytes = apngEncoder.encode(AnimationFrames(spec: spec, renderer: renderer), plays: spec.loop)
        }
        return EncodedImage(bytes: bytes, contentType: spec.format.mediaType)
    }
}

extension ImageFormat {
    /// The `Content-Type` of an image in this format.
    var mediaType: String {
        switch self {
        // An APNG is a PNG to every client: those that do not animate it show its first frame.
        case .png, .apng: "image/png"
        case .svg: "image/svg+xml"
        case .gif: "image/gif"
        }
    }
}

extension ImageMaker {
    /// Writes the file of a validated carousel whose pictures come from
    /// `pictures` to `write`, a piece at a time (about a frame at a time)
    /// as the encoder makes it. The frames are composed while the encoder
    /// asks for them, so a picture that cannot be read is found only then:
    /// its failure is thrown, and what was written must be thrown away.
    public func makeCarousel<Failure>(
        _ request: CarouselRequest, pictures: CarouselPictures<Failure>, into write: (UnsafeRawBufferPointer) -> Void
    ) throws(Failure) {
        let spec = request.spec
        defer { budget.reset() }
        let frames = CarouselFrames(spec: spec, layout: request.layout, renderer: renderer, pictures: pictures)
        switch spec.format {
        case .apng:
            try photoAPNGEncoder.encode(frames, plays: spec.plays, into: write)
        case .gif:
            let matte = spec.indicator.matte
            // The band's and the dots' colours stay exact beside the photographs' palettes.
            let exactColors = try frames.indicatorColors(atMost: 4)
            try photoEncoder.encode(
                frames, plays: spec.plays, matte: (matte.red, matte.green, matte.blue), exactColors: exactColors, into: write
            )
        case .png, .svg:
            preconditionFailure("a carousel is GIF or APNG: CarouselQuery refuses \(spec.format.rawValue)")
        }
    }
}
