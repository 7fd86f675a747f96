import Testing
import PagedotsCore

/// The spec is the image cache's key, compared over every stored field. These
/// tests hold the other half, parameter by parameter from the table: each
/// parameter changes the spec where its style, fill and format use it (so its
/// images get keys of their own), and leaves it at its default where they do
/// not (so URLs for one image share one key). A new parameter cannot be left
/// out: `sample(for:)` is an exhaustive switch.
@Suite struct ParameterCoverageTests {
    /// A valid value for each parameter that is not its default, with
    /// `pages=3` (and whatever makes the parameter apply) beside it.
    static func sample(for name: ParameterName) -> String {
        switch name {
        case .pages: "4"
        case .current: "2"
        case .style: "pill"
        case .color: "red"
        case .inactive: "green"
        case .bg: "white"
        case .size: "9"
        case .spacing: "7"
        case .padding: "3"
        case .scale: "2"
        case .direction: "rtl"
        case .fill: "outline"
        case .stroke: "2"
        case .shape: "star"
        case .colors: "red,green,blue"
        case .format: "svg"
        case .visible: "5"
        case .progress: "0.25"
        case .labels: "a,b,c"
        case .width: "200"
        case .height: "100"
        }
    }

    /// The parameters that make `use` apply (nil where none is needed).
    static func applyingContext(_ use: ParameterUse) -> [(ParameterName, String)] {
        var context: [(ParameterName, String)] = []
        if use.styles != Style.allCases, let style = use.styles.first { context.append((.style, style.rawValue)) }
        if let fill = use.fill { context.append((.fill, fill.rawValue)) }
        if let format = use.format { context.append((.format, format.rawValue)) }
        return context
    }

    /// The parameters that make `use` not apply, or nil when it always applies.
    static func nonApplyingContext(_ use: ParameterUse) -> [(ParameterName, String)]? {
        if let style = Style.allCases.first(where: { !use.styles.contains($0) }) { return [(.style, style.rawValue)] }
        if let fill = use.fill, let other = Fill.allCases.first(where: { $0 != fill }) { return [(.fill, other.rawValue)] }
        if let format = use.format, let other = ImageFormat.allCases.first(where: { $0 != format }) { return [(.format, other.rawValue)] }
        return nil
    }

    static func query(_ pairs: [(ParameterName, String)]) -> String {
        var values: [ParameterName: String] = [.pages: "3"]
        for (name, value) in pairs { values[name] = value }
        // `colors` replaces `color`: never both.
        if values[.colors] != nil { values[.color] = nil }
        return ParameterName.allCases.compactMap { name in values[name].map { "\(name.rawValue)=\($0)" } }.joined(separator: "&")
    }

    @Test(arguments: Parameter.all)
    func changesTheSpecWhereItApplies(parameter: Parameter) throws {
        let context = Self.applyingContext(parameter.use)
        let without = try parsedSpec(Self.query(context))
        let with = try parsedSpec(Self.query(context + [(parameter.name, Self.sample(for: parameter.name))]))
        #expect(with != without, "\(parameter.name) does not change the spec where it applies")
    }

    @Test(arguments: Parameter.all)
    func leavesTheSpecAloneWhereItDoesNotApply(parameter: Parameter) throws {
        guard let context = Self.nonApplyingContext(parameter.use) else { return }
        let without = try parsedSpec(Self.query(context))
        let with = try parsedSpec(Self.query(context + [(parameter.name, Self.sample(for: parameter.name))]))
        #expect(with == without, "\(parameter.name) changes the spec where \(parameter.use.summary) says it has no effect")
    }
}
