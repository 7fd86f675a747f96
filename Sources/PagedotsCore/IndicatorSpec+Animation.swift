extension IndicatorSpec {
    /// The colours drawn while `page` is current: its own from `pageColors`, else `color` and `inactive`.
    func colors(onPage page: Int) -> IndicatorColors {
        guard let pageColors, !pageColors.isEmpty else { return IndicatorColors(current: color, inactive: inactive) }
        return pageColors[page % pageColors.count]
    }

    /// This spec's still image with `page` current, in its colours, the
    /// progress style's timer at `fill`.
    func resting(on page: Int, fill: Double) -> IndicatorSpec {
        var spec = self
        let colors = colors(onPage: page)
        spec.current = page
        spec.progress = fill
        spec.color = colors.current
        spec.inactive = colors.inactive
        return spec
    }

    /// This spec part way through `move`: the page it leaves current, and
    /// the colours of both pages mixed by the move's progress (the whole
    /// indicator takes each page's colour as it becomes current).
    func moving(_ move: Move) -> IndicatorSpec {
        var spec = resting(on: move.from, fill: move.fill)
        let colors = colors(onPage: move.from).interpolated(to: colors(onPage: move.to), by: move.progress)
        spec.color = colors.current
        spec.inactive = colors.inactive
        return spec
    }
}
