/// How the indicators are laid out and drawn (docs/styles.md).
public enum Style: String, CaseIterable, Sendable {
    case dots, pill, bar, scroll, progress
    /// The page as text, `3 / 7`.
    case fraction
}

/// The order of the pages along the row, as `UIPageControl.Direction`.
public enum Direction: String, CaseIterable, Sendable {
    case ltr, rtl, ttb, btt

    /// Whether the row runs vertically (the `ltr` image transposed).
    public var isVertical: Bool { self == .ttb || self == .btt }
}

/// Whether inactive indicators are filled or drawn as rings.
public enum Fill: String, CaseIterable, Sendable {
    case solid, outline
}

/// The outline of one indicator.
public enum Shape: String, CaseIterable, Sendable {
    case circle, square, rounded, diamond, star, heart
}

/// The encoding of the answer.
public enum ImageFormat: String, CaseIterable, Sendable {
    case png, svg
    /// Animated (docs/parameters.md, "Animation"): GIF, and APNG (a PNG that
    /// clients which do not animate it show as its first frame).
    case gif, apng

    /// Whether the image is an animation of the carousel's cycle.
    public var isAnimated: Bool {
        switch self {
        case .png, .svg: false
        case .gif, .apng: true
        }
    }
}

/// How an animation moves the current indicator from one page to the next
/// (docs/styles.md, "Animation").
public enum Effect: String, CaseIterable, Sendable {
    /// The current indicator travels to the next position.
    case slide
    /// It stretches to reach the next position, then its tail follows.
    case worm
    /// The two indicators cross-fade in place.
    case fade
    /// A cut at the end of the dwell.
    case none
}

/// Which colours an image is drawn in (docs/parameters.md, "Themes").
public enum Theme: String, CaseIterable, Sendable {
    /// `color`, `inactive`, `bg`.
    case light
    /// `darkcolor`, `darkinactive`, `darkbg`.
    case dark
    /// SVG only: the light colours, and the dark ones under `prefers-color-scheme: dark`.
    case auto
}

/// A fully validated, normalised description of one indicator image, and the
/// image cache's key.
///
/// Every field is resolved (defaults filled in, `colors` turned into `color`,
/// `inactive` derived), and fields that the chosen style does not use hold
/// their defaults, so two requests that draw the same image compare equal.
/// Equality and hashing are the compiler's, over every stored field, so a
/// field added for a new parameter can never be left out of the key; that
/// every parameter sets a field, and is reset where unused, is tested
/// parameter by parameter from the table.
public struct IndicatorSpec: Hashable, Sendable {
    public var pages: Int
    public var current: Int = 0
    public var style: Style = .dots
    public var color: RGBA = .systemBlue
    public var inactive: RGBA = RGBA.systemBlue.fading(to: IndicatorSpec.inactiveAlphaFactor)
    public var background: RGBA = .transparent
    /// Lengths are in points.
    public var size: Double = 8
    public var spacing: Double = 8
    public var padding: Double = 4
    /// Pixels per point; always 1 for SVG.
    public var scale: Int = 1
    public var direction: Direction = .ltr
    public var fill: Fill = .solid
    /// Ring line width in points; the default unless `fill == .outline`.
    public var stroke: Double = 1
    public var shape: Shape = .circle
    /// A fixed canvas in points, after `direction`; nil when fitted.
    public var width: Double?
    public var height: Double?
    public var format: ImageFormat = .png
    /// `style=scroll` only: how many dots show.
    public var visible: Int = 7
    /// `style=progress` only: the filled fraction of the current indicator.
    public var progress: Double = 0.5
    /// `style=bar` only: one title per page.
    public var labels: [Label]?
    /// `light` or `auto`, never `dark`: a dark image is a light one drawn in
    /// the dark colours, which normalisation moves into `color`, `inactive`
    /// and `background`, so the two spellings of one image are one spec.
    public var theme: Theme = .light
    /// `theme=auto` only: the colours under `prefers-color-scheme: dark`.
    public var darkColor: RGBA = .systemBlueDark
    public var darkInactive: RGBA = RGBA.systemBlueDark.fading(to: IndicatorSpec.inactiveAlphaFactor)
    public var darkBackground: RGBA = .transparent
    /// Animations only (docs/parameters.md, "Animation"): how long each page
    /// shows, its outgoing move included, and how long the move takes, in
    /// milliseconds (multiples of 10).
    public var dwell: Int = 3000
    public var transition: Int = 300
    public var effect: Effect = .slide
    /// How many times the cycle plays; 0 is forever.
    public var loop: Int = 0
    /// Frames per second while anything moves.
    public var fps: Int = 25
    /// GIF only: the opaque colour that partly transparent pixels are blended onto.
    public var matte: RGBA = .white
    /// Animations with `colors` only: each page's colours in the drawn theme,
    /// cycled (page `i` takes item `i mod count`); nil when every page has
    /// `color` and `inactive`.
    public var pageColors: [IndicatorColors]?

    public init(pages: Int) {
        self.pages = pages
    }

    /// The default `inactive`: `color` with its alpha times this.
    static let inactiveAlphaFactor = 0.3

    /// Bytes this spec takes in memory, its fields and the texts they hold:
    /// what a cache that keeps it as a key counts.
    public var storageBytes: Int {
        MemoryLayout<IndicatorSpec>.stride
            + (labels ?? []).reduce(0) { $0 + MemoryLayout<Label>.stride + $1.text.utf8.count }
            + (pageColors?.count ?? 0) * MemoryLayout<IndicatorColors>.stride
    }
}
