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

    /// The image file for a validated spec.
    public func makeImage(for spec: IndicatorSpec) -> EncodedImage {
        let drawing = IndicatorLayout.drawing(for: spec)
        switch spec.format {
        case .svg:
            // theme=auto: the same image in the dark colours, for the SVG to switch to.
            let dark = spec.darkVariant.map(IndicatorLayout.drawing(for:))
            return EncodedImage(bytes: svgWriter.svg(for: drawing, dark: dark), contentType: spec.format.mediaType)
        case .png:
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
        case .png: "image/png"
        case .svg: "image/svg+xml"
        }
    }
}
