import PagedotsPixels

/// What a carousel is made of, as far as its timing and size go: slides, or
/// a carousel GIF made elsewhere (read from their headers, not decoded).
public enum CarouselSource: Hashable, Sendable {
    /// `count` slides, the first `width × height` pixels (every slide is
    /// scaled to that size).
    case slides(count: Int, width: Int, height: Int)
    /// An animated GIF: its screen, each frame's delay as browsers play it
    /// (milliseconds, `GIFFrameInfo.playedMilliseconds`), and its loop
    /// extension's repetition count (nil without one: it plays once).
    case animation(width: Int, height: Int, delays: [Int], loopCount: Int?)

    /// The slides' size in pixels (without a band for the indicator).
    public var size: (width: Int, height: Int) {
        switch self {
        case .slides(_, let width, let height), .animation(let width, let height, _, _): (width, height)
        }
    }
}

/// A fully validated carousel (docs/carousel.md): its indicator (an
/// animated spec, whose `pages` is the number of slides), how the slides and
/// the indicator are put together, and where the pictures come from.
public struct CarouselSpec: Hashable, Sendable {
    /// The indicator, animated (`format` is GIF or APNG: the carousel's).
    public var indicator: IndicatorSpec
    public var composition: CarouselComposition
    /// Milliseconds the slides take to change (`transition` as given), kept
    /// even where the indicator cuts (`effect=none`).
    public var transition: Int
    public var source: CarouselSource
    /// How many times the cycle plays in all, 0 forever: `loop`, or a carousel
    /// GIF's own count when `loop` is not given.
    public var plays: Int

    public init(indicator: IndicatorSpec, composition: CarouselComposition = CarouselComposition(), transition: Int? = nil, source: CarouselSource, plays: Int? = nil) {
        self.indicator = indicator
        self.composition = composition
        self.transition = transition ?? indicator.transition
        self.source = source
        self.plays = plays ?? indicator.loop
    }

    public var format: ImageFormat { indicator.format }
}

/// Where a carousel's parts lie on its canvas, in pixels: the slides, the
/// indicator's image (its padding included), and the band it has of its own
/// with `place=below` or `above`.
public struct CarouselLayout: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var slides: PixelRect
    /// The indicator's image: the capsule `backdrop` fills, with `place=over`.
    public var indicator: PixelRect
    /// With `place=below` or `above`: the band, filled with `bg` (`matte` when `bg` is transparent).
    public var band: PixelRect?

    /// The most pixels a carousel has (e.g. 1536 × 1536; docs/carousel.md).
    public static let maxArea = 2_359_296
    /// The most pixels a carousel writes over all its frames.
    public static let maxPixelFrames = 400_000_000

    /// The layout of `spec`; throws when the indicator does not fit on the
    /// slides, or the carousel is over `maxArea`.
    public init(_ spec: CarouselSpec) throws(ParameterError) {
        let (slideWidth, slideHeight) = spec.source.size
        let indicatorSize = Self.indicatorPixels(spec.indicator)
        let scale = Double(spec.indicator.scale)
        width = slideWidth
        guard indicatorSize.width <= slideWidth else {
            throw ParameterError(
                "carousel", must: "be at least as wide as its indicator (\(indicatorSize.width) pixels)",
                got: "\(slideWidth) pixels (lower scale, size, spacing or padding)"
            )
        }
        let centredX = (slideWidth - indicatorSize.width) / 2
        switch spec.composition.place {
        case .over:
            height = slideHeight
            slides = PixelRect(x: 0, y: 0, width: slideWidth, height: slideHeight)
            band = nil
            let inset = Int((spec.composition.inset * scale).rounded(.toNearestOrAwayFromZero))
            if spec.indicator.direction.isVertical {
                indicator = PixelRect(
                    x: slideWidth - inset - indicatorSize.width, y: (slideHeight - indicatorSize.height) / 2,
                    width: indicatorSize.width, height: indicatorSize.height
                )
            } else {
                indicator = PixelRect(
                    x: centredX, y: slideHeight - inset - indicatorSize.height, width: indicatorSize.width, height: indicatorSize.height
                )
            }
            guard indicator.x >= 0, indicator.y >= 0 else {
                throw ParameterError(
                    "inset", must: "leave room for the indicator (\(indicatorSize.width)x\(indicatorSize.height) pixels) on the slides",
                    got: "\"\(DecimalText.format(spec.composition.inset))\" on \(slideWidth)x\(slideHeight) pixels"
                )
            }
        case .below, .above:
            height = slideHeight + indicatorSize.height
            let bandY = spec.composition.place == .below ? slideHeight : 0
            band = PixelRect(x: 0, y: bandY, width: slideWidth, height: indicatorSize.height)
            slides = PixelRect(x: 0, y: bandY == 0 ? indicatorSize.height : 0, width: slideWidth, height: slideHeight)
            indicator = PixelRect(x: centredX, y: bandY, width: indicatorSize.width, height: indicatorSize.height)
        }
        guard width * height <= Self.maxArea else {
            throw ParameterError(
                "carousel", must: "be at most \(ImageLimits.grouped(Self.maxArea)) pixels in all (e.g. 1536x1536)",
                got: "\(width)x\(height) pixels (send smaller slides)"
            )
        }
    }

    /// The indicator's image size in pixels, as the renderer sizes its canvas.
    static func indicatorPixels(_ spec: IndicatorSpec) -> (width: Int, height: Int) {
        let fitted = IndicatorLayout.fittedSize(of: spec)
        let pixels = ImageLimits.pixels(Size(width: spec.width ?? fitted.width, height: spec.height ?? fitted.height), scale: spec.scale)
        return (Int(pixels.width), Int(pixels.height))
    }

    /// Refuses `frames` frames of this layout when they are over `maxPixelFrames`.
    func check(frames: Int) throws(ParameterError) {
        guard width * height * frames > Self.maxPixelFrames else { return }
        throw ParameterError(
            "carousel", must: "be at most \(ImageLimits.grouped(Self.maxPixelFrames)) pixels over all frames",
            got: "\(frames) frames of \(width)x\(height) pixels (lower fps, transition or pages, use change=cut, or send smaller slides)"
        )
    }
}
