/// Builds a spec from the parameters' values, one parameter at a time in the
/// table's order, then resolves defaults, normalises and checks the limits.
struct IndicatorSpecBuilder {
    private var spec = IndicatorSpec(pages: 1)
    private let options: PathOptions
    private let calendar: CalendarContext
    private var currentGiven = false
    /// `start` and `every`, once read.
    private var start: StartTime?
    private var period: PagePeriod?
    /// A calendar URL's page now and its next change, once `tz` is known.
    private(set) var calendarPosition: CalendarPosition?
    /// Pixels the image writes over all its frames (one frame for a still),
    /// known once `finish` has checked the limits.
    private(set) var pixelFrames = 0
    private var colorGiven = false
    /// `colors` as given.
    private var givenColors: [RGBA]?
    private var inactiveGiven = false
    private var transitionGiven = false
    private var darkColorGiven = false
    private var darkInactiveGiven = false
    private var darkBackgroundGiven = false
    private var fitted: Size?
    /// A carousel's own parameters, as read (an indicator URL validates
    /// them, then draws without them).
    private(set) var composition = CarouselComposition()
    /// `transition` as given or capped, before normalisation resets it where
    /// the indicator does not move (`effect=none`): a carousel's slides still change over it.
    private(set) var givenTransition = 0
    /// Whether `loop` was given: a carousel made elsewhere keeps its own otherwise.
    private(set) var loopGiven = false
    /// A carousel's `budget`, as read (an indicator URL validates it).
    private(set) var budget: Int?

    /// Fitted sizes are compared and shown in millionths of a point, so that
    /// the rounding of sums like `2p + n·s + (n−1)·g` does not refuse (or
    /// keep) a `width` or `height` written as the exact fitted size.
    private static let lengthResolution = 1e6

    /// Starts from the defaults (`scale` from `defaultScale` when given: a
    /// carousel's is 2) and what the path's suffix fixes; a calendar URL's
    /// page is chosen for `calendar`'s time.
    init(options: PathOptions, calendar: CalendarContext, defaultScale: Int? = nil) {
        self.options = options
        self.calendar = calendar
        spec.format = options.format ?? spec.format
        spec.scale = options.scale ?? defaultScale ?? spec.scale
    }

    /// Validates the value (nil when absent) of the parameter at `index` in
    /// the table against its row and against the parameters before it, and
    /// sets the spec's field. (Rows are read in place, not copied: this runs
    /// for every row on every request.)
    mutating func apply(parameterAt index: Int, _ value: ParameterValue?) throws(ParameterError) {
        guard let value else {
            let parameter = Parameter.all[index]
            if case .required = parameter.defaultValue { throw .missing(parameter) }
            if parameter.name == .every, start != nil { throw .missing(parameter, with: .start) }
            if parameter.name == .tz { placeOnCalendar(in: .utc) }
            return
        }
        switch Parameter.all[index].name {
        case .pages: spec.pages = try value.integer()
        case .current:
            spec.current = try value.integer(upTo: spec.pages - 1, note: "pages=\(spec.pages)")
            currentGiven = true
        case .start:
            if currentGiven { throw value.failure("not be given together with current (start and every choose the page)") }
            start = try value.startTime()
        case .every:
            guard start != nil else { throw value.failure("be given only together with start") }
            period = try value.period()
        case .tz: placeOnCalendar(in: try value.timeZone(in: calendar.zones))
        case .style: spec.style = try value.choice(Style.self)
        case .color:
            spec.color = try value.color()
            colorGiven = true
        case .inactive:
            spec.inactive = try value.color()
            inactiveGiven = true
        case .bg: spec.background = try value.color()
        case .size: spec.size = try value.decimal()
        case .spacing: spec.spacing = try value.decimal()
        case .padding: spec.padding = try value.decimal()
        case .scale:
            spec.scale = try value.integer()
            if let fixed = options.scale, fixed != spec.scale {
                throw value.failure("be \(fixed) to agree with the path's @\(fixed)x")
            }
        case .direction: spec.direction = try value.choice(Direction.self)
        case .fill: spec.fill = try value.choice(Fill.self)
        case .stroke: spec.stroke = try value.decimal()
        case .shape: spec.shape = try value.choice(Shape.self)
        case .colors:
            if colorGiven { throw value.failure("not be given together with color") }
            let colors = try value.colors()
            spec.color = colors[spec.current % colors.count]
            givenColors = colors
        case .format:
            spec.format = try value.choice(ImageFormat.self)
            if let fixed = options.format, fixed != spec.format {
                throw value.failure("be \(fixed.rawValue) to agree with the path's .\(fixed.rawValue)")
            }
        case .visible: spec.visible = try value.integer()
        case .progress: spec.progress = try value.decimal()
        case .labels: spec.labels = try value.texts(count: spec.pages, note: "one per page: pages=\(spec.pages)").map { Label($0) }
        case .dwell: spec.dwell = try value.integer()
        case .transition:
            spec.transition = try value.integer(upTo: spec.dwell, note: "dwell=\(spec.dwell)")
            transitionGiven = true
        case .effect: spec.effect = try value.choice(Effect.self)
        case .loop:
            spec.loop = try value.integer()
            loopGiven = true
        case .fps: spec.fps = try value.integer()
        case .matte:
            spec.matte = try value.color()
            if spec.matte.alpha != 255 {
                throw value.failure("be an opaque color (it stands for the email's background, which has no transparency)")
            }
        case .change: composition.change = try value.choice(SlideChange.self)
        case .place: composition.place = try value.choice(IndicatorPlace.self)
        case .inset: composition.inset = try value.decimal()
        case .backdrop: composition.backdrop = try value.color()
        case .fit: composition.fit = try value.choice(SlideFit.self)
        case .slidesize: composition.slideSize = try value.dimensions()
        case .budget: budget = try value.byteCount()
        case .theme:
            spec.theme = try value.choice(Theme.self)
            if spec.theme == .auto, spec.format != .svg {
                // An SVG does not animate, so for an animation the only way out is one image per theme.
                let wayOut = spec.format.isAnimated
                    ? ", which does not animate: use a <picture> with a theme=light and a theme=dark image"
                    : ": use format=svg, or a <picture> with one image per theme"
                throw value.failure(
                    "be light or dark for a \(spec.format.rawValue) image (auto switches colours only inside an SVG\(wayOut))"
                )
            }
        case .darkcolor:
            if givenColors != nil { throw value.failure("not be given together with colors (the per-page colors apply in both themes)") }
            spec.darkColor = try value.color()
            darkColorGiven = true
        case .darkinactive:
            spec.darkInactive = try value.color()
            darkInactiveGiven = true
        case .darkbg:
            spec.darkBackground = try value.color()
            darkBackgroundGiven = true
        case .width: spec.width = try value.decimal(within: minimum(fittedSize().width), note: "the fitted width")
        case .height: spec.height = try value.decimal(within: minimum(fittedSize().height), note: "the fitted height")
        }
    }

