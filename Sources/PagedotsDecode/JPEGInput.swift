import CImageCodecs

/// JPEG through libjpeg-turbo (`CImageCodecs`), turned as its EXIF
/// orientation says, as browsers show it.
enum JPEGInput {
    /// Bytes libjpeg may allocate while decoding. A baseline file needs
    /// little at any size (a band of rows, at the reduced size); a
    /// progressive one keeps every coefficient until its last scan, 2 bytes
    /// each: about 3 bytes a pixel at 4:2:0 (as cameras write them, so up to
    /// about 55 megapixels), 6 at 4:4:4 (about 27 megapixels). A file that
    /// needs more is refused with a message that says so.
    static let maxDecoderMemory = 160 << 20

    /// A JPEG's header: its size as stored, its orientation, and the size shown.
    struct Header {
        var storedWidth: Int
        var storedHeight: Int
        var orientation: JPEGOrientation

        var shown: ImageProbe {
            orientation.swapsSides
                ? ImageProbe(kind: .jpeg, width: storedHeight, height: storedWidth)
                : ImageProbe(kind: .jpeg, width: storedWidth, height: storedHeight)
        }
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) -> Header {
        var info = pd_image_info()
        guard pd_jpeg_decode(bytes.baseAddress, bytes.count, 1, 1, 0, 0, 0, nil, &info) == PD_OK else {
            throw .corrupt(.jpeg, reason: info.messageText)
        }
        let header = Header(storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: JPEGOrientation(exifIn: bytes))
        try limits.check(width: header.storedWidth, height: header.storedHeight)
        return header
    }

    static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits, atLeast minimum: (width: Int, height: Int)?
    ) throws(ImageDecodingError) -> DecodedImage {
        let header = try probe(bytes, limits: limits)
        let shown = header.shown
        // The largest reduction that keeps the shown size at least `minimum`.
        let denominator = [8, 4, 2].first { denominator in
            guard let minimum else { return false }
            return reducedSide(shown.width, by: denominator) >= minimum.width && reducedSide(shown.height, by: denominator) >= minimum.height
        } ?? 1
        let width = reducedSide(header.storedWidth, by: denominator)
        let height = reducedSide(header.storedHeight, by: denominator)
        var info = pd_image_info()
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = pd_jpeg_decode(
                bytes.baseAddress, bytes.count, UInt32(denominator), Int32(header.orientation.rawValue),
                UInt32(width), UInt32(height), Self.maxDecoderMemory, buffer.baseAddress, &info
            )
            count = status == PD_OK ? buffer.count : 0
        }
        guard status == PD_OK else { throw .corrupt(.jpeg, reason: info.messageText) }
        return header.orientation.swapsSides
            ? DecodedImage(width: height, height: width, pixels: pixels)
            : DecodedImage(width: width, height: height, pixels: pixels)
    }
}
