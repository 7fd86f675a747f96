extension IndicatorSpec {
    /// With `theme=auto`, the image shown under `prefers-color-scheme: dark`:
    /// this spec drawn in its dark colours, exactly as `theme=dark` draws it
    /// (docs/parameters.md, "Themes"); nil for the other themes. Colours do
    /// not move anything, so its drawing has the light one's items in the
    /// same order and places, only painted differently.
    public var darkVariant: IndicatorSpec? {
        guard theme == .auto else { return nil }
        var dark = self
        dark.theme = .dark
        return dark.normalized()
    }
}
