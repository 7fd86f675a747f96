import CCairo
import PagedotsCore

/// Glyph outlines and font extents read with Cairo from font files, kept
/// for reuse.
///
/// Each face is made from its file and index alone (see `FontFaceID`), and
/// glyphs are read unhinted with hint metrics off, so an outline is the same
/// at every scale and on every machine with the same font file. Everything is
/// read at one size, `readingSize`, and scaled: one Cairo font per face
/// serves every size, and outlines keep the precision of a large em (FreeType
/// rounds them to 1/64 of a unit at the size it reads). Keeps Cairo state, so
/// it is not `Sendable`: one per `TextLayoutEngine`.
final class GlyphOutlines {
    /// Outlines kept at most; past that the store starts again (titles can
    /// ask for any size and any glyph, so the keys are unbounded).
    static let capacity = 4096
    /// The size, in points, at which faces are read.
    static let readingSize = 1000.0

    private let surface: OpaquePointer
    private let context: OpaquePointer
    private var faces: [FontFaceID: OpaquePointer?] = [:]
    private var outlines: [GlyphKey: Path] = [:]

    init() {
        // Unbounded: Cairo leaves out of a glyph path the glyphs that fall
        // outside a bounded target, and these paths are never painted here.
        surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)
        context = cairo_create(surface)
        Self.withUnhintedFontOptions { cairo_set_font_options(context, $0) }
    }

    /// Hands `body` Cairo font options under which text is the same at every
    /// scale (no hinting, hint metrics off, grey antialiasing), then frees them.
    static func withUnhintedFontOptions(_ body: (OpaquePointer?) -> Void) {
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        body(options)
    }

    deinit {
        for case let face? in faces.values { cairo_font_face_destroy(face) }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The glyph's outline in points, origin on the baseline at the pen,
    /// y down; empty for a blank glyph or a face that cannot be read.
    func outline(of key: GlyphKey) -> Path {
        if let known = outlines[key] { return known }
        guard select(key.face) else { return Path() }
        var glyph = cairo_glyph_t(index: UInt(key.glyph), x: 0, y: 0)
        cairo_new_path(context)
        cairo_glyph_path(context, &glyph, 1)
        let outline = Self.scaled(CairoPath.copy(from: context), by: key.size / Self.readingSize)
        if outlines.count >= Self.capacity { outlines.removeAll(keepingCapacity: true) }
        outlines[key] = outline
        return outline
    }

    /// The face's ascent and descent (both positive, points) at `size`;
    /// nil when the face cannot be read.
    func extents(of face: FontFaceID, size: Double) -> (ascent: Double, descent: Double)? {
        guard select(face) else { return nil }
        var extents = cairo_font_extents_t()
        cairo_font_extents(context, &extents)
        let scale = size / Self.readingSize
        return (extents.ascent * scale, extents.descent * scale)
    }

    /// Makes `face` at the reading size the context's font; false when the face cannot be read.
    private func select(_ id: FontFaceID) -> Bool {
        guard let face = face(for: id) else { return false }
        cairo_set_font_face(context, face)
        cairo_set_font_size(context, Self.readingSize)
        return true
    }

    /// `path` with every coordinate multiplied by `factor`.
    private static func scaled(_ path: Path, by factor: Double) -> Path {
        func scaled(_ point: Point) -> Point { Point(x: point.x * factor, y: point.y * factor) }
        return Path(path.elements.map { element in
            switch element {
            case .move(let p): .move(scaled(p))
            case .line(let p): .line(scaled(p))
            case .curve(let c1, let c2, let p): .curve(scaled(c1), scaled(c2), scaled(p))
            case .close: .close
            }
        })
    }

    /// The Cairo face for `id`, made on first use; nil when the file cannot be read.
    private func face(for id: FontFaceID) -> OpaquePointer? {
        if let known = faces[id] { return known }
        let face = Self.makeFace(id)
        faces[id] = face
        return face
    }

    /// A face from the file and index alone (plus Cairo's synthetic bold when
    /// asked), so that no local fontconfig setting changes the outlines.
    private static func makeFace(_ id: FontFaceID) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FILE, id.file)
        FcPatternAddInteger(pattern, FC_INDEX, Int32(clamping: id.index))
        // Part of the pattern rather than set on the face afterwards: Cairo
        // shares one face among patterns that ask for the same rendering.
        FcPatternAddBool(pattern, FC_EMBOLDEN, id.emboldened ? 1 : 0)
        let face = cairo_ft_font_face_create_for_pattern(pattern)
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            return nil
        }
        return face
    }
}
