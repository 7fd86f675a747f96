import HTTPServer
import MultipartFormData
import PagedotsDecode

/// What a carousel request sent: its slides, or a carousel GIF made
/// elsewhere, each probed (kind and size from its header, within the limits)
/// but not decoded.
struct CarouselUpload: Sendable {
    enum Content: Sendable {
        /// 2…20 slides, in the order sent.
        case slides([UploadedImage])
        /// One animated GIF, to which the indicator is added frame for frame.
        case carousel(UploadedImage)
    }

    private(set) var content: Content
    /// The request body that holds the slides in memory; nil once they are
    /// read from a temporary file instead (`spooled`).
    private var body: HTTPRequestBody?

    /// Slides per carousel.
    static let slideCount = 2...20
    /// A slide over these is refused from its header (4096 a side, 16,777,216 pixels: docs/carousel.md).
    static let slideLimits = ImageSizeLimits(maxSide: 4096, maxPixels: 16_777_216)
    /// A carousel GIF's screen over these is refused from its header (2,359,296 pixels, e.g. 1536 × 1536: docs/carousel.md).
    static let carouselLimits = ImageSizeLimits(maxSide: 4096, maxPixels: 2_359_296)

    /// Reads the parts of `body`, a `multipart/form-data` body with
    /// `boundary`, and probes each image; throws the first refusal.
    init(body: HTTPRequestBody, boundary: MultipartBoundary) throws(CarouselUploadError) {
        let limits = MultipartLimits(maxParts: Self.slideCount.upperBound, maxPartHeaderBytes: 8192, maxBodyBytes: body.count)
        let parts: [MultipartPart]
        do throws(MultipartError) {
            parts = try body.withUnsafeBytes { (bytes) throws(MultipartError) in
                try MultipartParser.parts(of: bytes, boundary: boundary, limits: limits)
            }
        } catch {
            throw CarouselUploadError(error)
        }
        try self.init(parts: parts.map { ($0.head.name, $0.head.filename, $0.contentRange) }, of: body)
    }

    /// Files read from disk (`pagedots carousel`), as if sent as parts named
    /// `name` in this order: the same checks, the same refusals.
    init(files: [(name: String, bytes: [UInt8])]) throws(CarouselUploadError) {
        var all: [UInt8] = []
        var parts: [(name: String, filename: String?, range: Range<Int>)] = []
        for file in files {
            let start = all.count
            all += file.bytes
            parts.append((file.name, nil, start..<all.count))
        }
        try self.init(parts: parts, of: HTTPRequestBody(all))
    }

    /// The upload whose parts, named as sent, lie at `range` in `body`.
    private init(parts: [(name: String, filename: String?, range: Range<Int>)], of body: HTTPRequestBody) throws(CarouselUploadError) {
        self.body = body
        for (index, part) in parts.enumerated() where !["slide", "carousel"].contains(part.name) {
            throw CarouselUploadError(CarouselUploadError.wrongParts("part \(index + 1) is named \"\(part.name)\""))
        }
        let carousels = parts.filter { $0.name == "carousel" }
        if let carousel = carousels.first {
            guard parts.count == 1 else {
                throw CarouselUploadError(CarouselUploadError.wrongParts(carousels.count > 1 ? "\(carousels.count) carousel parts" : "slides and a carousel together"))
            }
            let image = try UploadedImage(
                role: "carousel", filename: carousel.filename, body: body, range: carousel.range, limits: Self.carouselLimits
            )
            guard image.probe.kind == .gif else {
                throw CarouselUploadError(status: 415, "carousel: not a GIF (a carousel made elsewhere must be an animated GIF; send stills as slides)")
            }
            content = .carousel(image)
            return
        }
        guard Self.slideCount.contains(parts.count) else {
            throw CarouselUploadError(CarouselUploadError.wrongParts(parts.isEmpty ? "no parts" : "\(parts.count) slide\(parts.count == 1 ? "" : "s")"))
        }
        content = .slides(try parts.enumerated().map { (index, part) throws(CarouselUploadError) in
            try UploadedImage(
                role: "slide \(index + 1)", filename: part.filename, body: body, range: part.range, limits: Self.slideLimits
            )
        })
    }

    /// The same upload with its slides read from a temporary file copy of
    /// the body, so that the body's memory is let go of once nothing else
    /// holds it (a carousel GIF, read as it plays, stays in memory); the
    /// upload itself when no temporary file can be made.
    func spooled() -> CarouselUpload {
        guard case .slides(let slides) = content, let body, let file = SpooledBody(body) else { return self }
        var upload = self
        upload.content = .slides(slides.map { $0.spooled(to: file) })
        upload.body = nil
        return upload
    }
}
