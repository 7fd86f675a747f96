import PagedotsCore
import PagedotsDecode
import PagedotsRender

/// A carousel from its upload and its query: what `POST /carousel` and
/// `pagedots carousel` both do, so that they write the same bytes.
enum CarouselDrawing {
    /// Validates `parameters` (the query, its presets expanded) for `upload`
    /// under the path's `options`; throws the refusal.
    static func request(
        for upload: CarouselUpload, parameters: Substring, options: PathOptions, calendar: CalendarContext
    ) throws(ServiceError) -> CarouselRequest {
        let source: CarouselSource
        switch upload.content {
        case .slides(let slides):
            source = .slides(count: slides.count, width: slides[0].probe.width, height: slides[0].probe.height)
        case .carousel(let carousel):
            let animation: GIFAnimation
            do throws(CarouselUploadError) {
                animation = try carousel.animation()
            } catch {
                throw .upload(error)
            }
            source = .animation(
                width: animation.width, height: animation.height, delays: animation.frames.map(\.playedMilliseconds), loopCount: animation.loopCount
            )
        }
        do {
            return try CarouselQuery.parse(query: parameters, options: options, source: source, calendar: calendar)
        } catch {
            throw .badParameter(error)
        }
    }

    /// Draws and encodes a validated carousel with `maker` into a
    /// `CarouselFile`, decoding the upload's pictures as the frames need
    /// them; throws a picture's refusal.
    static func draw(_ request: CarouselRequest, upload: CarouselUpload, maker: ImageMaker) throws(ServiceError) -> CarouselFile {
        let file = CarouselFile(contentType: request.spec.format.mediaType)
        do {
            try maker.makeCarousel(request, pictures: pictures(of: upload), into: file.write)
            return file
        } catch let error as CarouselUploadError {
            throw .upload(error)
        } catch {
            throw .upload(CarouselUploadError("\(error)"))
        }
    }

    /// The pictures of `upload`, decoded when asked for.
    private static func pictures(of upload: CarouselUpload) -> CarouselPictures {
        switch upload.content {
        case .slides(let slides):
            return CarouselPictures(
                slideSizes: slides.map { ($0.probe.width, $0.probe.height) },
                slide: { index, minimum in RGBAImage(try slides[index].decode(atLeast: minimum)) },
                sourceFrame: { _ in preconditionFailure("slides have no source frames") }
            )
        case .carousel(let carousel):
            let frames = SourceFrames(carousel)
            return CarouselPictures(slideSizes: [], slide: { _, _ in preconditionFailure("a carousel GIF has no slides") }, sourceFrame: frames.frame(at:))
        }
    }
}

/// A carousel GIF's frames as browsers show them, played in order, and
/// played again from the first when an earlier one is asked for (an
/// encoder's second pass): one canvas in memory.
private final class SourceFrames {
    private let carousel: UploadedImage
    private var player: GIFFramePlayer?
    /// The index of the frame the player showed last, and its pixels.
    private var shown: (index: Int, image: DecodedImage)?

    init(_ carousel: UploadedImage) {
        self.carousel = carousel
    }

    func frame(at index: Int) throws -> RGBAImage {
        if let shown, shown.index == index { return RGBAImage(shown.image) }
        if player == nil || (shown?.index ?? -1) > index {
            player = try carousel.framePlayer()
            shown = nil
        }
        while (shown?.index ?? -1) < index {
            guard let frame = try player?.next() else {
                throw CarouselUploadError("\(carousel.role): has fewer frames than its timeline")
            }
            shown = ((shown?.index ?? -1) + 1, frame.image)
        }
        guard let shown else { throw CarouselUploadError("\(carousel.role): no frames") }
        return RGBAImage(shown.image)
    }
}

extension RGBAImage {
    /// A decoded image's pixels (the same layout).
    init(_ image: DecodedImage) {
        self.init(width: image.width, height: image.height, pixels: image.pixels)
    }
}
