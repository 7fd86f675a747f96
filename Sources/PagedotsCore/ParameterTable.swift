/// The name of an image parameter. The cases are in the table's order, which
/// is also the order of validation: when several parameters are bad, the
/// first one in this order is reported, so a URL always gets the same message.
/// `width` and `height` come last because their minimum depends on all the others;
/// `start`, `every` and `tz` come before everything that depends on the current page.
public enum ParameterName: String, CaseIterable, Sendable {
    case pages, current, start, every, tz, style, color, inactive, bg, size, spacing, padding, scale
    case direction, fill, stroke, shape, colors, format, visible, progress, labels
    case dwell, transition, effect, loop, fps, matte
    case change, place, inset, backdrop, fit, slidesize, budget
    case theme, darkcolor, darkinactive, darkbg
    case width, height
}

/// What a parameter's value must look like.
public enum ParameterKind: Hashable, Sendable {
    /// ASCII digits only (`05` is 5), within the range.
    case integer(ClosedRange<Int>)
    /// An integer as above that is also a multiple of `step` (durations in
    /// milliseconds are multiples of 10, since GIF counts centiseconds).
    case multiple(of: Int, ClosedRange<Int>)
    /// `digits` or `digits.digits` (no sign, exponent or bare `.`), within the
    /// range; nil when only a rule (`Parameter.rule`) bounds it.
    case decimal(ClosedRange<Double>?)
    /// One of these words, case-insensitive.
    case choice([String])
    /// Hex `RGB`, `RGBA`, `RRGGBB` or `RRGGBBAA` with or without `#`, a CSS
    /// colour name (case-insensitive) or `transparent`.
    case color
    /// Comma-separated colours, as many as the range allows.
    case colorList(ClosedRange<Int>)
    /// Comma-separated texts; the value is split on its literal commas before
    /// each item is percent-decoded, so `%2C` is a comma inside an item.
    case textList
    /// A date `YYYY-MM-DD`, or a date and time `YYYY-MM-DDTHH:MM`, that one
    /// with an optional offset (`StartTime`).
    case dateTime
    /// A whole number and a unit, `m`, `h`, `d` or `w`, from 1m to 52w (`PagePeriod`).
    case period
    /// An IANA time zone name (`Europe/Berlin`).
    case timeZone
    /// A size in points: `WxH`, or `W` alone (the height then follows a
    /// picture's aspect ratio), each a whole number in the range.
    case dimensions(ClosedRange<Int>)
    /// A number of bytes: ASCII digits, or a number (`1.5`) followed by `k`
    /// (×1,000) or `M` (×1,000,000) that comes out whole, within the range.
    case byteCount(ClosedRange<Int>)
}

/// A parameter's value when the URL leaves it out.
public enum ParameterDefault: Hashable, Sendable {
    /// The parameter must be given.
    case required
    /// Absent: nothing of the kind is drawn or used.
    case none
    /// This value, written as it could be in a URL.
    case value(String)
    /// Worked out from other parameters, in words.
    case derived(String)
}

/// When a parameter affects the image. Where it does not, it is still
/// validated, then reset to its default, so it takes no part in the spec (the
/// cache's key).
public struct ParameterUse: Hashable, Sendable {
    /// The styles that draw with it.
    public var styles: [Style]
    /// The `fill` it needs, if any.
    public var fill: Fill?
    /// The formats that draw with it; nil for every format.
    public var formats: [ImageFormat]?
    /// The themes that draw with it; nil for every theme.
    public var themes: [Theme]?
    /// The animation effects that draw with it; nil for every effect.
    public var effects: [Effect]?
    /// Whether only a carousel (`POST /carousel`, `CarouselSpec`) draws with
    /// it: an indicator URL validates it, then it has no effect, as `matte`
    /// has none on a PNG.
    public var carouselOnly: Bool

    public init(
        styles: [Style] = Style.allCases, fill: Fill? = nil, formats: [ImageFormat]? = nil, themes: [Theme]? = nil,
        effects: [Effect]? = nil, carouselOnly: Bool = false
    ) {
        self.styles = styles
        self.fill = fill
        self.formats = formats
        self.themes = themes
        self.effects = effects
        self.carouselOnly = carouselOnly
    }

