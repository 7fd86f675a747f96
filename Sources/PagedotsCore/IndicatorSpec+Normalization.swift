extension IndicatorSpec {
    /// This spec with every parameter that its style, fill, format or theme
    /// does not use (the table's `ParameterUse`) put back to its default,
    /// `stroke` capped at half of `size`, a fraction's direction reduced to
    /// row or column, and a dark theme turned into the light one drawn in the
    /// dark colours, so that specs that draw the same image compare equal.
    func normalized() -> IndicatorSpec {
        var spec = self
        let defaults = IndicatorSpec(pages: pages)
        for index in Parameter.all.indices where !Parameter.all[index].use.applies(to: self) {
            spec.reset(Parameter.all[index].name, from: defaults)
        }
        // A ring half the size thick (or more) is the whole indicator.
        spec.stroke = min(spec.stroke, spec.size / 2)
        // A fraction is never mirrored: only a row and a column differ.
        if spec.style == .fraction { spec.direction = spec.direction.isVertical ? .ttb : .ltr }
        if spec.theme == .dark {
            // The dark image is the light one in the dark colours.
            spec.color = spec.darkColor
            spec.inactive = spec.darkInactive
            spec.background = spec.darkBackground
            spec.theme = defaults.theme
            spec.darkColor = defaults.darkColor
            spec.darkInactive = defaults.darkInactive
            spec.darkBackground = defaults.darkBackground
        }
        // Per-page colours that are all the spec's own draw what no list draws.
        let own = IndicatorColors(current: spec.color, inactive: spec.inactive)
        if let pageColors = spec.pageColors, pageColors.allSatisfy({ $0 == own }) { spec.pageColors = nil }
        return spec
    }

    /// Puts the field that `name` sets back to its value in `defaults`.
    /// Exhaustive, so the table alone decides which parameters a style uses.
    private mutating func reset(_ name: ParameterName, from defaults: IndicatorSpec) {
        switch name {
        case .pages: pages = defaults.pages
        case .current: current = defaults.current
        // They choose `current`, which holds what they chose.
        case .start, .every, .tz: break
        case .style: style = defaults.style
        case .color: color = defaults.color
        case .colors:
            color = defaults.color
            pageColors = defaults.pageColors
        case .inactive: inactive = defaults.inactive
        case .bg: background = defaults.background
        case .size: size = defaults.size
        case .spacing: spacing = defaults.spacing
        case .padding: padding = defaults.padding
        case .scale: scale = defaults.scale
        case .direction: direction = defaults.direction
        case .fill: fill = defaults.fill
        case .stroke: stroke = defaults.stroke
        case .shape: shape = defaults.shape
        case .format: format = defaults.format
        case .visible: visible = defaults.visible
        case .progress: progress = defaults.progress
        case .labels: labels = defaults.labels
        case .dwell: dwell = defaults.dwell
        case .transition: transition = defaults.transition
        case .effect: effect = defaults.effect
        case .loop: loop = defaults.loop
        case .fps: fps = defaults.fps
        case .matte: matte = defaults.matte
        // A carousel's own: no indicator field holds them (`CarouselSpec` does).
        case .change, .place, .inset, .backdrop, .fit, .slidesize, .budget: break
        case .theme: theme = defaults.theme
        case .darkcolor: darkColor = defaults.darkColor
        case .darkinactive: darkInactive = defaults.darkInactive
        case .darkbg: darkBackground = defaults.darkBackground
        case .width: width = defaults.width
        case .height: height = defaults.height
        }
    }
}
