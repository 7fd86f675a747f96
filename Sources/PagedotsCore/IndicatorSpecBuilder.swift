/// Builds a spec from the parameters' values, one parameter at a time in the
/// table's order, then resolves defaults, normalises and checks the limits.
struct IndicatorSpecBuilder {
    private var spec = IndicatorSpec(pages: 1)
    private let options: PathOptions
    private var colorGiven = false
    private var colorsGiven = false
    private var inactiveGiven = false
    private var darkColorGiven = false
    private var darkInactiveGiven = false
    private var darkBackgroundGiven = false
    private var fitted: Size?

    /// Fitted sizes are compared and shown in millionths of a point, so that
    /// the rounding of sums like `2p + n·s + (n−1)·g` does not refuse (or
    /// keep) a `width` or `height` written as the exact fitted size.
    private static let lengthResolution = 1e6

    /// Starts from the defaults and what the path's suffix fixes.
    init(options: PathOptions) {
        self.options = options
        spec.format = options.format ?? spec.format
        spec.scale = options.scale ?? spec.scale
    }

    /// Validates the value (nil when absent) of the parameter at `index` in
    /// the table against its row and against the parameters before it, and
    /// sets the spec's field. (Rows are read in place, not copied: this runs
    /// for every row on every request.)
    mutating func apply(parameterAt index: Int, _ value: ParameterValue?) throws(ParameterError) {
        guard let value else {
            if case .required = Parameter.all[index].defaultValue { throw .missing(Parameter.all[index]) }
            return
        }
        switch Parameter.all[index].name {
        case .pages: spec.pages = try value.integer()
        case .current: spec.current = try value.integer(upTo: spec.pages - 1, note: "pages=\(spec.pages)")
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
            colorsGiven = true
        case .format:
            spec.format = try value.choice(ImageFormat.self)
            if let fixed = options.format, fixed != spec.format {
                throw value.failure("be \(fixed.rawValue) to agree with the path's .\(fixed.rawValue)")
            }
        case .visible: spec.visible = try value.integer()
        case .progress: spec.progress = try value.decimal()
        case .labels: spec.labels = try value.texts(count: spec.pages, note: "one per page: pages=\(spec.pages)").map { Label($0) }
        case .theme:
            spec.theme = try value.choice(Theme.self)
            if spec.theme == .auto, spec.format != .svg {
                throw value.failure(
                    "be light or dark for a \(spec.format.rawValue) image (auto switches colours only inside an SVG: "
                        + "use format=svg, or a <picture> with one image per theme)"
                )
            }
        case .darkcolor:
            if colorsGiven { throw value.failure("not be given together with colors (the per-page colors apply in both themes)") }
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

    /// The finished spec: colours not given derived from those given,
    /// parameters the style does not use reset, a fitted `width`/`height`
    /// dropped, and the image checked against `ImageLimits`.
    mutating func finish() throws(ParameterError) -> IndicatorSpec {
        let fitted = fittedSize()
        deriveColors()
        spec = spec.normalized()
        if let width = spec.width, width <= minimum(fitted.width).lowerBound { spec.width = nil }
        if let height = spec.height, height <= minimum(fitted.height).lowerBound { spec.height = nil }
        try ImageLimits.check(
            Size(width: spec.width ?? fitted.width, height: spec.height ?? fitted.height),
            scale: spec.scale, format: spec.format, style: spec.style
        )
        return spec
    }

    /// The defaults that follow from other colours: `inactive` from `color`,
    /// and the dark colours from the light ones (docs/parameters.md, "Themes").
    private mutating func deriveColors() {
        if !inactiveGiven { spec.inactive = spec.color.fading(to: IndicatorSpec.inactiveAlphaFactor) }
        if !darkColorGiven { spec.darkColor = spec.color.inDarkMode }
        if !darkInactiveGiven {
            spec.darkInactive = inactiveGiven ? spec.inactive : spec.darkColor.fading(to: IndicatorSpec.inactiveAlphaFactor)
        }
        if !darkBackgroundGiven { spec.darkBackground = spec.background }
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