    /// Whether a spec with these settings is drawn with the parameter (never
    /// for a carousel's own parameters: no indicator draws with them).
    public func applies(to spec: IndicatorSpec) -> Bool {
        !carouselOnly
            && styles.contains(spec.style)
            && (fill.map { $0 == spec.fill } ?? true)
            && (formats?.contains(spec.format) ?? true)
            && (themes?.contains(spec.theme) ?? true)
            && (effects?.contains(spec.effect) ?? true)
    }

    /// In words, for the docs: `all`, `scroll`, `dots, pill, scroll, progress
    /// with fill=outline`, `all, PNG only`, `all with theme=dark or auto`,
    /// `all with effect=slide, worm or fade, GIF and APNG only`, `carousels only`.
    public var summary: String {
        if carouselOnly { return "carousels only" }
        var text = styles == Style.allCases ? "all" : styles.map(\.rawValue).joined(separator: ", ")
        if let fill { text += " with fill=\(fill.rawValue)" }
        if let themes { text += " with theme=" + Self.either(themes.map(\.rawValue)) }
        if let effects { text += " with effect=" + Self.either(effects.map(\.rawValue)) }
        if let formats { text += ", " + Self.either(formats.map { $0.rawValue.uppercased() }, or: "and") + " only" }
        return text
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func either(_ words: [String], or conjunction: String = "or") -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

/// One row of the parameter table: everything the parser, the docs and the
/// OpenAPI document need to know about a parameter.
public struct Parameter: Hashable, Sendable {
    public var name: ParameterName
    public var kind: ParameterKind
    /// The unit of a length (`points`) or a duration (`milliseconds`), nil for other kinds.
    public var unit: String?
    public var defaultValue: ParameterDefault
    /// A limit that depends on other parameters, in words (`less than pages`).
    public var rule: String?
    public var use: ParameterUse
    /// One line: what the parameter means.
    public var summary: String

    /// Every parameter, in validation order: the single source of truth for
    /// the parser, the docs and the OpenAPI document.
    public static let all: [Parameter] = ParameterName.allCases.map(\.definition)

    /// The position in `all` of the parameter spelled exactly `spelling`
    /// (names are matched as sent: lowercase, not percent-decoded), or nil.
    static func index(spelled spelling: ArraySlice<UInt8>) -> Int? {
        spellings.firstIndex { $0.count == spelling.count && $0.elementsEqual(spelling) }
    }

    /// The names in `all`'s order, as bytes.
    private static let spellings: [[UInt8]] = all.map { Array($0.name.rawValue.utf8) }

    /// What values are allowed, in words, for the docs: `integer 1…1000`,
    /// `number 2…64 (points)`, `dots, pill, bar, scroll, progress`, …
    public var allowed: String {
        var text: String
        switch kind {
        case .integer(let range):
            text = "integer \(range.lowerBound)…\(range.upperBound)"
        case .multiple(let step, let range):
            text = "integer \(range.lowerBound)…\(range.upperBound), a multiple of \(step)"
        case .decimal(let range):
            text = range.map { "number \(DecimalText.format($0.lowerBound))…\(DecimalText.format($0.upperBound))" } ?? "number"
        case .choice(let words):
            text = words.joined(separator: ", ")
        case .color:
            text = "color"
        case .colorList(let count):
            text = "\(count.lowerBound)…\(count.upperBound) colors, comma-separated"
        case .textList:
            text = "texts, comma-separated"
        case .dateTime:
            text = "YYYY-MM-DD or YYYY-MM-DDTHH:MM, optionally with Z or ±HH:MM"
        case .period:
            text = "1m…52w: a whole number and m, h, d or w"
        case .timeZone:
            text = "IANA time zone name"
        case .dimensions(let range):
            text = "WxH or W, each \(range.lowerBound)…\(range.upperBound)"
        case .byteCount(let range):
            text = "bytes \(ByteCountText.format(range.lowerBound))…\(ByteCountText.format(range.upperBound)): an integer, or a number with k or M"
        }
        if let unit { text += " (\(unit))" }
        if let rule { text += "; \(rule)" }
        return text
    }
}

extension ParameterName {
    /// The styles that draw indicator shapes (bar draws segments, fraction text).
    private static let shapedStyles: [Style] = Style.allCases.filter { $0 != .bar && $0 != .fraction }
    /// The styles that draw one indicator per page, `spacing` apart (fraction draws one text).
    private static let spacedStyles: [Style] = Style.allCases.filter { $0 != .fraction }
    /// The themes that draw the dark colours.
    private static let darkThemes: [Theme] = [.dark, .auto]
    /// The formats drawn in pixels.
    private static let raster: [ImageFormat] = ImageFormat.allCases.filter { $0 != .svg }
    /// The animated formats.
    private static let animated: [ImageFormat] = ImageFormat.allCases.filter(\.isAnimated)
    /// The effects that move the indicator over a transition.
    private static let moving: [Effect] = Effect.allCases.filter { $0 != .none }

    /// This parameter's row of the table.
    public var definition: Parameter {
        let shapedStyles = Self.shapedStyles
        func row(
            _ kind: ParameterKind, unit: String? = nil, _ defaultValue: ParameterDefault, rule: String? = nil,
            use: ParameterUse = ParameterUse(), _ summary: String
        ) -> Parameter {
            Parameter(name: self, kind: kind, unit: unit, defaultValue: defaultValue, rule: rule, use: use, summary: summary)
        }
        switch self {
        case .pages:
            return row(.integer(1...1000), .required, "number of pages")
        case .current:
            return row(.integer(0...999), .value("0"), rule: "less than pages",
                       "the current page, 0-based like UIPageControl.currentPage")
        case .start:
            return row(.dateTime, .none, rule: "not together with current; needs every",
                       "when page 0 begins: the current page then follows the clock, one page per every")
        case .every:
            return row(.period, .none, rule: "needs start",
                       "how long each page lasts: minutes and hours of elapsed time, days and weeks of the calendar in tz")
        case .tz:
            return row(.timeZone, .value("UTC"),
                       "the time zone of a start without an offset, whose days every counts across daylight-saving changes")
        case .style:
            return row(.choice(Style.allCases.map(\.rawValue)), .value("dots"),
                       "how the row is drawn: dots, a pill for the current page, a segmented bar, a scrolling window, a progress capsule, or the page as text (3 / 7)")
        case .color:
            return row(.color, .value("007AFF"), "color of the current indicator")
        case .inactive:
            return row(.color, .derived("color with its alpha × 0.3, rounded half up"), "color of the other indicators")
        case .bg:
            return row(.color, .value("transparent"), "background")
        case .size:
            return row(.decimal(2...64), unit: "points", .value("8"), "dot diameter")
        case .spacing:
            return row(.decimal(0...64), unit: "points", .value("8"), use: ParameterUse(styles: Self.spacedStyles),
                       "gap between neighbouring indicators, edge to edge")
        case .padding:
            return row(.decimal(0...64), unit: "points", .value("4"), "margin on every side")
        case .scale:
            return row(.integer(1...4), .value("1"), rule: "on a carousel: 2 by default, and 1…4 in steps of 0.25",
                       use: ParameterUse(formats: Self.raster), "pixels per point (1x, 2x, 3x screens); SVG is sized in points")
        case .direction:
            return row(.choice(Direction.allCases.map(\.rawValue)), .value("ltr"),
                       "order of the pages: left to right, right to left, top to bottom, bottom to top")
        case .fill:
            return row(.choice(Fill.allCases.map(\.rawValue)), .value("solid"), use: ParameterUse(styles: shapedStyles),
                       "inactive indicators filled, or drawn as rings inside the outline")
        case .stroke:
            return row(.decimal(0.5...8), unit: "points", .value("1"),
                       use: ParameterUse(styles: shapedStyles, fill: .outline),
                       "ring line width for fill=outline; half of size or more draws a solid dot")
        case .shape:
            return row(.choice(Shape.allCases.map(\.rawValue)), .value("circle"), use: ParameterUse(styles: shapedStyles),
                       "outline of each indicator")
        case .colors:
            return row(.colorList(1...1000), .none, rule: "not together with color",
                       "per-page colors, cycled: the whole indicator takes the current page's color")
        case .format:
            return row(.choice(ImageFormat.allCases.map(\.rawValue)), .value("png"),
                       "image format: a still image (png, svg) or an animation of the cycle through the pages (gif, apng)")
        case .visible:
            return row(.integer(3...25), .value("7"), use: ParameterUse(styles: [.scroll]), "how many dots show")
        case .progress:
            return row(.decimal(0...1), .value("0.5"), use: ParameterUse(styles: [.progress], formats: [.png, .svg]),
                       "how much of the current indicator is filled (an animation fills it as a timer)")
        case .labels:
            return row(.textList, .none, rule: "exactly one per page", use: ParameterUse(styles: [.bar]),
                       "segment titles (%2C for a comma inside one)")
        case .dwell:
            return row(.multiple(of: 10, 100...60000), unit: "milliseconds", .value("3000"),
                       use: ParameterUse(formats: Self.animated), "how long each page shows, its outgoing transition included")
        case .transition:
            return row(.multiple(of: 10, 0...60000), unit: "milliseconds", .value("300"),
                       rule: "at most dwell, which also caps the default",
                       use: ParameterUse(formats: Self.animated, effects: Self.moving),
                       "how long the move to the next page takes, at the end of each dwell")
        case .effect:
            return row(.choice(Effect.allCases.map(\.rawValue)), .value("slide"), use: ParameterUse(formats: Self.animated),
                       "how the move looks: the current indicator slides, stretches like a worm, cross-fades, or cuts")
        case .loop:
            return row(.integer(0...100), .value("0"), use: ParameterUse(formats: Self.animated),
                       "how many times the cycle plays; 0 is forever")
        case .fps:
            return row(.integer(1...50), .value("25"), use: ParameterUse(formats: Self.animated),
                       "frames per second while anything moves (a transition, the progress timer)")
        case .matte:
            return row(.color, .value("white"), rule: "opaque", use: ParameterUse(formats: [.gif]),
                       "the colour partly transparent pixels are blended onto (the email's background)")
        case .change:
            return row(.choice(SlideChange.allCases.map(\.rawValue)), .value("cut"), use: ParameterUse(carouselOnly: true),
                       "how one slide gives way to the next during transition: a cross-fade, a push, or a cut")
        case .place:
            return row(.choice(IndicatorPlace.allCases.map(\.rawValue)), .value("over"), use: ParameterUse(carouselOnly: true),
                       "where the indicator is: over the slides, or in a band of its own below or above them")
        case .inset:
            return row(.decimal(0...200), unit: "points", .value("12"), use: ParameterUse(carouselOnly: true),
                       "with place=over: between the indicator and the slides' bottom edge (the right edge for a vertical direction)")
        case .backdrop:
            return row(.color, .value("transparent"), use: ParameterUse(carouselOnly: true),
                       "with place=over: a capsule behind the indicator, padding around its indicators")
        case .fit:
            return row(.choice(SlideFit.allCases.map(\.rawValue)), .value("cover"), use: ParameterUse(carouselOnly: true),
                       "a slide of another size than the slides': scaled to cover their size (centred, cropped) or to fit in it (centred on matte)")
        case .slidesize:
            return row(.dimensions(16...2048), unit: "points", .derived("the first slide's size, scaled down to at most 600 points wide"),
                       use: ParameterUse(carouselOnly: true),
                       "the slides' size: every slide is fitted to it by fit; W alone keeps the first slide's aspect ratio")
        case .budget:
            return row(.byteCount(10_000...100_000_000), .none, rule: "GIF only", use: ParameterUse(carouselOnly: true),
                       "the most bytes the carousel GIF may have: it is made lighter (lossy, fewer colours, fewer steps, a lower scale) to fit")
        case .theme:
            return row(.choice(Theme.allCases.map(\.rawValue)), .value("light"), rule: "auto with format=svg only",
                       "colours: light, dark, or auto, which switches with the viewer's colour scheme inside an SVG")
        case .darkcolor:
            return row(.color, .derived("color, with 007AFF as 0A84FF (iOS systemBlue in dark mode)"),
                       rule: "not together with colors", use: ParameterUse(themes: Self.darkThemes),
                       "color of the current indicator in dark mode")
        case .darkinactive:
            return row(.color, .derived("inactive when given, else darkcolor with its alpha × 0.3"),
                       use: ParameterUse(themes: Self.darkThemes), "color of the other indicators in dark mode")
        case .darkbg:
            return row(.color, .derived("bg"), use: ParameterUse(themes: Self.darkThemes), "background in dark mode")
        case .width:
            return row(.decimal(nil), unit: "points", .derived("fitted"), rule: "at least the fitted width",
                       "a fixed canvas width, indicator centred (after direction)")
        case .height:
            return row(.decimal(nil), unit: "points", .derived("fitted"), rule: "at least the fitted height",
                       "a fixed canvas height, indicator centred (after direction)")
        }
    }
}
