extension IndicatorSpec {
    /// This spec with every parameter that its style, fill or format does not
    /// use (the table's `ParameterUse`) put back to its default and `stroke`
    /// capped at half of `size`, so that specs that draw the same image
    /// compare equal.
    func normalized() -> IndicatorSpec {
        var spec = self
        let defaults = IndicatorSpec(pages: pages)
        for index in Parameter.all.indices where !Parameter.all[index].use.applies(to: self) {
            spec.reset(Parameter.all[index].name, from: defaults)
        }
        // A ring half the size thick (or more) is the whole indicator.
        spec.stroke = min(spec.stroke, spec.size / 2)
        return spec
    }

    /// Puts the field that `name` sets back to its value in `defaults`.
    /// Exhaustive, so the table alone decides which parameters a style uses.
    private mutating func reset(_ name: ParameterName, from defaults: IndicatorSpec) {
        switch name {
        case .pages: pages = defaults.pages
        case .current: current = defaults.current
        case .style: style = defaults.style
        case .color, .colors: color = defaults.color
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
        case .width: width = defaults.width
        case .height: height = defaults.height
        }
    }
}
