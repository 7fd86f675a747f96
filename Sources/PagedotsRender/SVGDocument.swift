import PagedotsCore

/// An SVG document being written. The body is written in order, element by
/// element; definitions (glyph outlines, clip paths) are gathered beside it.
/// Ids and class names are numbers until the document is finished: then
/// the most used get the shortest names (`a`, `b`, … `Z`, `aa`, …).
///
/// Paint is written as a person would: the root element carries the values
/// most elements need, an element sets only what differs from what it
/// inherits, and a run of neighbours that set the same inherited values is
/// wrapped in one `<g>` that sets them once. A value that changes in the dark
/// theme is set for the light one as an attribute and for the dark one by a
/// class (or, on the root, the `svg` selector) whose rule sits in
/// `@media (prefers-color-scheme: dark)`: a style rule outranks an attribute.
struct SVGDocument {
    /// Text, or a name to be chosen when the document is finished.
    private enum Piece {
        case text(String)
        /// An element id (`id="…"`, `href="#…"`, `url(#…)`).
        case id(Int)
        /// A class of the dark rules.
        case className(Int)
    }

    private var body: [Piece] = []
    /// Clip paths, which may stand anywhere, and the definitions of glyph
    /// outlines and shapes used more than once, which must be in `<defs>`.
    private var clipPaths: [Piece] = []
    private var definitions: [Piece] = []
    /// How often each id is written, by id.
    private var idUses: [Int] = []
    private var glyphIDs: [GlyphKey: Int] = [:]
    /// Each dark rule's declarations, by class, and how often each class is written.
    private var darkRules: [[SVGAssignment]] = []
    private var classIDs: [[SVGAssignment]: Int] = [:]
    private var classUses: [Int] = []

    /// The id of `glyph`'s outline; the outline is defined the first time its key is seen.
    mutating func glyphID(for glyph: PositionedGlyph) -> Int {
        if let id = glyphIDs[glyph.key] { return id }
        let id = newID()
        glyphIDs[glyph.key] = id
        definitions += [.text("<path id=\""), .id(id), .text("\" d=\"\(SVGPathData.data(for: glyph.outline))\"/>")]
        use(id)
        return id
    }

    /// The id of a new definition of `shape`, for elements that `<use>` it.
    mutating func shapeID(for shape: SVGShape) -> Int {
        let id = newID()
        definitions += [.text("<\(shape.tag) id=\""), .id(id), .text("\"\(shape.geometry)/>")]
        use(id)
        return id
    }

    /// The id of a new `clipPath` whose content is `shape`.
    mutating func clipID(for shape: SVGShape) -> Int {
        let id = newID()
        clipPaths += [.text("<clipPath id=\""), .id(id), .text("\"><\(shape.tag)\(shape.geometry)/></clipPath>")]
        use(id)
        return id
    }

    /// The id of a new `clipPath` whose content uses the definition `shape`.
    mutating func clipID(using shape: Int) -> Int {
        let id = newID()
        clipPaths += [.text("<clipPath id=\""), .id(id), .text("\"><use href=\"#"), .id(shape), .text("\"/></clipPath>")]
        use(id)
        use(shape)
        return id
    }

    private mutating func newID() -> Int {
        idUses.append(0)
        return idUses.count - 1
    }

    private mutating func use(_ id: Int) {
        idUses[id] += 1
    }

    /// Writes `nodes` as the children of an element whose values are `context`.
    mutating func write(_ nodes: [SVGNode], in context: SVGPaint) {
        var start = 0
        while start < nodes.count {
            let shared = nodes[start].paint.override(in: context).inherited
            var end = start + 1
            if !shared.isEmpty {
                while end < nodes.count, nodes[end].paint.override(in: context).inherited == shared { end += 1 }
            }
            // `<g` and `></g>` cost 7 bytes; each neighbour after the first saves the values.
            if end - start > 1, (end - start - 1) * shared.estimatedBytes > 7 {
                var group = SVGPaint()
                for property in (shared.attributes + shared.dark).map(\.property) {
                    group[property] = nodes[start].paint[property]
                }
                open([.text("<g")], shared, clip: nil)
                body.append(.text(">"))
                write(Array(nodes[start..<end]), in: group.applied(to: context))
                body.append(.text("</g>"))
            } else {
                for node in nodes[start..<end] { write(node, in: context) }
            }
            start = end
        }
    }

    private mutating func write(_ node: SVGNode, in context: SVGPaint) {
        let override = node.paint.override(in: context)
        switch node.content {
        case .shape(let shape):
            open([.text("<" + shape.tag + shape.geometry)], override, clip: node.clip)
            body.append(.text("/>"))
        case .reference(let id):
            open([.text("<use href=\"#"), .id(id), .text("\"")], override, clip: node.clip)
            use(id)
            body.append(.text("/>"))
        case .group(let children):
            open([.text("<g")], override, clip: node.clip)
            body.append(.text(">"))
            write(children, in: node.paint.applied(to: context))
            body.append(.text("</g>"))
        case .glyphs(let uses):
            write(uses, override, clip: node.clip)
        }
    }

