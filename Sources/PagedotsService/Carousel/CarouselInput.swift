import HTTPServer
import MultipartFormData
import PagedotsDecode

/// The pictures a carousel is made of: its slides, or a carousel GIF made
/// elsewhere, each probed (kind and size from its header, within the
/// limits) but not decoded. Built from a `multipart/form-data` upload,
/// from files (`pagedots carousel`), or from fetched sources: the same
/// checks and refusals whichever way.
struct CarouselInput: Sendable {
    enum Content: Sendable {
        /// 2…20 slides, in order.
        case slides([CarouselImage])
        /// One animated GIF, to which the indicator is added frame for frame.
        case carousel(CarouselImage)
    }

    /// One image as it arrived: `slide` or `carousel`, and where its bytes are.
    struct Source: Sendable {
        var name: String
        var filename: String?
        var bytes: ImageBytes
    }

    private(set) var content: Content

    /// Slides per carousel.
    static let slideCount = 2...20
    /// A slide over these is refused from its header (8192 a side, 50,000,000 pixels: docs/carousel.md).
    static let slideLimits = ImageSizeLimits(maxSide: 8192, maxPixels: 50_000_000)
    /// A carousel GIF's screen over these is refused from its header (2,359,296 pixels, e.g. 1536 × 1536: docs/carousel.md).
    static let carouselLimits = ImageSizeLimits(maxSide: 4096, maxPixels: 2_359_296)

    /// Reads the parts of `body`, a `multipart/form-data` body with
    /// `boundary`, and probes each image; throws the first refusal.
    init(body: HTTPRequestBody, boundary: MultipartBoundary) throws(CarouselInputError) {
        let limits = MultipartLimits(maxParts: Self.slideCount.upperBound, maxPartHeaderBytes: 8192, maxBodyBytes: body.count)
        let parts: [MultipartPart]
        do throws(MultipartError) {
            parts = try body.withUnsafeBytes { (bytes) throws(MultipartError) in
                try MultipartParser.parts(of: bytes, boundary: boundary, limits: limits)
            }
        } catch {
            throw CarouselInputError(error)
        }
        try self.init(sources: parts.map { Source(name: $0.head.name, filename: $0.head.filename, bytes: .body(body, $0.contentRange)) })
    }

    /// Files read from disk (`pagedots carousel`), as if sent as parts named
    /// `name` in this order: the same checks, the same refusals.
    init(files: [(name: String, bytes: [UInt8])]) throws(CarouselInputError) {
        try self.init(sources: files.map { Source(name: $0.name, filename: nil, bytes: .memory(SharedBytes($0.bytes))) })
    }

    /// The input of `sources`, named as they came: 2…20 slides, or one carousel.
    init(sources: [Source]) throws(CarouselInputError) {
        for (index, source) in sources.enumerated() where !["slide", "carousel"].contains(source.name) {
            throw CarouselInputError(CarouselInputError.wrongParts("part \(index + 1) is named \"\(source.name)\""))
        }
        let carousels = sources.filter { $0.name == "carousel" }
        if let carousel = carousels.first {
            guard sources.count == 1 else {
                throw CarouselInputError(CarouselInputError.wrongParts(carousels.count > 1 ? "\(carousels.count) carousel parts" : "slides and a carousel together"))
            }
            let image = try CarouselImage(role: "carousel", filename: carousel.filename, bytes: carousel.bytes, limits: Self.carouselLimits)
            guard image.probe.kind == .gif else {
                throw CarouselInputError(status: 415, "carousel: not a GIF (a carousel made elsewhere must be an animated GIF; send stills as slides)")
            }
            content = .carousel(image)
            return
        }
        guard Self.slideCount.contains(sources.count) else {
            throw CarouselInputError(CarouselInputError.wrongParts(sources.isEmpty ? "no parts" : "\(sources.count) slide\(sources.count == 1 ? "" : "s")"))
        }
        content = .slides(try sources.enumerated().map { (index, source) throws(CarouselInputError) in
            try CarouselImage(role: "slide \(index + 1)", filename: source.filename, bytes: source.bytes, limits: Self.slideLimits)
        })
    }

    /// The same input with the slides that lie in a request body read
    /// from a temporary file copy of it instead, so that the body's memory
    /// is let go of once nothing else holds it (a carousel GIF, read as it
    /// plays, stays where it is); itself when there is nothing to move or
    /// no temporary file can be made.
    func spooled() -> CarouselInput {
        guard case .slides(let slides) = content, case .body(let body, _) = slides[0].bytes,
              let file = body.withUnsafeBytes({ SpooledFile(UnsafeRawBufferPointer($0)) })
        else { return self }
        var input = self
        input.content = .slides(slides.map { slide in
            guard case .body(let holder, let range) = slide.bytes, holder === body else { return slide }
            return slide.spooled(to: file, at: range)
        })
        return input
    }
}
