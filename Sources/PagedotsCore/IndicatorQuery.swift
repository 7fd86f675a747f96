/// What one image request asked for, validated.
public struct IndicatorRequest: Hashable, Sendable {
    public var spec: IndicatorSpec
    /// Unknown parameter names, each once, in order of first appearance, as
    /// spelled in the URL (still percent-encoded): the `X-Ignored-Parameters` list.
    public var ignoredParameters: [String]
    /// For a calendar URL (`start` and `every`): the page it showed when
    /// parsed (`spec.current`) and when that changes; nil for other URLs.
    public var calendar: CalendarPosition?
    /// Pixels the image writes, width × height × frames (one frame for a
    /// still image; frames as `ImageLimits` counts them): what drawing it costs.
    public var pixelFrames: Int

    public init(spec: IndicatorSpec, ignoredParameters: [String] = [], calendar: CalendarPosition? = nil, pixelFrames: Int = 0) {
        self.spec = spec
        self.ignoredParameters = ignoredParameters
        self.calendar = calendar
        self.pixelFrames = pixelFrames
    }
}

/// A request that cannot be drawn: its `description` is the one line of the `400`.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter at fault, as docs/parameters.md names it, or `image` when the
    /// image as a whole is over `ImageLimits`.
    public var parameter: String
    /// The whole line, e.g. `current: must be an integer from 0 to 4 (pages=5); got "5"`.
    public var description: String

    public init(parameter: String, description: String) {
        self.parameter = parameter
        self.description = description
    }
}

/// What an image path's suffix fixes: `/indicator@2x.svg` → scale 2, SVG.
public struct PathOptions: Hashable, Sendable {
    public var format: ImageFormat?
    public var scale: Int?

    public init(format: ImageFormat? = nil, scale: Int? = nil) {
        self.format = format
        self.scale = scale
    }

    /// The parameters the suffix sets: the URL's own, like those of its query (they override presets).
    public var parameters: [ParameterName] {
        (format == nil ? [] : [.format]) + (scale == nil ? [] : [.scale])
    }

    /// The options of `path` when it is `base`, then optionally `@Nx`, then
    /// optionally a format's suffix; nil when it is not. Throws about
    /// `scale` when N is not an integer from 1 to 4.
    init?(path: Substring, base: StaticString) throws(ParameterError) {
        var rest = path.utf8[...]
        for byte in UnsafeBufferPointer(start: base.utf8Start, count: base.utf8CodeUnitCount) {
            guard rest.popFirst() == byte else { return nil }
        }
        if let format = ImageFormat.allCases.first(where: { rest.hasSuffix(".\($0.rawValue)".utf8) }) {
            self.format = format
            rest = rest.dropLast(1 + format.rawValue.utf8.count)
        }
        guard !rest.isEmpty else { return }
        guard rest.count >= 2, rest.first == UInt8(ascii: "@"), rest.last == UInt8(ascii: "x") else { return nil }
        let value = ParameterValue(ParameterName.scale.definition, raw: Array(rest.dropFirst().dropLast())[...])
        scale = try value.integer(note: "in the path's @Nx")
    }
}

/// Parses image URLs: the path suffix and the query string (docs/parameters.md).
public enum IndicatorQuery {
    /// The options fixed by an image path, or nil when `path` is not an image
    /// path: `/indicator`, then optionally `@Nx`, then optionally a format
    /// suffix (`.png`, `.svg`, `.gif`, `.apng`: every `ImageFormat`). Throws about `scale` when N is not an integer from 1 to 4
    /// (`@5x`, `@1.5x`, `@x`: clearly aimed at an image, so a 400, not a 404).
    public static func pathOptions(forPath path: Substring) throws(ParameterError) -> PathOptions? {
        try PathOptions(path: path, base: "/indicator")
    }

    /// The image path and the query of a target as `pagedots render` takes
    /// it: a bare query (`pages=5`, `?pages=5`, path `/indicator`), a path with
    /// a query (`/indicator@2x.gif?pages=5`), or a whole URL.
    public static func split(target: Substring) -> (path: Substring, query: Substring) {
        var rest = target
        if rest.hasPrefix("http://") || rest.hasPrefix("https://") {
            rest = rest.drop { $0 != ":" }.dropFirst(3)
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        guard rest.hasPrefix("/") else {
            return ("/indicator", rest.hasPrefix("?") ? rest.dropFirst() : rest)
        }
        guard let mark = rest.firstIndex(of: "?") else { return (rest, "") }
        return (rest[..<mark], rest[rest.index(after: mark)...])
    }

    /// Validates a raw (percent-encoded, without `?`) query string under a
    /// path's options: every parameter in the table's order, so the first
    /// bad one is always the one reported, then the image limits. A calendar
    /// URL's page is the one current at `calendar.now`.
    public static func parse(
        query: Substring, options: PathOptions = PathOptions(), calendar: CalendarContext = CalendarContext()
    ) throws(ParameterError) -> IndicatorRequest {
        let pairs = QueryPairs(query)
        var builder = IndicatorSpecBuilder(options: options, calendar: calendar)
        for index in Parameter.all.indices {
            try builder.apply(parameterAt: index, pairs.value(at: index))
        }
        let spec = try builder.finish()
        return IndicatorRequest(
            spec: spec, ignoredParameters: pairs.ignored, calendar: builder.calendarPosition, pixelFrames: builder.pixelFrames
        )
    }
}
