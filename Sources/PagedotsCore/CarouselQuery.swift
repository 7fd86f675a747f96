/// What one carousel request asked for, validated.
public struct CarouselRequest: Hashable, Sendable {
    public var spec: CarouselSpec
    public var layout: CarouselLayout
    /// Unknown parameter names, as for an image (`X-Ignored-Parameters`).
    public var ignoredParameters: [String]
    /// Frames the carousel writes at most (its timeline's, before drawings
    /// that come out equal are merged).
    public var frameCount: Int
    /// Whether its current page follows the clock (`start` and `every`): its
    /// URL draws another image when the page changes.
    public var isTimed = false

    /// Pixels the carousel writes, width × height × frames: what drawing it costs.
    public var pixelFrames: Int { layout.width * layout.height * frameCount }
}

/// Parses carousel URLs (`POST /carousel`, docs/carousel.md): the path's
/// suffix, the output format, and the query with what the upload's headers said.
public enum CarouselQuery {
    /// A carousel's `scale` when neither the path nor the query sets it: email slides are drawn at 2x.
    public static let defaultScale = 2

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

    /// Validates a carousel's raw query (percent-encoded, without `?`) under
    /// its path's options, for the pictures `source` describes: every
    /// parameter in the table's order, as for an image, with `pages` the
    /// number of slides (given, it must agree; required for a carousel GIF,
    /// whose cycle it splits into `dwell`s, which must agree when given),
    /// `scale` 2 by default and in steps of 0.25, `budget` for a GIF only;
    /// then the indicator's limits, the carousel's layout and its limits.
    public static func parse(
        query: Substring, options: PathOptions, source: CarouselSource, calendar: CalendarContext = CalendarContext()
    ) throws(ParameterError) -> CarouselRequest {
        let format = try format(query: query, options: options)
        let pairs = QueryPairs(query)
        var builder = IndicatorSpecBuilder(
            options: PathOptions(format: format, scale: options.scale), calendar: calendar, defaultScale: defaultScale
        )
        var pages = 0
        var scale = Double(options.scale ?? defaultScale)
        for index in Parameter.all.indices {
            let parameter = Parameter.all[index]
            var value = try pairs.value(at: index)
            switch (parameter.name, source) {
            case (.pages, .slides(let count, _, _)):
                if let value, try value.integer() != count { throw value.failure("be \(count), the number of slides sent") }
                value = value ?? ParameterValue(parameter, raw: Array(String(count).utf8)[...])
                pages = count
            case (.pages, .animation):
                pages = try value?.integer() ?? 0
            case (.dwell, .animation(_, _, let delays, _)):
                let split = try dwell(splitting: delays, into: pages)
                if let value, try value.integer() != split {
                    throw value.failure("be \(split) to agree with the carousel's \(delays.reduce(0, +)) ms split into pages=\(pages)")
                }
                value = value ?? ParameterValue(parameter, raw: Array(String(split).utf8)[...])
            case (.scale, _):
                guard let given = value else { break }
                scale = try given.carouselScale()
                if let fixed = options.scale, Double(fixed) != scale {
                    throw given.failure("be \(fixed) to agree with the path's @\(fixed)x")
                }
                // The indicator's limits are checked at the scale rounded up.
                value = ParameterValue(parameter, raw: Array(String(Int(scale.rounded(.up))).utf8)[...])
            case (.budget, _):
                if let given = value, format != .gif {
                    throw given.failure("be given for a GIF carousel only (an APNG keeps full colour: use format=gif)")
                }
            default:
                break
            }
            try builder.apply(parameterAt: index, value)
        }
        let indicator = try builder.finish()
        var plays: Int?
        if case .animation(_, _, _, let loopCount) = source, !builder.loopGiven {
            // No loop extension plays once; a repetition count n plays n + 1 times.
            plays = loopCount.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
        }
        let spec = CarouselSpec(
            indicator: indicator, composition: builder.composition, transition: builder.givenTransition, source: source, plays: plays,
            scale: scale, budget: builder.budget
        )
        let layout = try CarouselLayout(spec)
        let frameCount = CarouselTimeline(spec: spec).frames().count
        try layout.check(frames: frameCount)
        return CarouselRequest(
            spec: spec, layout: layout, ignoredParameters: pairs.ignored, frameCount: frameCount, isTimed: builder.calendarPosition != nil
        )
    }

    /// The dwell of each of `pages` pages of a carousel whose frames last
    /// `delays` ms: their sum split evenly, which must come out a multiple
    /// of 10 ms within `dwell`'s range.
    private static func dwell(splitting delays: [Int], into pages: Int) throws(ParameterError) -> Int {
        let total = delays.reduce(0, +)
        guard pages > 0, total % (10 * pages) == 0 else {
            throw ParameterError(
                "carousel", must: "last a multiple of 10 ms × pages to split into equal dwells (\(10 * pages) ms with pages=\(pages))",
                got: "\(total) ms"
            )
        }
        let split = total / pages
        if case .multiple(_, let range) = ParameterName.dwell.definition.kind, !range.contains(split) {
            throw ParameterError(
                "carousel", must: "split into dwells of \(range.lowerBound) to \(range.upperBound) ms (pages=\(pages))",
                got: "\(total) ms, \(split) ms a page"
            )
        }
        return split
    }
}
