import Foundation
import Testing
import PagedotsCore

/// The parameter table: its order, its defaults, its use rules, and the docs made from it.
@Suite struct ParameterTableTests {
    /// A valid value other than the default for every parameter but `pages`, for `pages=3`.
    static let samples: [ParameterName: String] = [
        .current: "1", .style: "pill", .color: "red", .inactive: "blue", .bg: "white", .size: "10",
        .spacing: "6", .padding: "2", .scale: "2", .direction: "rtl", .fill: "outline", .stroke: "2",
        .shape: "star", .colors: "red,green", .format: "svg", .visible: "9", .progress: "0.25",
        .labels: "a,b,c", .width: "200", .height: "50",
    ]

    /// A query in which `parameter` is drawn with.
    static func using(_ parameter: Parameter) -> String {
        "pages=3&style=\(parameter.use.styles[0])&fill=\(parameter.use.fill ?? .solid)&format=\(parameter.use.format ?? .png)"
            .replacingOccurrences(of: "&\(parameter.name)=[^&]*", with: "", options: .regularExpression)
    }

    @Test func tableFollowsTheNamesOrder() {
        #expect(Parameter.all.map(\.name) == ParameterName.allCases)
        #expect(ParameterName.allCases.map(\.rawValue) == [
            "pages", "current", "style", "color", "inactive", "bg", "size", "spacing", "padding", "scale", "direction",
            "fill", "stroke", "shape", "colors", "format", "visible", "progress", "labels", "width", "height",
        ])
        #expect(Parameter.all.allSatisfy { $0.name.definition == $0 })
    }

    @Test(arguments: Parameter.all)
    func writingTheDefaultChangesNothing(parameter: Parameter) throws {
        guard case .value(let value) = parameter.defaultValue else { return }
        let base = Self.using(parameter)
        #expect(try parsedSpec(base + "&\(parameter.name)=\(value)") == parsedSpec(base))
    }

    @Test(arguments: Parameter.all.filter { $0.name != .pages })
    func aParameterChangesTheImageOnlyWhereItIsUsed(parameter: Parameter) throws {
        let sample = try #require(Self.samples[parameter.name])
        let base = Self.using(parameter)
        #expect(try parsedSpec(base + "&\(parameter.name)=\(sample)") != parsedSpec(base))
        let unused: String? = if let style = Style.allCases.first(where: { !parameter.use.styles.contains($0) }) {
            base.replacingOccurrences(of: "style=\(parameter.use.styles[0])", with: "style=\(style)")
        } else if parameter.use.fill != nil {
            base.replacingOccurrences(of: "fill=outline", with: "fill=solid")
        } else if parameter.use.format != nil {
            base.replacingOccurrences(of: "format=png", with: "format=svg")
        } else {
            nil
        }
        if let unused {
            #expect(try parsedSpec(unused + "&\(parameter.name)=\(sample)") == parsedSpec(unused))
        }
    }

    @Test func useRulesAsTheDocsSayThem() {
        let use = Dictionary(uniqueKeysWithValues: Parameter.all.map { ($0.name, $0.use.summary) })
        #expect(use[.visible] == "scroll")
        #expect(use[.progress] == "progress")
        #expect(use[.labels] == "bar")
        #expect(use[.stroke] == "dots, pill, scroll, progress with fill=outline")
        #expect(use[.fill] == "dots, pill, scroll, progress")
        #expect(use[.shape] == "dots, pill, scroll, progress")
        #expect(use[.scale] == "all, PNG only")
        #expect(use[.size] == "all")
    }

    @Test func allowedValuesInWords() {
        let allowed = Dictionary(uniqueKeysWithValues: Parameter.all.map { ($0.name, $0.allowed) })
        #expect(allowed[.pages] == "integer 1…1000")
        #expect(allowed[.current] == "integer 0…999; less than pages")
        #expect(allowed[.size] == "number 2…64 (points)")
        #expect(allowed[.stroke] == "number 0.5…8 (points)")
        #expect(allowed[.style] == "dots, pill, bar, scroll, progress")
        #expect(allowed[.colors] == "1…1000 colors, comma-separated; not together with color")
        #expect(allowed[.width] == "number (points); at least the fitted width")
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
