import Foundation
import Testing
import PagedotsCore

/// The parameter table: its order, its defaults, its use rules, and the docs made from it.
@Suite struct ParameterTableTests {
    /// A valid value other than the default for every parameter, for
    /// `pages=3`. An exhaustive switch: a new parameter needs a sample, and
    /// then the tests below check that it changes the spec (the image cache's
    /// key) where it is used and leaves it alone where it is not.
    static func sample(for name: ParameterName) -> String {
        switch name {
        case .pages: "4"
        case .current: "1"
        case .start: "2025-01-01"
        case .every: "1d"
        case .tz: "Europe/Berlin"
        case .style: "pill"
        case .color: "red"
        case .inactive: "blue"
        case .bg: "white"
        case .size: "10"
        case .spacing: "6"
        case .padding: "2"
        case .scale: "2"
        case .direction: "rtl"
        case .fill: "outline"
        case .stroke: "2"
        case .shape: "star"
        case .colors: "red,green"
        case .format: "svg"
        case .visible: "9"
        case .progress: "0.25"
        case .labels: "a,b,c"
        case .dwell: "1000"
        case .transition: "200"
        case .effect: "worm"
        case .loop: "3"
        case .fps: "10"
        case .matte: "black"
        case .change: "fade"
        case .place: "below"
        case .inset: "20"
        case .backdrop: "black"
        case .fit: "contain"
        case .slidesize: "600x300"
        case .budget: "1M"
        case .theme: "dark"
        case .darkcolor: "orange"
        case .darkinactive: "gray"
        case .darkbg: "black"
        case .width: "200"
        case .height: "50"
        }
    }

    /// The parameters (besides `pages=3`) with which `use` applies.
    static func applyingContext(_ use: ParameterUse) -> [(ParameterName, String)] {
        var context: [(ParameterName, String)] = [(.style, use.styles[0].rawValue)]
        if let fill = use.fill { context.append((.fill, fill.rawValue)) }
        if let format = use.formats?.first { context.append((.format, format.rawValue)) }
        if let theme = use.themes?.first { context.append((.theme, theme.rawValue)) }
        if let effect = use.effects?.first { context.append((.effect, effect.rawValue)) }
        return context
    }

    /// The same with one of them changed so that `use` does not apply, or nil when it always does.
    static func nonApplyingContext(_ use: ParameterUse) -> [(ParameterName, String)]? {
        var context = applyingContext(use)
        if let style = Style.allCases.first(where: { !use.styles.contains($0) }) {
            context[0] = (.style, style.rawValue)
        } else if let fill = use.fill, let other = Fill.allCases.first(where: { $0 != fill }) {
            context.append((.fill, other.rawValue))
        } else if let formats = use.formats, let other = ImageFormat.allCases.first(where: { !formats.contains($0) }) {
            context.append((.format, other.rawValue))
        } else if let themes = use.themes, let other = Theme.allCases.first(where: { !themes.contains($0) }) {
            context.append((.theme, other.rawValue))
        } else if let effects = use.effects, let other = Effect.allCases.first(where: { !effects.contains($0) }) {
            context.append((.effect, other.rawValue))
        } else {
            return nil
        }
        return context
    }

    /// `pages=3` with `pairs` (a later pair replaces an earlier one of the same name), in the table's order.
    static func query(_ pairs: [(ParameterName, String)]) -> String {
        var values: [ParameterName: String] = [.pages: "3"]
        for (name, value) in pairs { values[name] = value }
        return ParameterName.allCases.compactMap { name in values[name].map { "\(name.rawValue)=\($0)" } }.joined(separator: "&")
    }

