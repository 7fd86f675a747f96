import PagedotsCore

extension Parameter {
    /// Hex `RGB`, `RGBA`, `RRGGBB` or `RRGGBBAA` with an optional `#`, or a
    /// word (the parser knows the 148 CSS names and `transparent`, in any case).
    static let colorPattern = "^(#?([0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z]+)$"

    /// This row of the table as an OpenAPI query Parameter Object; `choices`
    /// narrows a choice's values (a path suffix that fixes the format).
    func openAPIParameter(choices: [String]? = nil) -> JSONValue {
        var object: [(key: String, value: JSONValue)] = [
            ("name", .string(name.rawValue)),
            ("in", "query"),
            ("required", .bool(defaultValue == .required)),
            ("description", .string(openAPIDescription)),
            ("schema", openAPISchema(choices: choices)),
        ]
        switch kind {
        case .colorList, .textList: object += [("style", "form"), ("explode", false)]  // comma-separated
        default: break
        }
        return .object(object)
    }

    /// What `docs/parameters.md` says of the parameter, in one paragraph.
    var openAPIDescription: String {
        var text = summary.prefix(1).uppercased() + summary.dropFirst()
        if let unit { text += ", in \(unit)" }
        text += ". Allowed: \(allowed)."
        if case .derived(let words) = defaultValue { text += " Default: \(words)." }
        text += " Used by: \(use.summary)."
        switch kind {
        case .choice: text += " Case-insensitive."
        case .color, .colorList:
            text += " Colors are hex RGB, RGBA, RRGGBB or RRGGBBAA (a leading `#` sent as `%23`), a CSS color name (case-insensitive) or `transparent`."
        case .integer, .multiple: text += " ASCII digits only."
        case .decimal: text += " Digits with an optional fraction (`7.5`); no sign or exponent."
        case .textList: text += " Split on the literal commas of the value as sent; `%2C` is a comma inside an item."
        case .dateTime: text += " Without an offset, a wall time in `tz`; `+` in an offset is sent as `%2B` (a bare `+` reads as a space, which is read as `+` too)."
        case .period: text += " Minutes and hours are elapsed time; days and weeks are calendar days in `tz`, 23 or 25 hours across a daylight-saving change."
        case .timeZone: text += " As the time zone database (tzdata) names zones; `%2F` or `/` for the slash."
        case .dimensions: text += " Whole numbers of points: `WxH`, or `W` alone."
        case .byteCount: text += " ASCII digits, or a number with `k` (×1,000) or `M` (×1,000,000) after it that comes out whole."
        }
        return text
    }

    /// The JSON Schema of the value: type, range, enum and default as the table says.
    func openAPISchema(choices: [String]? = nil) -> JSONValue {
        var schema: [(key: String, value: JSONValue)]
        switch kind {
        case .integer(let range):
            schema = [("type", "integer"), ("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound))]
        case .multiple(let step, let range):
            schema = [
                ("type", "integer"), ("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound)),
                ("multipleOf", .integer(step)),
            ]
        case .decimal(let range):
            schema = [("type", "number"), ("minimum", .number(range?.lowerBound ?? 0))]
            if let range { schema.append(("maximum", .number(range.upperBound))) }
        case .choice(let words):
            schema = [("type", "string"), ("enum", .array((choices ?? words).map { .string($0) }))]
        case .color:
            schema = Self.colorSchema
        case .colorList(let count):
            schema = [
                ("type", "array"), ("items", .object(Self.colorSchema)),
                ("minItems", .integer(count.lowerBound)), ("maxItems", .integer(count.upperBound)),
            ]
        case .dateTime:
            schema = [("type", "string"), ("pattern", .string(Self.dateTimePattern))]
        case .period:
            schema = [("type", "string"), ("pattern", "^[0-9]+[mhdw]$")]
        case .timeZone:
            schema = [("type", "string"), ("pattern", "^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$")]
        case .dimensions:
            schema = [("type", "string"), ("pattern", "^[0-9]+(x[0-9]+)?$")]
        case .byteCount:
            schema = [("type", "string"), ("pattern", "^[0-9]+(\\.[0-9]+)?[kM]?$")]
        case .textList:
            // One item per page; an item has no control character (nor a literal comma, which would split it).
            schema = [
                ("type", "array"),
                ("items", ["type": "string", "pattern": "^[^\\u0000-\\u001F\\u007F-\\u009F,]*$"]),
                ("minItems", 1), ("maxItems", .integer(Self.maxPages)),
            ]
        }
        if case .value(let text) = defaultValue, choices == nil {
            schema.append(("default", openAPIValue(text)))
        }
        return .object(schema)
    }

    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` with an optional `Z` or `±HH:MM` (`+` possibly decoded as a space).
    static let dateTimePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt][0-9]{2}:[0-9]{2}([Zz]|[+ -][0-9]{2}:[0-9]{2})?)?$"

    private static let colorSchema: [(key: String, value: JSONValue)] = [("type", "string"), ("pattern", .string(colorPattern))]

    /// The most pages an indicator has.
    private static var maxPages: Int {
        guard case .integer(let range) = ParameterName.pages.definition.kind else { return 1 }
        return range.upperBound
    }

    /// A default written as in a URL, as a JSON value of the parameter's type.
    private func openAPIValue(_ text: String) -> JSONValue {
        switch kind {
        case .integer, .multiple: Int(text).map(JSONValue.integer) ?? .string(text)
        case .decimal: Double(text).map(JSONValue.number) ?? .string(text)
        default: .string(text)
        }
    }
}
