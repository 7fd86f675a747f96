import CImageCodecs

/// PNG through libpng (`CImageCodecs`): libpng's user limits refuse an
/// oversized header before it allocates anything for the pixels; a PNG
/// larger than needed is reduced row by row as it is read.
enum PNGInput {
    static func probe(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) -> ImageProbe {
        var info = pd_image_info()
        let status = pd_png_decode(bytes.baseAddress, bytes.count, UInt32(limits.maxSide), UInt32(limits.maxSide), nil, &info)
        try check(status, info, bytes, limits: limits)
        return ImageProbe(kind: .png, width: Int(info.width), height: Int(info.height))
    }

    /// The pixels, reduced by `BoxReduction.factor` while they stream when
    /// `minimum` allows (never held whole at full size), else at full size.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits, atLeast minimum: (width: Int, height: Int)?
    ) throws(ImageDecodingError) -> DecodedImage {
        let probe = try probe(bytes, limits: limits)
        try limits.check(width: probe.width, height: probe.height)
        let factor = BoxReduction.factor(width: probe.width, height: probe.height, atLeast: minimum)
        let width = reducedSide(probe.width, by: factor)
        let height = reducedSide(probe.height, by: factor)
        var info = pd_image_info()
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = factor == 1
                ? pd_png_decode(bytes.baseAddress, bytes.count, UInt32(probe.width), UInt32(probe.height), buffer.baseAddress, &info)
                : pd_png_decode_reduced(
                    bytes.baseAddress, bytes.count, UInt32(probe.width), UInt32(probe.height), UInt32(factor), buffer.baseAddress, &info
                )
            // On failure the buffer holds what was decoded, and the rest is thrown away with it.
            count = status == PD_OK ? buffer.count : 0
        }
        try check(status, info, bytes, limits: limits)
        return DecodedImage(width: width, height: height, pixels: pixels)
    }

    private static func check(
        _ status: Int32, _ info: pd_image_info, _ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits
    ) throws(ImageDecodingError) {
        switch Int(status) {
        case Int(PD_OK):
            return
        case Int(PD_TOO_LARGE) where bytes.count >= 24:
            // libpng refused the IHDR, which is the first chunk: its width and height are bytes 16–23.
            let word = { (start: Int) in bytes[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) } }
            throw .tooLarge(width: word(16), height: word(20), limits: limits)
        default:
            throw .corrupt(.png, reason: info.messageText)
        }
    }
}

extension pd_image_info {
    /// The C library's message.
    var messageText: String {
        withUnsafeBytes(of: message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
