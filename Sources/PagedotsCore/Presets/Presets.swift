/// An operator's named looks (docs/operating.md, "Presets"): preset names to
/// queries of image parameters, which `preset=NAME` in a URL stands for.
public struct Presets: Sendable, Equatable {
    /// Each preset's query as written, by name.
    public let queries: [String: String]

    /// No presets.
    public static let none = Presets(checked: [:])

    /// The names a URL may set itself when only presets may be drawn
    /// (`--only-presets`): the preset, the page and its calendar, the
    /// titles, the format and the scale. (`expires` and `sig` are not image
    /// parameters and are always allowed.)
    public static let allowedWithOnlyPresets: Set<ParameterName> = [.pages, .current, .start, .every, .tz, .labels, .format, .scale]

    private init(checked queries: [String: String]) {
        self.queries = queries
    }

    /// Presets checked one by one, in the order of their names: each name is
    /// 1 to 32 of `a`–`z`, `0`–`9` and `-`; each query holds only image
    /// parameters, each at most once, each value valid on its own (time zones
    /// from `zones`); and a query that names `pages` draws as it is.
    public init(_ queries: [String: String], zones: any TimeZoneSource) throws(PresetError) {
        for (name, query) in queries.sorted(by: { $0.key < $1.key }) {
            guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy(Self.isNameByte) else {
                throw PresetError(preset: name, problem: "a preset name is 1 to 32 of a-z, 0-9 and -")
            }
            do {
                try Self.check(query[...], zones: zones)
            } catch {
                throw PresetError(preset: name, problem: error.description)
            }
        }
        self.init(checked: queries)
    }

    /// `directives.rest` with the named presets' parameters before it, each
    /// left out where a later preset, or the URL itself, sets it. Throws
    /// about `preset` for a name that is not a preset.
    public func expand(_ directives: QueryDirectives) throws(ParameterError) -> Substring {
        guard !directives.presetNames.isEmpty else { return directives.rest }
        var chosen: [String] = []
        for name in directives.presetNames {
            guard let query = queries[name] else {
                throw ParameterError(
                    "preset", must: "be the name of one of this service's presets (see /presets.json)",
                    got: ParameterError.quoted(name.utf8)
                )
            }
            chosen.append(query)
        }
        // Who sets what: the URL first, then the presets from the last.
        var taken = Set(directives.ownNames)
        var parts: [Substring] = directives.rest.isEmpty ? [] : [directives.rest]
        for query in chosen.reversed() {
            let pairs = query.split(separator: "&").filter { !taken.contains($0.prefix { $0 != "=" }) }
            for pair in pairs { taken.insert(pair.prefix { $0 != "=" }) }
            parts.insert(contentsOf: pairs, at: 0)
        }
        return Substring(parts.joined(separator: "&"))
    }

    /// Refuses, with `--only-presets`, a URL that names no preset or sets an
    /// image parameter other than those allowed: a `ParameterError` naming it.
    public static func checkOnlyPresets(_ directives: QueryDirectives) throws(ParameterError) {
        for name in directives.ownNames {
            guard let parameter = ParameterName(rawValue: String(name)) else { continue }  // unknown: ignored as ever
            guard allowedWithOnlyPresets.contains(parameter) else {
                throw ParameterError(
                    parameter: parameter.rawValue,
                    description: "\(parameter.rawValue): not allowed here: this service draws only its presets "
                        + "(see /presets.json); a URL may set preset, \(allowedNames), expires and sig"
                )
            }
        }
        guard !directives.presetNames.isEmpty else {
            throw ParameterError(
                parameter: "preset",
                description: "preset: required: this service draws only its presets (see /presets.json)"
            )
        }
    }

    /// The allowed image parameters, in the table's order.
    private static var allowedNames: String {
        ParameterName.allCases.filter(allowedWithOnlyPresets.contains).map(\.rawValue).joined(separator: ", ")
    }

    /// A preset's query: known image parameters only, once each, each valid
    /// on its own; all of them together when `pages` is among them.
    private static func check(_ query: Substring, zones: any TimeZoneSource) throws(ParameterError) {
        var seen: Set<Substring> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name = pair.prefix { $0 != "=" }
            guard let parameter = ParameterName(rawValue: String(name)) else {
                throw ParameterError(
                    parameter: String(name),
                    description: "\(ParameterError.quoted(name.utf8)): not an image parameter (see docs/parameters.md)"
                )
            }
            guard seen.insert(name).inserted else { throw .givenTwice(parameter) }
            try ParameterValue(parameter.definition, raw: Array(pair.dropFirst(name.count + 1).utf8)[...]).check(zones: zones)
        }
        if seen.contains("pages") {
            _ = try IndicatorQuery.parse(query: query, calendar: CalendarContext(zones: zones))
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-")
    }
}

/// Why a presets file is refused: one line naming the preset.
public struct PresetError: Error, Sendable, CustomStringConvertible {
    public var preset: String
    public var problem: String

    public init(preset: String, problem: String) {
        self.preset = preset
        self.problem = problem
    }

    /// `preset "brand": color: must be a color…; got "pinkish"`.
    public var description: String {
        "preset \(ParameterError.quoted(preset.utf8)): \(problem)"
    }
}
