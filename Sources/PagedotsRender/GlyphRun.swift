import PagedotsCore

/// A `TextRun` laid out: the glyphs to paint, in visual order from left to
/// right, in one colour. What the PNG fills and the SVG references, so the
/// two draw the same letters in the same places.
public struct GlyphRun: Hashable, Sendable {
    /// The glyphs that have ink (spaces and other blank glyphs are left out).
    public var glyphs: [PositionedGlyph]
    public var color: RGBA
    /// How far the laid-out line moves the pen, in points (after any ellipsis).
    public var advance: Double
    /// Characters that no installed font has a glyph for; each is drawn as
    /// its font's "missing glyph" box. 0 when the fonts cover the text.
    public var unknownGlyphCount: Int

    public init(glyphs: [PositionedGlyph], color: RGBA, advance: Double, unknownGlyphCount: Int) {
        self.glyphs = glyphs
        self.color = color
        self.advance = advance
        self.unknownGlyphCount = unknownGlyphCount
    }
}
