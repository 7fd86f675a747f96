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
            let matte = (red: spec.matte.red, green: spec.matte.green, blue: spec.matte.blue)
            bytes = animation(for: spec) { width, height, frameCount, frameAt, changedBoxAt in
                gifEncoder.encode(
                    width: width, height: height, plays: spec.loop, matte: matte, frameCount: frameCount, frameAt: frameAt, changedBoxAt: changedBoxAt
                )
            }
        case .apng:
            bytes = animation(for: spec) { width, height, frameCount, frameAt, changedBoxAt in
                apngEncoder.encode(width: width, height: height, plays: spec.loop, frameCount: frameCount, frameAt: frameAt, changedBoxAt: changedBoxAt)
            }
        }
        return EncodedImage(bytes: bytes, contentType: spec.format.mediaType)
    }

    /// An animated spec's file as `encode` writes it, given the canvas in
    /// pixels, the number of frames of the spec's timeline, each frame's
    /// pixels and delay, drawn when the encoder asks for it (again on a
    /// later pass, rather than holding every frame's pixels), over the frame
    /// before (`AnimationFrames`; docs/gif.md, "Drawing the frames"), and the
    /// box that drawing repainted, outside which the frame equals the one before.
    private func animation(
        for spec: IndicatorSpec,
        encode: (
            _ width: Int, _ height: Int, _ frameCount: Int, _ frameAt: (Int) -> (pixels: [UInt8], delayMilliseconds: Int),
            _ changedBoxAt: (Int) -> (x: Int, y: Int, width: Int, height: Int)?
        ) -> [UInt8]
    ) -> [UInt8] {
        // What this animation repeats is its own: the one place its caches are emptied.
        defer { budget.reset() }
        let frames = AnimationFrames(spec: spec, renderer: renderer)
        return encode(frames.width, frames.height, frames.count, frames.frame(at:), frames.changedBox(at:))
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
    /// as the encoder makes it, and throws the
    /// first picture that could not be read: the frames are composed while
    /// the encoder asks for them, so that is known only once it has, and
    /// what was written must then be thrown away.
    public func makeCarousel(_ request: CarouselRequest, pictures: CarouselPictures, into write: (UnsafeRawBufferPointer) -> Void) throws {
        let spec = request.spec
        defer { budget.reset() }
        let frames = CarouselFrames(spec: spec, layout: request.layout, renderer: renderer, pictures: pictures)
        switch spec.format {
        case .apng:
            photoAPNGEncoder.encode(
                width: frames.width, height: frames.height, plays: spec.plays, frameCount: frames.count,
                frameAt: frames.frame(at:), changedBoxAt: frames.changedBox(at:), into: write
            )
        default:
            let matte = spec.indicator.matte
            // The band's and the dots' colours stay exact beside the photographs' palettes.
            let exactColors = frames.indicatorColors(atMost: 4)
            photoEncoder.encode(
                width: frames.width, height: frames.height, plays: spec.plays, matte: (matte.red, matte.green, matte.blue),
                frameCount: frames.count, frameAt: frames.frame(at:), changedBoxAt: frames.changedBox(at:), exactColors: exactColors,
                into: write
            )
        }
        if let failure = frames.failure { throw failure }
    }
}
