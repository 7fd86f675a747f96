/// Names one glyph outline: a face, a size and a glyph of the face. Equal
/// keys have equal outlines, so a drawing needs each distinct key's outline
/// once however often the glyph occurs.
public struct GlyphKey: Hashable, Sendable {
    public var face: FontFaceID
    /// The font size (the em), in points.
    public var size: Double
    /// The glyph's index in the face (not a character: shaping picks it).
    public var glyph: UInt32

    public init(face: FontFaceID, size: Double, glyph: UInt32) {
        self.face = face
        self.size = size
        self.glyph = glyph
    }
}
