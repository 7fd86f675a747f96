/// How long a fetched source may be used as it is, from its own
/// `Cache-Control` (docs/carousel.md, "Carousels from URLs"): its
/// `max-age` (less its `Age`), else `defaultSeconds`, at most `maxSeconds`;
/// `no-store` is not kept at all, and `no-cache` is kept but asked again
/// every time.
struct SourceFreshness: Equatable, Sendable {
    /// Seconds the source is fresh for from when it arrived; nil: not kept.
    var seconds: Int?

    /// Five minutes, for a source that says nothing.
    static let defaultSeconds = 300
    /// One day, the most a source is used without asking again.
    static let maxSeconds = 86_400

    /// The freshness that `cacheControl` and `age` (header values, if sent) give.
    init(cacheControl: String?, age: String?) {
        var maxAge: Int?
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingSpacesAndTabs.lowercased()
            switch name {
            case "no-store":
                seconds = nil
                return
            case "no-cache":
                maxAge = 0
            case "max-age" where parts.count == 2 && maxAge != 0:
                let value = parts[1].trimmingSpacesAndTabs.trimmingCharacters(in: "\"")
                maxAge = Int(value).map { max($0, 0) } ?? 0
            default:
                continue
            }
        }
        let ageSeconds = age.flatMap { Int(Substring($0).trimmingSpacesAndTabs) }.map { max($0, 0) } ?? 0
        seconds = min(max((maxAge ?? Self.defaultSeconds) - ageSeconds, 0), Self.maxSeconds)
    }
}

extension Substring {
    /// Without the characters of `set` at either end.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
