/// A GIF's header and first frame, for an upload used as a still.
enum GIFInput {
    static func probe(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) -> ImageProbe {
        let stream = try GIFStream(bytes, limits: limits)
        return ImageProbe(kind: .gif, width: stream.width, height: stream.height)
    }

    /// The first frame on the screen, as a browser shows it before it animates.
    static func decodeFirstFrame(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) -> DecodedImage {
        let stream = try GIFStream(bytes, limits: limits)
        var canvas = GIFCanvas(width: stream.width, height: stream.height)
        guard let frame = try stream.nextImage() else { throw .corrupt(.gif, reason: "it holds no image") }
        try canvas.draw(frame, from: stream)
        return canvas.image
    }
}
