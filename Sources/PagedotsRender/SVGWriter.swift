import PagedotsCore

/// Writes a `Drawing` as an SVG document sized in points.
///
/// Written directly, element by element, so the same drawing always gives
/// the same bytes: coordinates rounded to 1/100 point (as the PNG draws them), opacities to 1/1000,
/// no trailing zeros. Text becomes glyph outlines (the same ones, at the same
/// places, that the PNG fills), so the document needs no font to look the
/// same everywhere: each distinct glyph is written once in `<defs>` and
/// placed with a `<use>` wherever it occurs.
/// Keeps Cairo and Pango state for the glyphs, so it is not `Sendable`: one per thread.
public final class SVGWriter {
    /// Made on the first title, so drawings without text never start Pango or fontconfig.
    private lazy var text = TextLayoutEngine()

    public init() {}

    /// The document's bytes (UTF-8), the same for the same drawing.
    public func svg(for drawing: Drawing) -> [UInt8] {
        var document = SVGDocument()
        let width = SVGDocument.number(drawing.size.width), height = SVGDocument.number(drawing.size.height)
        if drawing.background.alpha > 0 {
            document.append("<rect width=\"\(width)\" height=\"\(height)\"\(SVGDocument.paint("fill", drawing.background))/>")
        }
        for item in drawing.items { write(item, to: &document) }
        return document.finished(
            opening: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">",
            closing: "</svg>"
        )
    }

    private func write(_ item: DrawItem, to document: inout SVGDocument) {
        switch item {
        case .fill(let path, let color):
            document.append("<path d=\"\(SVGDocument.pathData(path))\"\(SVGDocument.paint("fill", color))/>")
        case .stroke(let path, let lineWidth, let color):
            document.append("<path d=\"\(SVGDocument.pathData(path))\" fill=\"none\"\(SVGDocument.paint("stroke", color)) stroke-width=\"\(SVGDocument.number(lineWidth))\"/>")
        case .clipped(let clip, let items):
            let id = document.nextClipID()
            document.append("<clipPath id=\"\(id)\"><path d=\"\(SVGDocument.pathData(clip))\"/></clipPath><g clip-path=\"url(#\(id))\">")
            for inner in items { write(inner, to: &document) }
            document.append("</g>")
        case .text(let run):
            write(text.glyphRun(for: run), to: &document)
        }
    }

    /// A group in the run's colour (its alpha as the group's opacity, as the
    /// PNG paints it) with a `<use>` of each glyph's definition at its origin.
    private func write(_ run: GlyphRun, to document: inout SVGDocument) {
        guard !run.glyphs.isEmpty, run.color.alpha > 0 else { return }
        var opaque = run.color
        opaque.alpha = 255
        var group = "<g\(SVGDocument.paint("fill", opaque))"
        if run.color.alpha < 255 {
            group += " opacity=\"\(SVGDocument.number(Double(run.color.alpha) / 255, digits: 3))\""
        }
        document.append(group + ">")
        for glyph in run.glyphs {
            let id = document.glyphID(for: glyph)
            document.append("<use href=\"#\(id)\" x=\"\(SVGDocument.number(glyph.origin.x))\" y=\"\(SVGDocument.number(glyph.origin.y))\"/>")
        }
        document.append("</g>")
    }
}

/// An SVG document being written, and its number, colour and path syntax.
/// The body is written in order; glyph definitions are gathered beside it
/// and put in `<defs>` ahead of it when the document is finished.
struct SVGDocument {
    private var body: [UInt8] = []
    private var definitions: [UInt8] = []
    private var glyphIDs: [GlyphKey: String] = [:]
    private var clipCount = 0

    mutating func append(_ text: String) {
        body.append(contentsOf: text.utf8)
    }

    /// The id of `glyph`'s outline, `g1`, `g2`, … in order of first use;
    /// the outline is defined the first time its key is seen.
    mutating func glyphID(for glyph: PositionedGlyph) -> String {
        if let id = glyphIDs[glyph.key] { return id }
        let id = "g\(glyphIDs.count + 1)"
        glyphIDs[glyph.key] = id
        definitions.append(contentsOf: "<path id=\"\(id)\" d=\"\(Self.pathData(glyph.outline))\"/>".utf8)
        return id
    }

    /// The whole document: `opening`, the glyph definitions (if any), the body, `closing`.
    func finished(opening: String, closing: String) -> [UInt8] {
        var bytes = Array(opening.utf8)
        if !definitions.isEmpty {
            bytes += "<defs>".utf8
            bytes += definitions
            bytes += "</defs>".utf8
        }
        bytes += body
        bytes += closing.utf8
        return bytes
    }

    /// A fresh `clipPath` id: `c1`, `c2`, … in document order.
    mutating func nextClipID() -> String {
        clipCount += 1
        return "c\(clipCount)"
    }

    /// ` fill="#rrggbb"` (or `stroke`), with an opacity attribute when the colour is not opaque.
    static func paint(_ attribute: String, _ color: RGBA) -> String {
        let hex = color.hex.prefix(6)
        var text = " \(attribute)=\"#\(hex)\""
        if color.alpha < 255 {
            text += " \(attribute)-opacity=\"\(number(Double(color.alpha) / 255, digits: 3))\""
        }
        return text
    }

    /// Path data: absolute commands, numbers separated by a space (none before a minus sign).
    static func pathData(_ path: Path) -> String {
        var data = ""
        func add(_ command: Character, _ points: Point...) {
            data.append(command)
            var first = true
            for point in points {
                for value in [point.x, point.y] {
                    let text = number(value)
                    if !first, !text.hasPrefix("-") { data.append(" ") }
                    data += text
                    first = false
                }
            }
        }
        for element in path.elements {
            switch element {
            case .move(let p): add("M", p)
            case .line(let p): add("L", p)
            case .curve(let c1, let c2, let p): add("C", c1, c2, p)
            case .close: data.append("Z")
            }
        }
        return data
    }

    /// `value` rounded to `digits` decimals, shortest form: `12`, `0.5` → `.5`, `-1.25`.
    static func number(_ value: Double, digits: Int = CairoPath.decimals) -> String {
        var unit = 1
        for _ in 0..<digits { unit *= 10 }
        let scaled = (value * Double(unit)).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
        let units = Int(scaled)
        let whole = abs(units) / unit
        var fraction = abs(units) % unit
        var text = units < 0 ? "-" : ""
        if whole != 0 || fraction == 0 { text += String(whole) }
        if fraction != 0 {
            var fractionDigits = digits
            while fraction % 10 == 0 {
                fraction /= 10
                fractionDigits -= 1
            }
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: fractionDigits - digitsText.count) + digitsText
        }
        return text
    }
}
