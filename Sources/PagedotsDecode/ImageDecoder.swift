/// What a header says about an image, read without decoding pixels.
public struct ImageProbe: Equatable, Sendable {
    public var kind: ImageKind
    /// The size as shown: for a JPEG, after its EXIF orientation; for a HEIC
    /// or AVIF, after its rotation; for a GIF or an animated WebP, its canvas.
    public var width: Int
    public var height: Int

    public init(kind: ImageKind, width: Int, height: Int) {
        self.kind = kind
        self.width = width
        self.height = height
    }
}

/// Reads uploaded images (PNG through libpng, JPEG through libjpeg-turbo,
/// GIF through giflib, WebP through libwebp, HEIC and AVIF through libheif)
/// in two steps, so that a caller can check every upload before it decodes
/// any, and decode each only when it needs it: `probe` reads the header,
/// `decode` the pixels. Both check the size from the header against the
/// limits before any pixel is decoded.
///
/// The bytes are only read, and only during the call.
public enum ImageDecoder {
    /// The kind and size of the image in `bytes`.
    public static func probe(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits = ImageSizeLimits()) throws(ImageDecodingError) -> ImageProbe {
        guard let kind = ImageKind(sniffing: bytes) else { throw .unrecognized }
        let probe = switch kind {
        case .png: try PNGInput.probe(bytes, limits: limits)
        case .jpeg: try JPEGInput.probe(bytes, limits: limits).shown
        case .gif: try GIFInput.probe(bytes, limits: limits)
        case .webp: try WebPInput.probe(bytes, limits: limits)
        case .heic, .avif: try HEIFInput.probe(bytes, kind: kind, limits: limits)
        }
        try limits.check(width: probe.width, height: probe.height)
        return probe
    }

    /// The pixels of the image in `bytes` (a GIF's or an animated WebP's
    /// first frame, on its canvas, as a browser shows it before it animates).
    ///
    /// `atLeast`: the size the caller needs, to decode fewer pixels when the
    /// image is larger, with less memory and time than scaling afterwards.
    /// A JPEG is decoded at the smallest of 1/1, 1/2, 1/4 or 1/8 of its size
    /// that is still at least that wide and that high (libjpeg scales while
    /// it decodes). A PNG, WebP, HEIC or AVIF is reduced to ceil(width / k) ×
    /// ceil(height / k) for the largest whole k (at most 256) that keeps it at
    /// least that large: a PNG row by row as it streams (never held whole at
    /// full size), each k × k cell averaged in premultiplied alpha; a WebP
    /// scaled by libwebp while it decodes (`WebPInput`); a HEIC or AVIF
    /// box-reduced as a PNG is, after libheif has decoded it whole
    /// (`HEIFInput`). A GIF is decoded at its full size.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits = ImageSizeLimits(),
        atLeast minimum: (width: Int, height: Int)? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        guard let kind = ImageKind(sniffing: bytes) else { throw .unrecognized }
        switch kind {
        case .png: return try PNGInput.decode(bytes, limits: limits, atLeast: minimum)
        case .jpeg: return try JPEGInput.decode(bytes, limits: limits, atLeast: minimum)
        case .gif: return try GIFInput.decodeFirstFrame(bytes, limits: limits)
        case .webp: return try WebPInput.decode(bytes, limits: limits, atLeast: minimum)
        case .heic, .avif: return try HEIFInput.decode(bytes, kind: kind, limits: limits, atLeast: minimum)
        }
    }
}
