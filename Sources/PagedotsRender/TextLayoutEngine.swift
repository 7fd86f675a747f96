import CCairo
import CPango
import PagedotsCore

/// Lays out text with Pango (HarfBuzz shaping, bidirectional order, fonts
/// found through fontconfig with fallback) and gives it as positioned glyph
/// outlines, which the PNG fills and the SVG references.
///
/// The fonts are asked for by an explicit family list, `families`: DejaVu
/// Sans first (Latin, Greek, Cyrillic, Arabic, Hebrew), then one family per
/// script it lacks. A character none of them has falls back to whatever
/// fontconfig finds. Titles are semibold or regular; a face with no heavier
/// weight than regular is emboldened for a semibold title. Text is unhinted,
/// with hint metrics off and glyph positions unrounded, so the layout and the
/// outlines are the same at every scale, and a line at any size is the line
/// at `layoutSize` scaled: text is laid out at that one size only, so Pango
/// and fontconfig find fonts for two descriptions (regular, semibold) once,
/// not for every size a URL can ask for.
///
/// Each instance owns its Pango font map and context (never shared), so it
/// is not `Sendable`: use one per thread, as the renderers do.
public final class TextLayoutEngine {
    /// The font families asked of fontconfig, in order of preference.
    public static let families = ["DejaVu Sans", "Noto Sans Thai UI", "Noto Sans Devanagari UI", "WenQuanYi Micro Hei"]

    /// The one font size, in points, at which text is laid out (then scaled).
    static let layoutSize = 1000.0
    /// Pango units per point (`PANGO_SCALE`).
    private static let unitsPerPoint = 1024.0
    /// Pango's "no glyph needed" glyph, for a zero-width character (`PANGO_GLYPH_EMPTY`).
    private static let emptyGlyph: UInt32 = 0x0FFF_FFFF
    /// Set in a glyph that stands for a character no font covers (`PANGO_GLYPH_UNKNOWN_FLAG`).
    private static let unknownGlyphFlag: UInt32 = 0x1000_0000

    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let layout: OpaquePointer
    private let outlines = GlyphOutlines()

