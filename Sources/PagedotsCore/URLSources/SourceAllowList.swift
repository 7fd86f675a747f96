/// The operator's `--allow-source` prefixes: a URL is allowed when one of
/// them matches it (see `SourcePrefix`); with none, nothing is.
public struct SourceAllowList: Hashable, Sendable {
    /// The prefixes, normalised, in the order given.
    public let prefixes: [SourcePrefix]

    /// No prefixes: every URL is refused.
    public static let none = SourceAllowList(parsed: [])

    private init(parsed: [SourcePrefix]) {
        prefixes = parsed
    }

    /// The prefixes parsed, or the error about the first that is refused.
    public init(_ prefixes: some Sequence<some StringProtocol>) throws(SourcePrefixError) {
        var parsed: [SourcePrefix] = []
        for prefix in prefixes {
            parsed.append(try SourcePrefix(prefix))
        }
        self.prefixes = parsed
    }

    /// Whether no prefix is given (URL slides are not enabled).
    public var isEmpty: Bool {
        prefixes.isEmpty
    }

    /// The first prefix that matches `url`, if any.
    public func prefix(matching url: SourceURL) -> SourcePrefix? {
        prefixes.first { $0.matches(url) }
    }

    /// Whether a prefix matches `url`.
    public func allows(_ url: SourceURL) -> Bool {
        prefix(matching: url) != nil
    }
}
