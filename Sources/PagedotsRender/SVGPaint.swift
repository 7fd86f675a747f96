import PagedotsCore

/// A presentation attribute the SVG writer sets.
enum SVGProperty: Int, CaseIterable, Sendable {
    case fill, fillOpacity, stroke, strokeOpacity, strokeWidth
    /// Group opacity (a title's alpha): not inherited, so it stays on the
    /// element that needs it and is never moved to a group around several.
    case opacity

    /// The attribute's (and CSS property's) name.
    var name: String {
        switch self {
        case .fill: "fill"
        case .fillOpacity: "fill-opacity"
        case .stroke: "stroke"
        case .strokeOpacity: "stroke-opacity"
        case .strokeWidth: "stroke-width"
        case .opacity: "opacity"
        }
    }

    /// SVG's initial value: what an element has when nothing sets it.
    var initial: String {
        switch self {
        case .fill: "#000"
        case .stroke: "none"
        case .fillOpacity, .strokeOpacity, .strokeWidth, .opacity: "1"
        }
    }

    var isInherited: Bool { self != .opacity }
}

/// A value in the light theme and in the dark one (the same twice when the
/// image does not switch).
struct Themed: Hashable, Sendable {
    var light: String
    var dark: String

    init(light: String, dark: String) {
        self.light = light
        self.dark = dark
    }

    /// The same value in both themes.
    init(_ value: String) {
        self.init(light: value, dark: value)
    }
}

/// One property set to one value: an attribute, or a declaration of a dark rule.
struct SVGAssignment: Hashable, Sendable {
    var property: SVGProperty
    var value: String
}

/// The presentation values an element needs, by property; properties it
/// does not care about are nil (a filled shape has no use for `stroke-width`).
struct SVGPaint: Hashable, Sendable {
    private var values = [Themed?](repeating: nil, count: SVGProperty.allCases.count)

    subscript(property: SVGProperty) -> Themed? {
        get { values[property.rawValue] }
        set { values[property.rawValue] = newValue }
    }

    /// Every property at its initial value: what the root element starts from.
    static let initial: SVGPaint = {
        var paint = SVGPaint()
        for property in SVGProperty.allCases { paint[property] = Themed(property.initial) }
        return paint
    }()

    /// A shape filled with `light` (`dark` in the dark theme), with no outline.
    static func fill(_ light: RGBA, _ dark: RGBA) -> SVGPaint {
        var paint = SVGPaint()
        paint[.fill] = Themed(light: color(light), dark: color(dark))
        paint[.fillOpacity] = Themed(light: opacity(light), dark: opacity(dark))
        paint[.stroke] = Themed("none")
        return paint
    }

    /// A line `width` points wide in `light` (`dark`), nothing filled.
    static func stroke(_ light: RGBA, _ dark: RGBA, width: String) -> SVGPaint {
        var paint = SVGPaint()
        paint[.fill] = Themed("none")
        paint[.stroke] = Themed(light: color(light), dark: color(dark))
        paint[.strokeOpacity] = Themed(light: opacity(light), dark: opacity(dark))
        paint[.strokeWidth] = Themed(width)
        return paint
    }

    /// Glyphs filled with the colour made opaque, its alpha applied to them
    /// together as group opacity (so overlapping glyphs are not darker where
    /// they overlap, as the PNG paints them).
    static func glyphs(_ light: RGBA, _ dark: RGBA) -> SVGPaint {
        var paint = SVGPaint()
        paint[.fill] = Themed(light: color(light), dark: color(dark))
        paint[.fillOpacity] = Themed("1")
        paint[.stroke] = Themed("none")
        paint[.opacity] = Themed(light: opacity(light), dark: opacity(dark))
        return paint
    }

    /// `#rrggbb`, or `#rgb` where each channel's two digits are the same.
    static func color(_ color: RGBA) -> String {
        let hex = Array(color.hex.prefix(6))
        let short = stride(from: 0, to: 6, by: 2).allSatisfy { hex[$0] == hex[$0 + 1] }
        return "#" + (short ? String([hex[0], hex[2], hex[4]]) : String(hex))
    }

    /// The colour's alpha as an opacity to three decimals: `1`, `.302`, `0`.
    static func opacity(_ color: RGBA) -> String {
        SVGNumber.text(Double(color.alpha) / 255, digits: 3)
    }

    /// Whether the element paints nothing in either theme (fully transparent in both).
    var isInvisible: Bool {
        [SVGProperty.fillOpacity, .strokeOpacity, .opacity].contains { self[$0] == Themed("0") }
    }

    /// What an element needing this paint must set where it inherits
    /// `context`: an attribute for each property whose light value differs
    /// from the inherited one, and a declaration for the dark rule where the
    /// dark value differs from what the element would otherwise have in the
    /// dark theme (its own attribute's value, which applies in both themes,
    /// or the inherited dark value).
    func override(in context: SVGPaint) -> SVGOverride {
        var override = SVGOverride()
        for property in SVGProperty.allCases {
            guard let needed = self[property] else { continue }
            let inherited = property.isInherited ? context[property] ?? Themed(property.initial) : Themed(property.initial)
            guard needed != inherited else { continue }
            let writesAttribute = needed.light != inherited.light
            if writesAttribute {
                override.attributes.append(SVGAssignment(property: property, value: needed.light))
            }
            if needed.dark != (writesAttribute ? needed.light : inherited.dark) {
                override.dark.append(SVGAssignment(property: property, value: needed.dark))
            }
        }
        return override
    }

    /// `context` as an element with this paint passes it on to its children.
    func applied(to context: SVGPaint) -> SVGPaint {
        var result = context
        for property in SVGProperty.allCases where property.isInherited {
            if let value = self[property] { result[property] = value }
        }
        return result
    }
}

/// What one element sets: attributes (light values, which also hold in the
/// dark theme unless a dark rule overrides them) and the declarations of its
/// dark rule (written as a class in `@media (prefers-color-scheme: dark)`).
struct SVGOverride: Hashable, Sendable {
    var attributes: [SVGAssignment] = []
    var dark: [SVGAssignment] = []

    var isEmpty: Bool { attributes.isEmpty && dark.isEmpty }

    /// The part that children inherit, which a group around several elements can carry.
    var inherited: SVGOverride {
        SVGOverride(attributes: attributes.filter(\.property.isInherited), dark: dark.filter(\.property.isInherited))
    }

    /// The part that stays on the element itself.
    var own: SVGOverride {
        SVGOverride(attributes: attributes.filter { !$0.property.isInherited }, dark: dark.filter { !$0.property.isInherited })
    }

    /// Roughly what it costs in bytes: ` name="value"` per attribute, and
    /// ` class="x"` plus `name:value;` per dark declaration.
    var estimatedBytes: Int {
        let attributeBytes = attributes.reduce(0) { $0 + $1.property.name.count + $1.value.count + 4 }
        let darkBytes = dark.isEmpty ? 0 : dark.reduce(10) { $0 + $1.property.name.count + $1.value.count + 2 }
        return attributeBytes + darkBytes
    }
}