    public init() {
        // Not the process-wide default map: each engine (thread) owns one.
        fontMap = pango_cairo_font_map_new()
        // GObject constructors never return NULL (GLib aborts when out of memory).
        let context: OpaquePointer = pango_font_map_create_context(fontMap)
        self.context = context
        GlyphOutlines.withUnhintedFontOptions { pango_cairo_context_set_font_options(context, $0) }
        pango_context_set_round_glyph_positions(context, 0)
        // Fixed, not the process's locale: the language picks fonts and
        // shaping forms, which must not change with the environment.
        pango_context_set_language(context, pango_language_from_string("en"))
        layout = pango_layout_new(context)
        pango_layout_set_single_paragraph_mode(layout, 1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// `run`'s text laid out on one line, centred on its advance in the box,
    /// its baseline where the primary font's ascent and descent are centred
    /// vertically in the box (so titles in any script share a baseline), and
    /// cut short with "…" at its logical end (the left for right-to-left
    /// text) when wider than the box.
    public func glyphRun(for run: TextRun) -> GlyphRun {
        guard let scale = Self.scale(for: run.fontSize) else {
            return GlyphRun(glyphs: [], color: run.color, advance: 0, unknownGlyphCount: 0)
        }
        setUp(run.text, weight: run.weight, width: run.box.width.isFinite ? max(0, run.box.width) / scale : 0)
        let runs = lineRuns()
        let advance = Self.advance(of: runs) * scale
        let extents = primaryFace(weight: run.weight).flatMap { outlines.extents(of: $0, size: run.fontSize) }
            ?? (ascent: 0, descent: 0)
        let start = Point(x: run.box.midX - advance / 2, y: run.box.midY + (extents.ascent - extents.descent) / 2)
        return GlyphRun(
            glyphs: glyphs(of: runs, from: start, fontSize: run.fontSize, weight: run.weight),
            color: run.color, advance: advance,
            unknownGlyphCount: Int(pango_layout_get_unknown_glyphs_count(layout))
        )
    }

    /// How far `text` on one line moves the pen, in points: its width with
    /// no box to fit (so no ellipsis), for sizing a canvas to text. It is
    /// proportional to `fontSize` (text is laid out at one size and scaled),
    /// so a table of advances per em for code without Pango is this at size 1.
    public func advance(of text: String, fontSize: Double, weight: FontWeight) -> Double {
        guard let scale = Self.scale(for: fontSize) else { return 0 }
        setUp(text, weight: weight, width: nil)
        return Self.advance(of: lineRuns()) * scale
    }

    /// `fontSize` over `layoutSize`; nil for a size that is not a finite positive number.
    private static func scale(for fontSize: Double) -> Double? {
        fontSize.isFinite && fontSize > 0 ? fontSize / layoutSize : nil
    }

    /// Gives the layout its text and font, and the width (at `layoutSize`) to ellipsise at (none when nil).
    private func setUp(_ text: String, weight: FontWeight, width: Double?) {
        let description = Self.fontDescription(weight: weight)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, width.map { Self.units($0) } ?? -1)
        // Pango reads a NUL as the end of the text; labels never hold one.
        let text = text.utf8.contains(0) ? String(text.unicodeScalars.filter { $0 != "\0" }) : text
        pango_layout_set_text(layout, text, Int32(clamping: text.utf8.count))
    }

    /// The family list and weight at `layoutSize`, an absolute size (points, not scaled by a resolution).
    private static func fontDescription(weight: FontWeight) -> OpaquePointer? {
        guard let description = pango_font_description_new() else { return nil }
        pango_font_description_set_family(description, families.joined(separator: ","))
        pango_font_description_set_weight(description, weight == .semibold ? PANGO_WEIGHT_SEMIBOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(description, layoutSize * unitsPerPoint)
        return description
    }

    /// One run of the laid-out line: its font, its glyphs (visual order), and
    /// how far its baseline is raised (points up, Pango units).
    private typealias LineRun = (font: UnsafeMutablePointer<PangoFont>?, glyphs: [PangoGlyphInfo], rise: Int)

    /// The runs of the layout's first (only) line, in visual order, left to
    /// right. Pango widens an ellipsis to fill the line to the box's width;
    /// that padding is taken off, so that a cut title is centred on what it shows.
    private func lineRuns() -> [LineRun] {
        var runs: [LineRun] = []
        var node = pango_layout_get_line_readonly(layout, 0)?.pointee.runs
        while let current = node {
            node = current.pointee.next
            guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee,
                  let item = run.item?.pointee, let string = run.glyphs?.pointee else { continue }
            var glyphs = Array(UnsafeBufferPointer(start: string.glyphs, count: Int(string.num_glyphs)))
            if item.analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0, let last = glyphs.indices.last {
                var natural = PangoRectangle()
                pango_font_get_glyph_extents(item.analysis.font, glyphs[last].glyph, nil, &natural)
                glyphs[last].geometry.width = min(glyphs[last].geometry.width, natural.width)
            }
            runs.append((item.analysis.font, glyphs, Int(run.y_offset)))
        }
        return runs
    }

    /// How far `runs` move the pen, in points.
    private static func advance(of runs: [LineRun]) -> Double {
        points(runs.reduce(0) { total, run in run.glyphs.reduce(total) { $0 + Int($1.geometry.width) } })
    }

    /// The glyphs with ink of `runs` at `fontSize`, the line's left end on the baseline at `start`.
    private func glyphs(of runs: [LineRun], from start: Point, fontSize: Double, weight: FontWeight) -> [PositionedGlyph] {
        let scale = fontSize / Self.layoutSize
        var glyphs: [PositionedGlyph] = []
        var pen = 0
        for run in runs {
            let face = Self.face(of: run.font, weight: weight)
            for info in run.glyphs {
                defer { pen += Int(info.geometry.width) }
                guard let face, info.glyph != Self.emptyGlyph else { continue }
                // A character no font covers: the font's own "missing glyph" (glyph 0).
                let glyph = info.glyph & Self.unknownGlyphFlag != 0 ? 0 : info.glyph
                let key = GlyphKey(face: face, size: fontSize, glyph: glyph)
                let outline = outlines.outline(of: key)
                guard !outline.elements.isEmpty else { continue }
                // Pango's glyph offsets are y down; a run's rise is y up.
                glyphs.append(PositionedGlyph(key: key, outline: outline, origin: Point(
                    x: start.x + Self.points(pen + Int(info.geometry.x_offset)) * scale,
                    y: start.y + Self.points(Int(info.geometry.y_offset) - run.rise) * scale
                )))
            }
        }
        return glyphs
    }

    /// The face of the first family that fontconfig finds (DejaVu Sans
    /// where installed), whose ascent and descent place the baseline.
    private func primaryFace(weight: FontWeight) -> FontFaceID? {
        guard let description = Self.fontDescription(weight: weight) else { return nil }
        defer { pango_font_description_free(description) }
        guard let font = pango_font_map_load_font(fontMap, context, description) else { return nil }
        defer { g_object_unref(font) }
        return Self.face(of: font, weight: weight)
    }

    /// The file and index of a font Pango chose, from its fontconfig
    /// pattern; emboldened when a semibold title gets a face no heavier than
    /// medium. nil for a font that fontconfig did not provide.
    private static func face(of font: UnsafeMutablePointer<PangoFont>?, weight: FontWeight) -> FontFaceID? {
        guard let font,
              g_type_check_instance_is_a(UnsafeMutableRawPointer(font).assumingMemoryBound(to: GTypeInstance.self), pango_fc_font_get_type()) != 0,
              let pattern = pango_fc_font_get_pattern(UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self))
        else { return nil }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0, fontWeight: Int32 = 0
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        let weighs = FcPatternGetInteger(pattern, FC_WEIGHT, 0, &fontWeight) == FcResultMatch
        let emboldened = weight == .semibold && weighs && fontWeight <= FC_WEIGHT_MEDIUM
        let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        return FontFaceID(file: path, index: Int(index), emboldened: emboldened)
    }

    /// Pango units in points.
    private static func points(_ units: Int) -> Double {
        Double(units) / unitsPerPoint
    }

    /// `points` in Pango units, rounded down and clamped to what Pango takes.
    private static func units(_ points: Double) -> Int32 {
        Int32(clamping: Int((min(points, Double(Int32.max) / unitsPerPoint) * unitsPerPoint).rounded(.down)))
    }
}
