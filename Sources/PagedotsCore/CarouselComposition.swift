/// How one slide gives way to the next during a carousel's `transition`
/// (docs/carousel.md).
public enum SlideChange: String, CaseIterable, Sendable {
    /// A cross-fade.
    case fade
    /// The next slide pushes the current one out, in the reading direction of `direction`.
    case push
    /// A cut, when the indicator arrives at the next page.
    case cut
}

/// Where a carousel's indicator is.
public enum IndicatorPlace: String, CaseIterable, Sendable {
    /// Over the slides, `inset` from their bottom edge (the right edge for a vertical direction).
    case over
    /// In a band of the indicator's height under the slides.
    case below
    /// In a band of the indicator's height above the slides.
    case above
}

/// How a slide of another size than the first is made the first's size.
public enum SlideFit: String, CaseIterable, Sendable {
    /// Scaled to cover it, centred, cropped.
    case cover
    /// Scaled to fit in it, centred on `matte`.
    case contain
}

/// The slides' size in points asked for (`slidesize`): the height nil when
/// it follows the first slide's aspect ratio.
public struct SlideSize: Hashable, Sendable {
    public var width: Int
    public var height: Int?

    public init(width: Int, height: Int?) {
        self.width = width
        self.height = height
    }
}

/// A carousel's own parameters (`change`, `place`, `inset`, `backdrop`,
/// `fit`, `slidesize`): how its slides and its indicator are put together.
public struct CarouselComposition: Hashable, Sendable {
    public var change: SlideChange = .cut
    public var place: IndicatorPlace = .over
    /// Points between the indicator and the edge, with `place=over`.
    public var inset: Double = 12
    /// A capsule behind the indicator, with `place=over`; transparent draws none.
    public var backdrop: RGBA = .transparent
    public var fit: SlideFit = .cover
    /// The slides' size asked for; nil: the first slide's, at most 600 points wide.
    public var slideSize: SlideSize?

    public init() {}
}
