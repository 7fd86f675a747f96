/// Parses carousel URLs (`POST /carousel`, docs/carousel.md): the path's
/// suffix, and the output format. (The carousel's other parameters are read
/// by the composition, which is not built yet.)
public enum CarouselQuery {
    /// The options fixed by a carousel path, or nil when `path` is not one:
    /// `/carousel`, then optionally `@Nx`, then optionally `.gif` or `.apng`
    /// (a still format's suffix makes no carousel path). Throws about
    /// `scale` as `IndicatorQuery.pathOptions` does.
    public static func pathOptions(forPath path: Substring) throws(ParameterError) -> PathOptions? {
        guard let options = try PathOptions(path: path, base: "/carousel") else { return nil }
        if let format = options.format, !format.isAnimated { return nil }
        return options
    }

    /// The format a carousel is written in: the path's, else `format` (GIF or
    /// APNG), else GIF. A still format, or one that disagrees with the path's
    /// suffix, is refused.
    public static func format(query: Substring, options: PathOptions) throws(ParameterError) -> ImageFormat {
        let pairs = QueryPairs(query)
        guard let index = ParameterName.allCases.firstIndex(of: .format),
              let value = try pairs.value(at: index)
        else { return options.format ?? .gif }
        let format = try value.choice(ImageFormat.self)
        guard format.isAnimated else { throw value.failure("be gif or apng for a carousel") }
        if let fixed = options.format, fixed != format {
            throw value.failure("be \(fixed.rawValue) to agree with the path's .\(fixed.rawValue)")
        }
        return format
    }
}
