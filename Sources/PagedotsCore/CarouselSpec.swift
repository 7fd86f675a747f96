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
    /// Pixels per point, 1…4 in steps of 0.25 (`scale`, 2 by default). The
    /// indicator's own `scale` is this one rounded up, for its limits.
    public var scale: Double
    /// The most bytes the GIF may have (`budget`), if any.
    public var budget: Int?
    /// With `fade` or `push`: how many in-between pictures of the slides a
    /// change shows at most (a lighter carousel's; the indicator still moves
    /// at `fps`); nil for one a frame.
    public var slideSteps: Int?

    public init(
        indicator: IndicatorSpec, composition: CarouselComposition = CarouselComposition(), transition: Int? = nil, source: CarouselSource,
        plays: Int? = nil, scale: Double? = nil, budget: Int? = nil
    ) {
        self.indicator = indicator
        self.composition = composition
        self.transition = transition ?? indicator.transition
        self.source = source
        self.plays = plays ?? indicator.loop
        self.scale = scale ?? Double(indicator.scale)
        self.budget = budget
    }

    public var format: ImageFormat { indicator.format }
}

/// A size in points, whole or not (`X-Carousel-Size`).
public struct PointSize: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// `600x450`, `400.5x300`.
    public var text: String { DecimalText.format(width) + "x" + DecimalText.format(height) }
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
    /// The whole carousel's size in points, band included: the `<img>`'s
    /// `width` and `height`, the same at every scale.
    public var points: PointSize
    /// Pixels per point.
    public var scale: Double

    /// The most pixels a carousel has (e.g. 1536 × 1536; docs/carousel.md).
    public static let maxArea = 2_359_296
    /// The most pixels a carousel writes over all its frames.
    public static let maxPixelFrames = 400_000_000
    /// The widest the slides are by default, in points: an email's width.
    public static let defaultMaxWidth = 600.0

    /// The layout of `spec` at its own scale; throws when the indicator does
    /// not fit on the slides, or the carousel is over `maxArea`.
    public init(_ spec: CarouselSpec) throws(ParameterError) {
        try self.init(spec, scale: spec.scale)
    }

    /// The layout of `spec` drawn at `scale` pixels per point instead (a
    /// lighter carousel): the same size in points, fewer pixels.
    public init(_ spec: CarouselSpec, scale: Double) throws(ParameterError) {
        let slidePoints = Self.slidePoints(of: spec)
        let slideWidth = Self.pixels(slidePoints.width, scale: scale)
        let slideHeight = Self.pixels(slidePoints.height, scale: scale)
        let indicatorPoints = Self.indicatorPoints(spec.indicator)
        let indicatorSize = (width: Self.pixels(indicatorPoints.width, scale: scale), height: Self.pixels(indicatorPoints.height, scale: scale))
        self.scale = scale
        width = slideWidth
        points = slidePoints
        guard indicatorSize.width <= slideWidth else {
            throw ParameterError(
                "carousel", must: "be at least as wide as its indicator (\(indicatorSize.width) pixels)",
                got: "\(slideWidth) pixels (lower scale, size, spacing or padding, or raise slidesize)"
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
            points.height += indicatorPoints.height
            let bandY = spec.composition.place == .below ? slideHeight : 0
            band = PixelRect(x: 0, y: bandY, width: slideWidth, height: indicatorSize.height)
            slides = PixelRect(x: 0, y: bandY == 0 ? indicatorSize.height : 0, width: slideWidth, height: slideHeight)
            indicator = PixelRect(x: centredX, y: bandY, width: indicatorSize.width, height: indicatorSize.height)
        }
        guard width * height <= Self.maxArea else {
            throw ParameterError(
                "carousel", must: "be at most \(ImageLimits.grouped(Self.maxArea)) pixels in all (e.g. slidesize=768x768 at scale 2)",
                got: "\(width)x\(height) pixels (lower slidesize or scale)"
            )
        }
    }

    /// The slides' size in points: `slidesize` (its height, when not given,
    /// following the first slide's aspect ratio, in whole points); without
    /// it, the first slide's size in pixels at the spec's scale, scaled down
    /// to `defaultMaxWidth` points when wider (its height in whole points);
    /// a carousel GIF's screen at the spec's scale.
    static func slidePoints(of spec: CarouselSpec) -> PointSize {
        let (sourceWidth, sourceHeight) = spec.source.size
        let across = Double(max(sourceWidth, 1)), down = Double(max(sourceHeight, 1))
        func following(width: Double) -> PointSize {
            PointSize(width: width, height: max(1, (width * down / across).rounded(.toNearestOrAwayFromZero)))
        }
        switch spec.source {
        case .animation:
            return PointSize(width: across / spec.scale, height: down / spec.scale)
        case .slides:
            if let size = spec.composition.slideSize {
                return size.height.map { PointSize(width: Double(size.width), height: Double($0)) } ?? following(width: Double(size.width))
            }
            let width = across / spec.scale
            return width <= defaultMaxWidth ? PointSize(width: width, height: down / spec.scale) : following(width: defaultMaxWidth)
        }
    }

    /// The indicator's image size in points, as the renderer sizes its canvas.
    public static func indicatorPoints(_ spec: IndicatorSpec) -> PointSize {
        let fitted = IndicatorLayout.fittedSize(of: spec)
        return PointSize(width: spec.width ?? fitted.width, height: spec.height ?? fitted.height)
    }

    /// `round(points × scale)`, half up, as the renderer rounds.
    static func pixels(_ points: Double, scale: Double) -> Int {
        Int((points * scale).rounded(.toNearestOrAwayFromZero))
    }

    /// Refuses `frames` frames of this layout when they are over `maxPixelFrames`.
    func check(frames: Int) throws(ParameterError) {
        guard width * height * frames > Self.maxPixelFrames else { return }
        throw ParameterError(
            "carousel", must: "be at most \(ImageLimits.grouped(Self.maxPixelFrames)) pixels over all frames",
            got: "\(frames) frames of \(width)x\(height) pixels (lower fps, transition or pages, use change=cut, or lower slidesize)"
        )
    }
}
