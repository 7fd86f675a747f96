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
        _ = try makeCarousel(request.spec, layout: request.layout, pictures: pictures, into: write)
    }

    /// The frames of a carousel laid out by `layout`, drawn by this maker's
    /// renderer (for samples: what they leave in its caches goes with the
    /// next carousel's encoding).
    public func carouselFrames<Failure>(_ spec: CarouselSpec, layout: CarouselLayout, pictures: CarouselPictures<Failure>) -> CarouselFrames<Failure> {
        CarouselFrames(spec: spec, layout: layout, renderer: renderer, pictures: pictures)
    }

    /// The same for a carousel laid out by `layout` (at the scale it was
    /// laid out for), its GIF made lighter by `lighter` when given (its
    /// scale is the layout's; the spec's `slideSteps` is its steps), and
    /// stopped once more than `byteLimit` bytes are written: false then,
    /// and what was written is to be thrown away.
    public func makeCarousel<Failure>(
        _ spec: CarouselSpec, layout: CarouselLayout, pictures: CarouselPictures<Failure>, lighter: CarouselEncoding? = nil,
        byteLimit: Int = .max, into write: (UnsafeRawBufferPointer) -> Void
    ) throws(Failure) -> Bool {
        defer { budget.reset() }
        let frames = ByteLimitedFrames(carouselFrames(spec, layout: layout, pictures: pictures), limit: byteLimit)
        let counted: (UnsafeRawBufferPointer) -> Void = { bytes in
            frames.counter.count += bytes.count
            write(bytes)
        }
        do throws(ByteLimitedFrames<CarouselFrames<Failure>>.Stop) {
            switch spec.format {
            case .apng:
                try photoAPNGEncoder.encode(frames, plays: spec.plays, into: counted)
            case .gif:
                let matte = spec.indicator.matte
                // The band's and the dots' colours stay exact beside the photographs' palettes.
                let exactColors = layout.indicatorColors(in: try frames.frame(at: 0).pixels, atMost: 4)
                let encoder = lighter.map { GIFEncoder(quantizing: .photographic.lighter($0, protecting: layout.protectedBoxes), budget: budget) }
                try (encoder ?? photoEncoder).encode(
                    frames, plays: spec.plays, matte: (matte.red, matte.green, matte.blue), exactColors: exactColors, into: counted
                )
            case .png, .svg:
                preconditionFailure("a carousel is GIF or APNG: CarouselQuery refuses \(spec.format.rawValue)")
            }
            return true
        } catch {
            switch error {
            case .frame(let failure): throw failure
            case .overLimit: return false
            }
        }
    }
}

/// Another source's frames, refused once more than `limit` bytes of the
/// file made of them have been counted (`counter`): an encoding that has
/// passed its budget stops at its next frame.
private struct ByteLimitedFrames<Base: FrameSource>: FrameSource {
    enum Stop: Error {
        case frame(Base.Failure)
        case overLimit
    }

    /// The bytes written so far.
    final class Counter {
        var count = 0
    }

    let base: Base
    let limit: Int
    let counter = Counter()

    init(_ base: Base, limit: Int) {
        self.base = base
        self.limit = limit
    }

    var width: Int { base.width }
    var height: Int { base.height }
    var count: Int { base.count }

    func frame(at index: Int) throws(Stop) -> RGBAFrame {
        guard counter.count <= limit else { throw .overLimit }
        do throws(Base.Failure) {
            return try base.frame(at: index)
        } catch {
            throw .frame(error)
        }
    }

    func changedBox(at index: Int) -> PixelRect? { base.changedBox(at: index) }
}

extension QuantizerSettings {
    /// These settings made lighter as `encoding` says (its colours and
    /// loss), the pixels of `boxes` never lossy.
    func lighter(_ encoding: CarouselEncoding, protecting boxes: [PixelRect]) -> QuantizerSettings {
        limitingColors(to: encoding.colors).lossy(encoding.loss).protecting(boxes)
    }
}
