import CHeif
import CImageCodecs

/// HEIC and AVIF through libheif (HEVC decoded by libde265, AV1 by dav1d, as
/// Debian builds it): the primary image with its transformations (rotation,
/// mirroring, cropping) applied, as browsers show it, so the probe's size
/// is the shown one; alpha where the file has it; 10- and 12-bit images
/// scaled to 8 bits.
///
/// Sizes are checked three times: libheif refuses any image in the file
/// declared (`ispe`) much over `maxSide` a side while it reads the boxes
/// (and a grid whose tiles would make more, when it decodes); the primary
/// image's shown size is checked against every limit (so far, a probe);
/// and when it is decoded, the decoders (`pd_heif_register_bounded_decoders`)
/// refuse a frame whose codec header declares more than the limits, with
/// room for padding, before they allocate it: a file's boxes may say 64 × 64
/// and its HEVC or AV1 data 30,000 × 30,000, which a probe does not see.
///
/// libheif 1.15 cannot decode at a reduced size: the image is decoded
/// whole, as the limits allow. To keep that cheap, it is asked for planar
/// RGB, which is what it composes a grid of tiles into (a phone's photos
/// are grids), so no interleaved copy is made at full size: the planes are
/// interleaved row by row into the result, or box-reduced row by row when
/// the caller needs fewer pixels, so that only the reduced image is added
/// to the planes (3 bytes a pixel, 4 with alpha) and the codec's buffers.
/// Everything is decoded on the calling thread.
enum HEIFInput {
    static func probe(_ bytes: UnsafeRawBufferPointer, kind: ImageKind, limits: ImageSizeLimits) throws(ImageDecodingError) -> ImageProbe {
        try withPrimaryImage(bytes, kind: kind, limits: limits) { _, probe in probe }
    }

    /// The primary image's pixels, reduced by `BoxReduction.factor` when `minimum` allows.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, kind: ImageKind, limits: ImageSizeLimits, atLeast minimum: (width: Int, height: Int)?
    ) throws(ImageDecodingError) -> DecodedImage {
        try withPrimaryImage(bytes, kind: kind, limits: limits) { (handle, probe) throws(ImageDecodingError) in
            _ = boundedDecoders
            pd_heif_set_frame_limits(UInt32(clamping: limits.maxSide + codingPadding), UInt64(clamping: maxFramePixels(limits)))
            var decoded: OpaquePointer?
            try check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_444, nil), kind: kind, limits: limits)
            guard let decoded else { throw .corrupt(kind, reason: "libheif gave no image") }
            defer { heif_image_release(decoded) }
            let planes = try PlanarRGB(decoded, width: probe.width, height: probe.height, kind: kind)
            let factor = BoxReduction.factor(width: probe.width, height: probe.height, atLeast: minimum)
            guard factor > 1 else { return planes.interleaved() }
            return try BoxReduction.reduce(width: probe.width, height: probe.height, by: factor, kind: kind, rows: planes.interleave)
        }
    }

    /// Registers the bounded decoders, once, when an image is first decoded.
    private static let boundedDecoders: Void = pd_heif_register_bounded_decoders()

    /// How far a coded frame may exceed the shown image, right and below:
    /// encoders pad it to whole coding blocks (64 pixels for HEVC, 128 for
    /// AV1) and crop it with a clap box.
    private static let codingPadding = 256

    /// The most pixels a coded frame of an image within `limits` may have, padding included.
    private static func maxFramePixels(_ limits: ImageSizeLimits) -> Int {
        let side = min(limits.maxSide, 1 << 24)
        return min(limits.maxPixels, 1 << 48) + codingPadding * (2 * side + codingPadding)
    }

    /// Reads the file's boxes (no pixel) and runs `body` with its primary
    /// image and that image's size, once the size is within the limits.
    private static func withPrimaryImage<Result>(
        _ bytes: UnsafeRawBufferPointer, kind: ImageKind, limits: ImageSizeLimits,
        _ body: (OpaquePointer, ImageProbe) throws(ImageDecodingError) -> Result
    ) throws(ImageDecodingError) -> Result {
        guard let context = heif_context_alloc() else { throw .corrupt(kind, reason: "out of memory") }
        defer { heif_context_free(context) }
        // libheif's limit bounds what it allocates; the exact check is ours, on the shown size, below.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: min(limits.maxSide, 1 << 24) + codingPadding))
        // Tiles decoded on the calling thread: callers decode images on threads of their own.
        heif_context_set_max_decoding_threads(context, 0)
        try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), kind: kind, limits: limits)
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), kind: kind, limits: limits)
        guard let handle else { throw .corrupt(kind, reason: "it has no primary image") }
        defer { heif_image_handle_release(handle) }
        let probe = ImageProbe(kind: kind, width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        guard probe.width > 0, probe.height > 0 else { throw .corrupt(kind, reason: "its primary image has no size") }
        try limits.check(width: probe.width, height: probe.height)
        return try body(handle, probe)
    }

    /// Throws libheif's error, if any: a size over its limit as `tooLarge`.
    private static func check(_ error: heif_error, kind: ImageKind, limits: ImageSizeLimits) throws(ImageDecodingError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        if error.subcode == heif_suberror_Security_limit_exceeded, let size = firstSize(in: message) {
            throw .tooLarge(width: size.width, height: size.height, limits: limits)
        }
        throw .corrupt(kind, reason: String(message.prefix { $0 != "\n" }))
    }

    /// The first `WxH` in libheif's message, which states the size it
    /// refused first: `… Image size 100000x100000 exceeds the maximum image size 8193x8193`.
    private static func firstSize(in message: String) -> (width: Int, height: Int)? {
        for word in message.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let sides = word.split(separator: "x", omittingEmptySubsequences: false)
            if sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) { return (width, height) }
        }
        return nil
    }
}

