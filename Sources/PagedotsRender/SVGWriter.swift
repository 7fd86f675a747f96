import PagedotsCore

/// Writes a `Drawing` as an SVG document sized in points.
///
/// Written directly, element by element, so the same drawing always gives
/// the same bytes: coordinates rounded to 1/100 point (as the PNG draws them), opacities to 1/1000,
/// no trailing zeros. Text becomes glyph outlines (the same ones the PNG
/// fills), so the document needs no font to look the same everywhere.
/// Keeps Cairo state for the glyphs, so it is not `Sendable`: one per thread.
public final class SVGWriter {
    private let text = TextOutliner()

    public init() {}

    /// The document's bytes (UTF-8), the same for the same drawing.
    public func svg(for drawing: Drawing) -> [UInt8] {
        var document = SVGDocument()
        let width = SVGDocument.number(drawing.size.width), height = SVGDocument.number(drawing.size.height)
        document.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">")
        if drawing.background.alpha > 0 {
            document.append("<rect width=\"\(width)\" height=\"\(height)\"\(SVGDocument.paint("fill", drawing.background))/>")
        }
        for item in drawing.items { write(item, to: &document) }
        document.append("</svg>")
        return document.bytes
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
            let outline = text.outline(of: run)
            if !outline.elements.isEmpty { write(.fill(outline, run.color), to: &document) }
        }
    }
}

/// An SVG document being written, and its number, colour and path syntax.
struct SVGDocument {
    private(set) var bytes: [UInt8] = []
    private var clipCount = 0

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
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