    @Test func tableFollowsTheNamesOrder() {
        #expect(Parameter.all.map(\.name) == ParameterName.allCases)
        #expect(ParameterName.allCases.map(\.rawValue) == [
            "pages", "current", "start", "every", "tz", "style", "color", "inactive", "bg", "size", "spacing", "padding", "scale", "direction",
            "fill", "stroke", "shape", "colors", "format", "visible", "progress", "labels",
            "dwell", "transition", "effect", "loop", "fps", "matte", "change", "place", "inset", "backdrop", "fit", "slidesize", "budget", "theme", "darkcolor", "darkinactive", "darkbg", "width", "height",
        ])
        #expect(Parameter.all.allSatisfy { $0.name.definition == $0 })
    }

    @Test(arguments: Parameter.all)
    func writingTheDefaultChangesNothing(parameter: Parameter) throws {
        guard case .value(let value) = parameter.defaultValue else { return }
        let context = Self.applyingContext(parameter.use).filter { $0.0 != parameter.name }
        #expect(try parsedSpec(Self.query(context + [(parameter.name, value)])) == parsedSpec(Self.query(context)))
    }

    /// The parameters that choose `current` rather than draw: `CalendarQueryTests` tests them.
    static let calendarParameters: Set<ParameterName> = [.start, .every, .tz]

    @Test(arguments: Parameter.all.filter { !calendarParameters.contains($0.name) && !$0.use.carouselOnly })
    func aParameterChangesTheImageOnlyWhereItIsUsed(parameter: Parameter) throws {
        let sample = (parameter.name, Self.sample(for: parameter.name))
        let used = Self.applyingContext(parameter.use).filter { $0.0 != parameter.name }
        #expect(try parsedSpec(Self.query(used + [sample])) != parsedSpec(Self.query(used)))
        if let unused = Self.nonApplyingContext(parameter.use) {
            #expect(try parsedSpec(Self.query(unused + [sample])) == parsedSpec(Self.query(unused)))
        }
    }

    @Test func useRulesAsTheDocsSayThem() {
        let use = Dictionary(uniqueKeysWithValues: Parameter.all.map { ($0.name, $0.use.summary) })
        #expect(use[.visible] == "scroll")
        #expect(use[.progress] == "progress, PNG and SVG only")
        #expect(use[.labels] == "bar")
        #expect(use[.stroke] == "dots, pill, scroll, progress with fill=outline")
        #expect(use[.fill] == "dots, pill, scroll, progress")
        #expect(use[.shape] == "dots, pill, scroll, progress")
        #expect(use[.spacing] == "dots, pill, bar, scroll, progress")
        #expect(use[.scale] == "all, PNG, GIF and APNG only")
        #expect(use[.size] == "all")
        #expect(use[.dwell] == "all, GIF and APNG only")
        #expect(use[.transition] == "all with effect=slide, worm or fade, GIF and APNG only")
        #expect(use[.matte] == "all, GIF only")
        #expect(use[.change] == "carousels only")
    }

    @Test func allowedValuesInWords() {
        let allowed = Dictionary(uniqueKeysWithValues: Parameter.all.map { ($0.name, $0.allowed) })
        #expect(allowed[.pages] == "integer 1…1000")
        #expect(allowed[.current] == "integer 0…999; less than pages")
        #expect(allowed[.size] == "number 2…64 (points)")
        #expect(allowed[.stroke] == "number 0.5…8 (points)")
        #expect(allowed[.style] == "dots, pill, bar, scroll, progress, fraction")
        #expect(allowed[.colors] == "1…1000 colors, comma-separated; not together with color")
        #expect(allowed[.width] == "number (points); at least the fitted width")
        #expect(allowed[.dwell] == "integer 100…60000, a multiple of 10 (milliseconds)")
        #expect(allowed[.transition] == "integer 0…60000, a multiple of 10 (milliseconds); at most dwell, which also caps the default")
        #expect(allowed[.effect] == "slide, worm, fade, none")
    }

    /// A carousel's own parameters are validated on an indicator URL, then
    /// draw nothing there: the indicator's spec (its cache key) stays the same.
    @Test(arguments: Parameter.all.filter(\.use.carouselOnly))
    func carouselParametersLeaveIndicatorsAlone(parameter: Parameter) throws {
        let sample = (parameter.name, Self.sample(for: parameter.name))
        for format in ["png", "gif"] {
            #expect(try parsedSpec(Self.query([(.format, format), sample])) == parsedSpec(Self.query([(.format, format)])))
        }
        #expect(throws: ParameterError.self) { try parsedSpec(Self.query([(parameter.name, "x%zz")])) }
    }

    /// The docs' row for a parameter, as a generator would write it.
    static func docsRow(_ parameter: Parameter) -> String {
        let defaultText = switch parameter.defaultValue {
        case .required: "required"
        case .none: "—"
        case .value(let value): "`\(value)`"
        case .derived(let words): words
        }
        return "| `\(parameter.name)` | \(defaultText) | \(parameter.allowed) | \(parameter.use.summary) | \(parameter.summary) |"
    }

    @Test func docsTableIsTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/parameters.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex(of: "| name | default | allowed | used by | meaning |"))
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map(String.init)
        #expect(rows == Parameter.all.map(Self.docsRow))
    }
}