/// A decoded image's red, green, blue and (if any) alpha planes, read in
/// place: 8 bits a sample, or 9 to 16 (a 10- or 12-bit image, which libheif
/// brings down to 8 bits only when it interleaves) in 16, scaled to 8 here.
private struct PlanarRGB {
    private struct Plane {
        let start: UnsafeRawPointer
        let stride: Int
        let bits: Int

        /// Row `y`'s samples, as 8 bits, into every fourth byte of `row` from `channel`.
        func copy(row y: Int, width: Int, into row: UnsafeMutableBufferPointer<UInt8>, channel: Int) {
            let samples = start + y * stride
            if bits == 8 {
                for x in 0..<width { row[4 * x + channel] = samples.load(fromByteOffset: x, as: UInt8.self) }
            } else {
                let maximum = (1 << bits) - 1
                for x in 0..<width {
                    let sample = Int(samples.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                    row[4 * x + channel] = UInt8(min(255, (sample * 255 + maximum / 2) / maximum))
                }
            }
        }
    }

    let width: Int
    let height: Int
    private let colors: [Plane]
    private let alpha: Plane?

    /// The planes of `image`, which must be `width` × `height` (the size its header declared).
    init(_ image: OpaquePointer, width: Int, height: Int, kind: ImageKind) throws(ImageDecodingError) {
        func plane(_ channel: heif_channel) throws(ImageDecodingError) -> Plane {
            guard heif_image_get_width(image, channel) == width, heif_image_get_height(image, channel) == height else {
                throw .corrupt(kind, reason: "its decoded size differs from its header's")
            }
            var stride: Int32 = 0
            let bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard (8...16).contains(bits), let start = heif_image_get_plane_readonly(image, channel, &stride),
                  Int(stride) >= width * (bits == 8 ? 1 : 2) else {
                throw .corrupt(kind, reason: "libheif gave a plane of \(bits) bits a sample")
            }
            return Plane(start: UnsafeRawPointer(start), stride: Int(stride), bits: bits)
        }
        self.width = width
        self.height = height
        colors = [try plane(heif_channel_R), try plane(heif_channel_G), try plane(heif_channel_B)]
        alpha = heif_image_has_channel(image, heif_channel_Alpha) != 0 ? try plane(heif_channel_Alpha) : nil
    }

    /// Row `y` as straight RGBA into `row`, which holds `width` pixels.
    func interleave(_ y: Int, into row: UnsafeMutableBufferPointer<UInt8>) {
        for (channel, plane) in colors.enumerated() {
            plane.copy(row: y, width: width, into: row, channel: channel)
        }
        if let alpha {
            alpha.copy(row: y, width: width, into: row, channel: 3)
        } else {
            for x in 0..<width { row[4 * x + 3] = 255 }
        }
    }

    /// The whole image as straight RGBA.
    func interleaved() -> DecodedImage {
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                interleave(y, into: UnsafeMutableBufferPointer(rebasing: buffer[(y * width * 4)..<((y + 1) * width * 4)]))
            }
            count = buffer.count
        }
        return DecodedImage(width: width, height: height, pixels: pixels)
    }
}
