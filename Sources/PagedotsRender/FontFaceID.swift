/// One face of a font file as the text is drawn with it: the file, the face's
/// index in it (a collection such as a `.ttc` holds several), and whether its
/// outlines are emboldened because the file has no heavier weight.
///
/// Glyph outlines come from the file alone, never from the settings that a
/// machine's fontconfig attaches to a font (hinting, synthetic styles), so
/// the same face gives the same outlines everywhere.
public struct FontFaceID: Hashable, Sendable {
    /// The font file's path, as fontconfig found it.
    public var file: String
    /// The face's index in the file (0 for a file that holds one face).
    public var index: Int
    /// Outlines thickened by 1/24 em (Cairo's synthetic bold): a semibold
    /// title drawn with a font that has only a regular weight.
    public var emboldened: Bool

    public init(file: String, index: Int, emboldened: Bool) {
        self.file = file
        self.index = index
        self.emboldened = emboldened
    }
}
