import CWebP

/// WebP through libwebp: lossy, lossless and with alpha, the size read from
/// the header (`WebPGetFeatures`) before anything is decoded. An animation
/// gives its first frame on its canvas (through libwebpdemux), as a browser
/// shows it before it animates: drawn on a transparent canvas (the file's
/// background colour is a hint browsers ignore).
///
/// A reduced decode (to ceil(width / k) × ceil(height / k), k as
/// `BoxReduction.factor` chooses it) is libwebp's own, straight to that size
/// (`use_scaling`: it averages areas, a lossy image's in YUV, a lossless
/// one's colours in premultiplied alpha). But a lossy image with alpha is
/// decoded whole and then box-reduced, since libwebp's scaler would average
/// the colours of its transparent pixels into their neighbours; and so is
/// an animation's first frame that covers only part of its canvas.
enum WebPInput {
    static func probe(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) -> ImageProbe {
        let features = try features(of: bytes)
        let probe = ImageProbe(kind: .webp, width: Int(features.width), height: Int(features.height))
        try limits.check(width: probe.width, height: probe.height)
        return probe
    }

    /// The pixels (an animation's first frame on its canvas), reduced by
    /// `BoxReduction.factor` when `minimum` allows.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits, atLeast minimum: (width: Int, height: Int)?
    ) throws(ImageDecodingError) -> DecodedImage {
        let features = try features(of: bytes)
        let (width, height) = (Int(features.width), Int(features.height))
        try limits.check(width: width, height: height)
        let factor = BoxReduction.factor(width: width, height: height, atLeast: minimum)
        guard features.has_animation != 0 else { return try decodeStill(bytes, features, factor: factor) }
        return try decodeFirstFrame(bytes, canvasWidth: width, canvasHeight: height, factor: factor)
    }

    /// What the header of `bytes` (a file, or one frame of an animation) says.
    private static func features(of bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, reason: message(status)) }
        guard features.width > 0, features.height > 0 else { throw .corrupt(.webp, reason: "its size is 0") }
        return features
    }

    /// A still image (or an animation's frame that fills its canvas) of `features`' size.
    private static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, _ features: WebPBitstreamFeatures, factor: Int
    ) throws(ImageDecodingError) -> DecodedImage {
        let (width, height) = (Int(features.width), Int(features.height))
        if factor == 1 { return try decodeImage(bytes, width: width, height: height, scaled: false) }
        // WebPBitstreamFeatures.format: 1 lossy, 2 lossless (0 for a mix, which only animations have).
        if features.has_alpha != 0, features.format != 2 {
            return try BoxReduction.reduce(decodeImage(bytes, width: width, height: height, scaled: false), by: factor, kind: .webp)
        }
        return try decodeImage(bytes, width: reducedSide(width, by: factor), height: reducedSide(height, by: factor), scaled: true)
    }

    /// The first frame of an animated WebP on its canvas.
    private static func decodeFirstFrame(
        _ bytes: UnsafeRawBufferPointer, canvasWidth: Int, canvasHeight: Int, factor: Int
    ) throws(ImageDecodingError) -> DecodedImage {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { throw .corrupt(.webp, reason: "its animation cannot be read") }
        defer { WebPDemuxDelete(demuxer) }
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { throw .corrupt(.webp, reason: "it holds no frame") }
        defer { WebPDemuxReleaseIterator(&iterator) }
        let frame = UnsafeRawBufferPointer(start: iterator.fragment.bytes, count: iterator.fragment.size)
        let (left, top) = (Int(iterator.x_offset), Int(iterator.y_offset))
        let features = try features(of: frame)
        let (width, height) = (Int(features.width), Int(features.height))
        guard width == iterator.width, height == iterator.height, left >= 0, top >= 0,
              left + width <= canvasWidth, top + height <= canvasHeight else {
            throw .corrupt(.webp, reason: "its first frame does not fit its canvas")
        }
        if (left, top, width, height) == (0, 0, canvasWidth, canvasHeight) {
            return try decodeStill(frame, features, factor: factor)
        }
        // A smaller frame: decoded in place, rows a canvas apart, on the transparent canvas.
        var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        let status = canvas.withUnsafeMutableBytes { canvas in
            decode(
                frame, into: UnsafeMutableRawBufferPointer(rebasing: canvas[((top * canvasWidth + left) * 4)...]),
                stride: canvasWidth * 4, width: width, height: height, scaled: false
            )
        }
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, reason: message(status)) }
        let image = DecodedImage(width: canvasWidth, height: canvasHeight, pixels: canvas)
        return factor == 1 ? image : try BoxReduction.reduce(image, by: factor, kind: .webp)
    }

    /// `bytes` decoded to an image of `width` × `height` (libwebp's scaling
    /// to that size when `scaled`, else the size of its header).
    private static func decodeImage(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, scaled: Bool
    ) throws(ImageDecodingError) -> DecodedImage {
        var status = VP8_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = decode(bytes, into: UnsafeMutableRawBufferPointer(buffer), stride: width * 4, width: width, height: height, scaled: scaled)
            count = status == VP8_STATUS_OK ? buffer.count : 0
        }
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, reason: message(status)) }
        return DecodedImage(width: width, height: height, pixels: pixels)
    }

    /// Decodes `bytes` as straight RGBA into `output`, rows `stride` bytes
    /// apart, by libwebp's advanced API (its output in our memory).
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, stride: Int, width: Int, height: Int, scaled: Bool
    ) -> VP8StatusCode {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { return VP8_STATUS_INVALID_PARAM }
        if scaled {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(stride)
        config.output.u.RGBA.size = output.count
        let status = WebPDecode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
        WebPFreeDecBuffer(&config.output)
        return status
    }

    private static func message(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends early"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "a feature libwebp does not support"
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        default: "libwebp status \(status.rawValue)"
        }
    }
}
