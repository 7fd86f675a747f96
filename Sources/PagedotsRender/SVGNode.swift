/// One element of an SVG body before its paint is written: what it draws,
/// the paint it needs, and the clip path it is drawn through. The document
/// then writes each paint only where it differs from what the element
/// inherits (`SVGDocument`).
struct SVGNode: Sendable {
    enum Content: Sendable {
        /// A basic shape or a path.
        case shape(SVGShape)
        /// A `<use>` of a shape defined once (a star that is also its ring's clip).
        case reference(Int)
        /// A title: glyph definitions placed at their origins.
        case glyphs([SVGGlyphUse])
        /// A group of elements clipped together.
        case group([SVGNode])
    }

    var content: Content
    /// What it needs; empty for a group, whose elements need their own.
    var paint: SVGPaint
    /// The document id of the `clipPath` it is clipped to.
    var clip: Int?

    init(_ content: Content, paint: SVGPaint = SVGPaint(), clip: Int? = nil) {
        self.content = content
        self.paint = paint
        self.clip = clip
    }

    /// This node and every node inside it, depth first.
    var flattened: [SVGNode] {
        guard case .group(let children) = content else { return [self] }
        return [self] + children.flatMap(\.flattened)
    }
}

/// One glyph of a title: the document id of its outline and its origin in
/// hundredths of a point (as the PNG places it).
struct SVGGlyphUse: Hashable, Sendable {
    var id: Int
    var x: Int
    var y: Int
}
