/// What one image request asked for, validated.
public struct IndicatorRequest: Hashable, Sendable {
    public var spec: IndicatorSpec
    /// Unknown parameter names, each once, in order of first appearance, as
    /// spelled in the URL (still percent-encoded): the `X-Ignored-Parameters` list.
    public var ignoredParameters: [String]

    public init(spec: IndicatorSpec, ignoredParameters: [String] = []) {
        self.spec = spec
        self.ignoredParameters = ignoredParameters
    }
}

/// A request that cannot be drawn: its `description` is the one line of the `400`.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter at fault, as SPEC.md names it.
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
}

/// Parses image URLs: the path suffix and the query string.
public enum IndicatorQuery {
    /// The options fixed by an image path, or nil when `path` is not an image path.
    public static func pathOptions(forPath path: Substring) throws(ParameterError) -> PathOptions? {
        path == "/indicator" ? PathOptions() : nil
    }

    /// Validates a raw (percent-encoded) query string under a path's options.
    public static func parse(query: Substring, options: PathOptions = PathOptions()) throws(ParameterError) -> IndicatorRequest {
        // Placeholder until the parameter table lands.
        var pages = 1
        for pair in query.split(separator: "&") where pair.hasPrefix("pages=") {
            pages = Int(pair.dropFirst(6)) ?? 1
        }
        return IndicatorRequest(spec: IndicatorSpec(pages: pages))
    }
}