    /// A title's glyphs, in whichever of two forms is shorter: each `<use>`
    /// at its origin on the canvas (in a group only if paint or a clip
    /// needs one), or a group moved to the first glyph's origin with each
    /// `<use>` placed from there (short numbers, and no `y` on one baseline).
    private mutating func write(_ uses: [SVGGlyphUse], _ override: SVGOverride, clip: Int?) {
        guard let first = uses.first else { return }
        let onCanvas = Self.placements(of: uses, from: (0, 0))
        let moved = Self.placements(of: uses, from: (first.x, first.y))
        let offset = [first.x, first.y].map { SVGNumber.text(units: $0, decimals: SVGNumber.pathDecimals) }
        let transform = " transform=\"translate(\(first.y == 0 ? offset[0] : offset.joined(separator: " ")))\""
        // A group costs `<g`, `>` and `</g>`: 7 bytes.
        let needsGroup = !override.isEmpty || clip != nil
        let onCanvasBytes = onCanvas.reduce(needsGroup ? 7 : 0) { $0 + $1.count }
        let movedBytes = moved.reduce(7 + transform.count) { $0 + $1.count }
        let isMoved = movedBytes < onCanvasBytes
        if isMoved || needsGroup {
            open([.text("<g" + (isMoved ? transform : ""))], override, clip: clip)
            body.append(.text(">"))
        }
        for (use, placement) in zip(uses, isMoved ? moved : onCanvas) {
            body += [.text("<use href=\"#"), .id(use.id), .text(placement + "/>")]
            self.use(use.id)
        }
        if isMoved || needsGroup { body.append(.text("</g>")) }
    }

    /// Each use's attributes after its `href`'s id (its closing quote, `x`
    /// and `y` where not 0), placed relative to `origin` (hundredths).
    private static func placements(of uses: [SVGGlyphUse], from origin: (x: Int, y: Int)) -> [String] {
        uses.map { use in
            var placement = "\""
            for (name, value) in [("x", use.x - origin.x), ("y", use.y - origin.y)] where value != 0 {
                placement += " \(name)=\"\(SVGNumber.text(units: value, decimals: SVGNumber.pathDecimals))\""
            }
            return placement
        }
    }

    /// Writes `opening` (`<tag` and its geometry), the clip path, the
    /// attributes of `override` and the class of its dark declarations.
    private mutating func open(_ opening: [Piece], _ override: SVGOverride, clip: Int?) {
        body += opening
        if let clip {
            body += [.text(" clip-path=\"url(#"), .id(clip), .text(")\"")]
            use(clip)
        }
        body.append(.text(Self.attributes(override.attributes)))
        guard !override.dark.isEmpty else { return }
        let className: Int
        if let known = classIDs[override.dark] {
            className = known
        } else {
            className = darkRules.count
            darkRules.append(override.dark)
            classUses.append(0)
            classIDs[override.dark] = className
        }
        classUses[className] += 1
        body += [.text(" class=\""), .className(className), .text("\"")]
    }

    /// ` name="value"` for each assignment.
    private static func attributes(_ assignments: [SVGAssignment]) -> String {
        assignments.reduce(into: "") { $0 += " \($1.property.name)=\"\($1.value)\"" }
    }

    /// The whole document: `opening` (the `<svg` tag's name and attributes,
    /// without `>`), the root's paint, the dark rules, the definitions, the body.
    func finished(opening: String, root: SVGOverride) -> [UInt8] {
        let idNames = Self.names(byUses: idUses)
        let classRanks = Self.ranked(byUses: classUses)
        let classNames = Self.names(byUses: classUses)
        func text(_ pieces: [Piece]) -> String {
            pieces.reduce(into: "") { text, piece in
                switch piece {
                case .text(let part): text += part
                case .id(let id): text += idNames[id]
                case .className(let name): text += classNames[name]
                }
            }
        }
        var document = opening + Self.attributes(root.attributes) + ">"
        var rules = root.dark.isEmpty ? "" : "svg{\(Self.declarations(root.dark))}"
        for className in classRanks {
            rules += ".\(classNames[className]){\(Self.declarations(darkRules[className]))}"
        }
        if !rules.isEmpty { document += "<style>@media (prefers-color-scheme:dark){\(rules)}</style>" }
        // Clip paths may stand anywhere; definitions must not be drawn where they are defined.
        document += definitions.isEmpty ? text(clipPaths) : "<defs>" + text(clipPaths + definitions) + "</defs>"
        document += text(body) + "</svg>"
        return Array(document.utf8)
    }

    /// `name:value;name:value`.
    private static func declarations(_ assignments: [SVGAssignment]) -> String {
        assignments.map { "\($0.property.name):\($0.value)" }.joined(separator: ";")
    }

    /// A name for each of `uses.count` things, the shortest for the most
    /// used (the first of equals): `a`…`z`, `A`…`Z`, then two characters.
    static func names(byUses uses: [Int]) -> [String] {
        var names = [String](repeating: "", count: uses.count)
        for (rank, index) in ranked(byUses: uses).enumerated() { names[index] = name(rank) }
        return names
    }

    /// The indices of `uses`, most used first (the first of equals first).
    private static func ranked(byUses uses: [Int]) -> [Int] {
        uses.indices.sorted { uses[$0] > uses[$1] || (uses[$0] == uses[$1] && $0 < $1) }
    }

    /// The `rank`th shortest name: a letter first (as XML names and CSS
    /// classes must start), then letters or digits.
    static func name(_ rank: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let others = letters + Array("0123456789")
        var rest = rank, length = 1, count = letters.count
        while rest >= count {
            rest -= count
            count *= others.count
            length += 1
        }
        var characters: [Character] = []
        for _ in 1..<length {
            characters.append(others[rest % others.count])
            rest /= others.count
        }
        characters.append(letters[rest])
        return String(characters.reversed())
    }
}
