import PagedotsCore

/// One occurrence of a glyph in laid-out text: which glyph, its outline, and
/// where its origin sits on the canvas.
public struct PositionedGlyph: Hashable, Sendable {
    public var key: GlyphKey
    /// The glyph's outline in points, in its own coordinates: the origin on
    /// the baseline at the pen position, y down. The same for every
    /// occurrence of `key`.
    public var outline: Path
    /// Where the outline's origin goes, in points on the canvas.
    public var origin: Point

    public init(key: GlyphKey, outline: Path, origin: Point) {
        self.key = key
        self.outline = outline
        self.origin = origin
    }
}
