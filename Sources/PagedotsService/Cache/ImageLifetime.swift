import HTTPServer
import PagedotsCore

/// How long an image answer may be kept (docs/http.md, "Images"): for a
/// year and for good, unless its page follows the calendar or its signature
/// expires; then until the page changes or the signature expires, whichever
/// comes first, and never for good.
enum ImageLifetime: Equatable {
    /// The same URL always draws the same bytes.
    case immutable
    /// Whole seconds, at least 1.
    case seconds(Int)

    /// A year, the longest that caches honour.
    static let year = 31_536_000

    /// The lifetime of an answer at `now` (seconds since 1970) to a URL
    /// whose page is `calendar`'s (nil: not a calendar URL) and whose
    /// signature expires at `expires` (nil: never).
    init(calendar: CalendarPosition?, expires: Int64?, now: Int64) {
        let limits = [calendar?.nextChange, expires].compactMap { $0 }.map { max(1, $0 - now) }
        guard let soonest = limits.min() else {
            self = .immutable
            return
        }
        self = .seconds(Int(min(soonest, Int64(Self.year))))
    }

    /// The `Cache-Control` field that says it.
    var cacheControl: HTTPHeaderField {
        switch self {
        case .immutable: Self.immutableField
        case .seconds(let seconds): HTTPHeaderField("Cache-Control", "public, max-age=\(seconds)")
        }
    }

    /// Made once: the field of nearly every image answer.
    private static let immutableField = HTTPHeaderField("Cache-Control", "public, max-age=\(year), immutable")
}
