import CCairo
import PagedotsCore

/// Turns text runs into glyph outlines, so that the PNG and the SVG draw the
/// very same letters and the SVG needs no font.
///
/// The font is DejaVu Sans found through fontconfig: regular, and semibold
/// (bold where no semibold face is installed). Outlines are unhinted, so they
/// are the same at every scale and on every machine with the same font file.
/// Keeps Cairo state, so it is not `Sendable`: one per renderer.
final class TextOutliner {
    /// The family asked of fontconfig.
    static let family = "DejaVu Sans"
    /// Put after a title cut short to fit its box.
    static let ellipsis = "\u{2026}"

    private let surface: OpaquePointer
    private let context: OpaquePointer
    private var faces: [FontWeight: OpaquePointer?] = [:]

    init() {
        // Unbounded: Cairo leaves out of a text path the glyphs that fall
        // outside a bounded target, and these paths are never painted here.
        surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)
        context = cairo_create(surface)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        for case let face? in faces.values { cairo_font_face_destroy(face) }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The outline of `run`'s text in points: centred in its box, its
    /// baseline placed so the font's ascent and descent are centred
    /// vertically, cut short with "…" when wider than the box. Empty when no
    /// font is found or not even "…" fits.
    func outline(of run: TextRun) -> PagedotsCore.Path {
        guard let face = face(for: run.weight) else { return PagedotsCore.Path() }
        cairo_set_font_face(context, face)
        cairo_set_font_size(context, run.fontSize)
        guard let text = fitting(run.text, in: run.box.width) else { return PagedotsCore.Path() }
        var font = cairo_font_extents_t()
        cairo_font_extents(context, &font)
        cairo_new_path(context)
        cairo_move_to(context, run.box.midX - advance(of: text) / 2, run.box.midY + (font.ascent - font.descent) / 2)
        cairo_text_path(context, text)
        return CairoPath.copy(from: context)
    }

    /// `text`, or its longest beginning followed by "…", whose advance fits `width`.
    private func fitting(_ text: String, in width: Double) -> String? {
        if advance(of: text) <= width { return text }
        let characters = Array(text)
        func shortened(_ count: Int) -> String {
            var kept = String(characters[..<count])
            while kept.last?.isWhitespace == true { kept.removeLast() }
            return kept + Self.ellipsis
        }
        // The longest prefix that fits, by bisection: advances grow with the prefix.
        var fits = -1, tooWide = characters.count
        while tooWide - fits > 1 {
            let middle = (fits + tooWide) / 2
            if advance(of: shortened(middle)) <= width { fits = middle } else { tooWide = middle }
        }
        return fits >= 0 ? shortened(fits) : nil
    }

    /// How far `text` moves the pen, in points, in the current font.
    private func advance(of text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// The Cairo face for `weight`, made on first use; nil when fontconfig finds no font.
    private func face(for weight: FontWeight) -> OpaquePointer? {
        if let known = faces[weight] { return known }
        let face = Self.makeFace(weight: weight)
        faces[weight] = face
        return face
    }

    /// Asks fontconfig for the family at `weight` and makes a face from the
    /// matched file alone, so that no local fontconfig setting (hinting,
    /// subpixel order) changes the outlines.
    private static func makeFace(weight: FontWeight) -> OpaquePointer? {
        guard let request = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(request) }
        FcPatternAddString(request, "family", family)
        FcPatternAddInteger(request, "weight", weight == .semibold ? 180 : 80)
        FcConfigSubstitute(nil, request, FcMatchPattern)
        FcDefaultSubstitute(request)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, request, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file,
              let fileOnly = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(fileOnly) }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        FcPatternAddString(fileOnly, "file", file)
        FcPatternAddInteger(fileOnly, "index", index)
        let face = cairo_ft_font_face_create_for_pattern(fileOnly)
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            return nil
        }
        return face
    }
}

/// Moves paths between `PagedotsCore.Path` and a Cairo context.
enum CairoPath {
    /// Path coordinates are drawn rounded to 1/100 point, the precision the
    /// SVG writes, so that the PNG and the SVG give the same outlines (Cairo
    /// samples coverage on a grid, and a shift of 1/200 point can move an
    /// edge pixel by a whole step of it).
    static let decimals = 2
    /// 10 to the power `decimals`: derived, so the PNG and the SVG cannot round differently.
    private static let resolution = (0..<decimals).reduce(1.0) { power, _ in power * 10 }

    /// `value` at the precision of the drawn paths.
    static func rounded(_ value: Double) -> Double {
        (value * resolution).rounded() / resolution
    }

    /// Replaces the context's current path with `path`, rounded to 1/100 point.
    static func set(_ path: PagedotsCore.Path, on context: OpaquePointer) {
        cairo_new_path(context)
        func r(_ value: Double) -> Double { rounded(value) }
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(context, r(p.x), r(p.y))
            case .line(let p): cairo_line_to(context, r(p.x), r(p.y))
            case .curve(let c1, let c2, let p): cairo_curve_to(context, r(c1.x), r(c1.y), r(c2.x), r(c2.y), r(p.x), r(p.y))
            case .close: cairo_close_path(context)
            }
        }
    }

    /// The context's current path, in user space.
    static func copy(from context: OpaquePointer) -> PagedotsCore.Path {
        guard let copied = cairo_copy_path(context) else { return PagedotsCore.Path() }
        defer { cairo_path_destroy(copied) }
        let cairoPath = copied.pointee
        guard cairoPath.status == CAIRO_STATUS_SUCCESS, let data = cairoPath.data else { return PagedotsCore.Path() }
        var elements: [PathElement] = []
        var index = 0
        while index < Int(cairoPath.num_data) {
            let header = data[index].header
            func point(_ offset: Int) -> Point { Point(x: data[index + offset].point.x, y: data[index + offset].point.y) }
            switch header.type {
            case CAIRO_PATH_MOVE_TO: elements.append(.move(point(1)))
            case CAIRO_PATH_LINE_TO: elements.append(.line(point(1)))
            case CAIRO_PATH_CURVE_TO: elements.append(.curve(point(1), point(2), point(3)))
            default: elements.append(.close)
            }
            index += Int(header.length)
        }
        return PagedotsCore.Path(elements)
    }
}
