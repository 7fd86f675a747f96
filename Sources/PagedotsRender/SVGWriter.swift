import PagedotsCore

/// Writes a `Drawing` as an SVG document sized in points, as a person would
/// write it (docs/styles.md, "SVG"): circles as `<circle>`, squares, rounded
/// squares and capsules as `<rect>`, rings as stroked circles and rects,
/// other outlines as the shortest path data, each colour set once where
/// the elements that use it can inherit it.
///
/// Written directly, element by element, so the same drawing always gives
/// the same bytes: path coordinates rounded to 1/100 point (as the PNG draws
/// them), opacities to 1/1000. Text becomes glyph outlines (the same ones, at
/// the same places, that the PNG fills), so the document needs no font to
/// look the same everywhere: each distinct glyph is written once in `<defs>`
/// and placed with a `<use>` wherever it occurs.
///
/// Given the drawing of the same image in the dark colours (`theme=auto`),
/// the document draws the light colours and switches to the dark ones under
/// `@media (prefers-color-scheme: dark)`: colours do not move anything, so
/// the two drawings' items correspond one to one, and each element's dark
/// paint is the corresponding dark item's.
///
/// Keeps Cairo and Pango state for the glyphs, so it is not `Sendable`: one per thread.
public final class SVGWriter {
    /// Made on the first title, so drawings without text never start Pango or fontconfig.
    private lazy var text = TextLayoutEngine()

    public init() {}

    /// The document's bytes (UTF-8), the same for the same drawings. With
    /// `dark`, the colours switch to `dark`'s under the dark colour scheme.
    public func svg(for drawing: Drawing, dark: Drawing? = nil) -> [UInt8] {
        var document = SVGDocument()
        var nodes: [SVGNode] = []
        let width = SVGNumber.text(drawing.size.width), height = SVGNumber.text(drawing.size.height)
        let background = SVGPaint.fill(drawing.background, dark?.background ?? drawing.background)
        if !background.isInvisible {
            nodes.append(SVGNode(.shape(SVGShape(tag: "rect", geometry: " width=\"\(width)\" height=\"\(height)\"")), paint: background))
        }
        nodes += self.nodes(for: drawing.items, dark: dark?.items, in: &document)
        let root = Self.rootPaint(for: nodes)
        document.write(nodes, in: root.applied(to: .initial))
        return document.finished(
            opening: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\"",
            root: root.override(in: .initial)
        )
    }

    /// The nodes for `items`, each painted with its counterpart in `dark`
    /// (its own colours where the two drawings do not correspond).
    private func nodes(for items: [DrawItem], dark: [DrawItem]?, in document: inout SVGDocument) -> [SVGNode] {
        let counterparts = dark.flatMap { $0.count == items.count ? $0 : nil }
        return items.indices.flatMap { index in
            nodes(for: items[index], dark: counterparts?[index], in: &document)
        }
    }

    private func nodes(for item: DrawItem, dark: DrawItem?, in document: inout SVGDocument) -> [SVGNode] {
        switch item {
        case .fill(let path, let color):
            var darkColor = color
            if case .fill(_, let other)? = dark { darkColor = other }
            switch SVGShape.filling(path) {
            case .fill(let shape):
                return visible(SVGNode(.shape(shape), paint: .fill(color, darkColor)))
            case .stroke(let shape, let width):
                return visible(SVGNode(.shape(shape), paint: .stroke(color, darkColor, width: width)))
            }
        case .stroke(let path, let lineWidth, let color):
            var darkColor = color
            if case .stroke(_, _, let other)? = dark { darkColor = other }
            let width = SVGNumber.text(lineWidth, digits: SVGNumber.shapeDecimals)
            return visible(SVGNode(.shape(SVGShape.outline(of: path)), paint: .stroke(color, darkColor, width: width)))
        case .clipped(let clip, let items):
            var darkItems: [DrawItem]?
            if case .clipped(_, let other)? = dark { darkItems = other }
            var inside = nodes(for: items, dark: darkItems, in: &document)
            guard !inside.isEmpty else { return [] }
            let outline = SVGShape.outline(of: clip)
            // One element takes the clip itself; several share a group.
            guard inside.count == 1, inside[0].clip == nil else {
                return [SVGNode(.group(inside), clip: document.clipID(for: outline))]
            }
            if case .shape(let shape) = inside[0].content, shape == outline {
                // Drawn along its own clip (a star's or heart's ring): the outline is defined once and used twice.
                let id = document.shapeID(for: shape)
                inside[0].content = .reference(id)
                inside[0].clip = document.clipID(using: id)
            } else {
                inside[0].clip = document.clipID(for: outline)
            }
            return inside
        case .text(let run):
            var darkColor = run.color
            if case .text(let other)? = dark { darkColor = other.color }
            let paint = SVGPaint.glyphs(run.color, darkColor)
            guard !paint.isInvisible else { return [] }
            let glyphs = text.glyphRun(for: run).glyphs
            guard !glyphs.isEmpty else { return [] }
            let uses = glyphs.map { glyph in
                SVGGlyphUse(id: document.glyphID(for: glyph), x: SVGNumber.units(glyph.origin.x), y: SVGNumber.units(glyph.origin.y))
            }
            return [SVGNode(.glyphs(uses), paint: paint)]
        }
    }

    /// The node, unless it paints nothing in either theme.
    private func visible(_ node: SVGNode) -> [SVGNode] {
        node.paint.isInvisible ? [] : [node]
    }

    /// The values the root element sets, each inherited property's chosen to
    /// make the document shortest: the one that costs least over the root
    /// and every element that needs the property (SVG's initial value when
    /// nothing beats it, then the first in document order).
    static func rootPaint(for nodes: [SVGNode]) -> SVGPaint {
        let elements = nodes.flatMap(\.flattened)
        var root = SVGPaint()
        for property in SVGProperty.allCases where property.isInherited {
            let needs = elements.compactMap { $0.paint[property] }
            var candidates = [Themed(property.initial)]
            for need in needs where !candidates.contains(need) { candidates.append(need) }
            func cost(of value: Themed) -> Int {
                var context = SVGPaint.initial
                var own = SVGPaint()
                own[property] = value
                let rootBytes = own.override(in: context).estimatedBytes
                context[property] = value
                return needs.reduce(rootBytes) { total, need in
                    var paint = SVGPaint()
                    paint[property] = need
                    return total + paint.override(in: context).estimatedBytes
                }
            }
            var best = (value: candidates[0], cost: cost(of: candidates[0]))
            for candidate in candidates.dropFirst() {
                let candidateCost = cost(of: candidate)
                if candidateCost < best.cost { best = (candidate, candidateCost) }
            }
            if best.value != Themed(property.initial) { root[property] = best.value }
        }
        return root
    }
}