    /// For a calendar URL (`start` and `every` given), makes the page current
    /// now, in `zone`, the current one.
    private mutating func placeOnCalendar(in zone: TimeZoneRules) {
        guard let start, let period else { return }
        let position = PageSchedule(pages: spec.pages, start: start, period: period, zone: zone).position(at: calendar.now)
        spec.current = position.page
        calendarPosition = position
    }

    /// The finished spec: colours not given derived from those given, a
    /// default `transition` capped at `dwell`, parameters the style does not
    /// use reset, a fitted `width`/`height` dropped, and the image (and its
    /// animation) checked against `ImageLimits`.
    mutating func finish() throws(ParameterError) -> IndicatorSpec {
        let fitted = fittedSize()
        deriveColors()
        if !transitionGiven { spec.transition = min(spec.transition, spec.dwell) }
        givenTransition = spec.transition
        spec = spec.normalized()
        if let width = spec.width, width <= minimum(fitted.width).lowerBound { spec.width = nil }
        if let height = spec.height, height <= minimum(fitted.height).lowerBound { spec.height = nil }
        let canvas = Size(width: spec.width ?? fitted.width, height: spec.height ?? fitted.height)
        try ImageLimits.check(canvas, scale: spec.scale, format: spec.format, style: spec.style)
        let frames = spec.format.isAnimated ? AnimationTimeline(spec: spec).frameCount : 1
        if spec.format.isAnimated {
            try ImageLimits.checkAnimation(frames: frames, of: canvas, scale: spec.scale)
        }
        let (width, height) = ImageLimits.pixels(canvas, scale: spec.scale)
        pixelFrames = Int(width * height) * frames
        return spec
    }

    /// The defaults that follow from other colours: `inactive` from `color`,
    /// and the dark colours from the light ones (docs/parameters.md,
    /// "Themes"); for an animation with `colors`, every page's colours.
    private mutating func deriveColors() {
        let (light, dark) = colors(current: spec.color, darkCurrent: darkColorGiven ? spec.darkColor : nil)
        spec.inactive = light.inactive
        spec.darkColor = dark.current
        spec.darkInactive = dark.inactive
        if !darkBackgroundGiven { spec.darkBackground = spec.background }
        if spec.format.isAnimated, let givenColors, givenColors.count > 1 {
            spec.pageColors = givenColors.prefix(spec.pages).map { color in
                let (light, dark) = colors(current: color, darkCurrent: nil)
                return spec.theme == .dark ? dark : light
            }
        }
    }

    /// The colours drawn with the current indicator in `color`, in both
    /// themes: `inactive` unless given follows it, and so does the dark
    /// current colour unless `darkCurrent` is given, and the dark `inactive`.
    private func colors(current color: RGBA, darkCurrent: RGBA?) -> (light: IndicatorColors, dark: IndicatorColors) {
        let factor = IndicatorSpec.inactiveAlphaFactor
        let inactive = inactiveGiven ? spec.inactive : color.fading(to: factor)
        let dark = darkCurrent ?? color.inDarkMode
        let darkInactive = darkInactiveGiven ? spec.darkInactive : inactiveGiven ? spec.inactive : dark.fading(to: factor)
        return (IndicatorColors(current: color, inactive: inactive), IndicatorColors(current: dark, inactive: darkInactive))
    }

    /// The fitted size, worked out once, when `width`, `height` or `finish`
    /// first needs it: every parameter that shapes it has been applied by
    /// then (`width` and `height`, applied after, are used by every style).
    private mutating func fittedSize() -> Size {
        if let fitted { return fitted }
        let size = IndicatorLayout.fittedSize(of: spec.normalized())
        fitted = size
        return size
    }

    /// The lengths allowed against a fitted `length`: from it (in millionths) up.
    private func minimum(_ length: Double) -> ClosedRange<Double> {
        ((length * Self.lengthResolution).rounded() / Self.lengthResolution)...Double.infinity
    }
}
