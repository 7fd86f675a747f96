import PagedotsCore
import PagedotsDecode
import PagedotsRender

/// A carousel from its input and its query: what `POST /carousel`, `GET
/// /carousel?slide=URL` and `pagedots carousel` all do, so that they write
/// the same bytes.
enum CarouselDrawing {
    /// Validates `parameters` (the query, its presets expanded) for `input`
    /// under the path's `options`; throws the refusal.
    static func request(
        for input: CarouselInput, parameters: Substring, options: PathOptions, calendar: CalendarContext
    ) throws(ServiceError) -> CarouselRequest {
        let source: CarouselSource
        switch input.content {
        case .slides(let slides):
            source = .slides(count: slides.count, width: slides[0].probe.width, height: slides[0].probe.height)
        case .carousel(let carousel):
            let animation: GIFAnimation
            do throws(CarouselInputError) {
                animation = try carousel.animation()
            } catch {
                throw .carouselInput(error)
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
    /// `CarouselFile`, decoding the input's pictures as the frames need
    /// them, within its `budget` if it has one (and then with what was
    /// chosen); throws the first picture's refusal, or a `422` when nothing
    /// fits the budget.
    static func draw(_ request: CarouselRequest, input: CarouselInput, maker: ImageMaker) throws(ServiceError) -> (file: CarouselFile, encoding: CarouselEncoding?) {
        do throws(CarouselInputError) {
            guard let budget = request.spec.budget else {
                let file = CarouselFile(contentType: request.spec.format.mediaType)
                try maker.makeCarousel(request, pictures: pictures(of: input), into: file.write)
                return (file, nil)
            }
            switch try CarouselBudget(request: request, budget: budget, pictures: pictures(of: input), maker: maker).make() {
            case .fits(let file, let encoding):
                return (file, encoding)
            case .tooHeavy(let smallest, let encoding):
                throw CarouselInputError(
                    status: 422,
                    "budget: the smallest this carousel comes to is \(ImageLimits.grouped(smallest)) bytes (\(encoding.phrase)); "
                        + (request.spec.composition.change == .cut ? "try a smaller slidesize or fewer slides" : "try change=cut or a smaller slidesize")
                )
            }
        } catch {
            throw .carouselInput(error)
        }
    }

    /// The pictures of `input`, decoded when asked for.
    private static func pictures(of input: CarouselInput) -> CarouselPictures<CarouselInputError> {
        switch input.content {
        case .slides(let slides):
            return CarouselPictures(
                slideSizes: slides.map { ($0.probe.width, $0.probe.height) },
                slide: { (index, minimum) throws(CarouselInputError) in RGBAImage(try slides[index].decode(atLeast: minimum)) },
                sourceFrame: { (_) throws(CarouselInputError) in preconditionFailure("slides have no source frames") }
            )
        case .carousel(let carousel):
            let frames = SourceFrames(carousel)
            return CarouselPictures(
                slideSizes: [], slide: { (_, _) throws(CarouselInputError) in preconditionFailure("a carousel GIF has no slides") },
                sourceFrame: { (index) throws(CarouselInputError) in try frames.frame(at: index) }
            )
        }
    }
}

/// A carousel GIF's frames as browsers show them, played in order, and
/// played again from the first when an earlier one is asked for (an
/// encoder's second pass): one canvas in memory.
private final class SourceFrames {
    private let carousel: CarouselImage
    private var player: GIFFramePlayer?
    /// The index of the frame the player showed last, and its pixels.
    private var shown: (index: Int, image: DecodedImage)?

    init(_ carousel: CarouselImage) {
        self.carousel = carousel
    }

    func frame(at index: Int) throws(CarouselInputError) -> RGBAImage {
        if let shown, shown.index == index { return RGBAImage(shown.image) }
        if player == nil || (shown?.index ?? -1) > index {
            player = try carousel.framePlayer()
            shown = nil
        }
        while (shown?.index ?? -1) < index {
            let next: GIFFramePlayer.Frame?
            do throws(ImageDecodingError) {
                next = try player?.next()
            } catch {
                throw CarouselInputError(role: carousel.role, error)
            }
            guard let frame = next else {
                throw CarouselInputError("\(carousel.role): has fewer frames than its timeline")
            }
            shown = ((shown?.index ?? -1) + 1, frame.image)
        }
        guard let shown else { throw CarouselInputError("\(carousel.role): no frames") }
        return RGBAImage(shown.image)
    }
}

extension RGBAImage {
    /// A decoded image's pixels (the same layout).
    init(_ image: DecodedImage) {
        self.init(width: image.width, height: image.height, pixels: image.pixels)
    }
}
