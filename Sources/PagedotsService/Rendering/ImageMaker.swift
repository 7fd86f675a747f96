import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// An encoded image, ready to serve.
public struct EncodedImage: Sendable {
    public var bytes: [UInt8]
    public var contentType: String
}

/// The whole drawing pipeline for one thread: spec → drawing → pixels → PNG
/// (or spec → drawing → SVG). Keeps Cairo and zlib state between images, so
/// it is not `Sendable`: one per thread. The server and `pagedots render` both
/// use it, so they give the same bytes.
public final class ImageMaker {
    private let renderer = RasterRenderer()
    private let encoder = PNGEncoder()
    private let svgWriter = SVGWriter()

    public init() {}

    /// Why this build cannot make the image of a validated spec, or nil
    /// when it can: animations wait for their GIF and APNG encoders.
    public static func refusal(for spec: IndicatorSpec) -> ParameterError? {
        guard spec.format.isAnimated else { return nil }
        return ParameterError(
            parameter: ParameterName.format.rawValue,
            description: "format: must be png or svg (animated \(spec.format.rawValue) is not made yet); got \"\(spec.format.rawValue)\""
        )
    }

    /// The image file for a validated spec that `refusal(for:)` accepts.
    public func makeImage(for spec: IndicatorSpec) -> EncodedImage {
        let drawing = IndicatorLayout.drawing(for: spec)
        switch spec.format {
        case .svg:
            return EncodedImage(bytes: svgWriter.svg(for: drawing), contentType: spec.format.mediaType)
        case .png, .gif, .apng:
            let image = renderer.render(drawing, scale: spec.scale)
            let png = encoder.encode(rgba: image.pixels, width: image.width, height: image.height)
            return EncodedImage(bytes: png, contentType: spec.format.mediaType)
        }
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
