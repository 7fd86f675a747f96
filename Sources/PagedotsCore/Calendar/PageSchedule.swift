/// When page 0 of a calendar URL begins (`start`): a wall time in the URL's
/// time zone, or an instant when the URL gives an offset.
public enum StartTime: Hashable, Sendable {
    /// Local seconds (`CivilTime`): `2025-12-01`, `2025-12-01T09:00`.
    case local(Int64)
    /// Seconds since 1970, UTC: `2025-12-01T09:00+01:00`, `…Z`.
    case instant(Int64)

    /// Reads `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, or the latter followed by
    /// `Z` or `±HH:MM` (a space stands for `+`, which a URL's query decodes
    /// as one); `T` and `Z` in either case. Nil for anything else, a date
    /// that does not exist included. `seconds` also allows `:SS` after the
    /// minutes (`--now`).
    public init?(_ text: some Collection<UInt8>, seconds: Bool = false) {
        var reader = DigitReader(bytes: Array(text)[...])
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
              let day = reader.digits(2), (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: Int64(year))).contains(day)
        else { return nil }
        var local = CivilTime.days(year: Int64(year), month: month, day: day) * CivilTime.secondsPerDay
        guard !reader.atEnd else {
            self = .local(local)
            return
        }
        guard reader.take("T") || reader.take("t"), let hour = reader.digits(2), hour < 24, reader.take(":"),
              let minute = reader.digits(2), minute < 60 else { return nil }
        local += Int64(hour * 3600 + minute * 60)
        if seconds, reader.take(":") {
            guard let second = reader.digits(2), second < 60 else { return nil }
            local += Int64(second)
        }
        if reader.atEnd {
            self = .local(local)
        } else if reader.take("Z") || reader.take("z") {
            guard reader.atEnd else { return nil }
            self = .instant(local)
        } else {
            let sign: Int64
            if reader.take("-") { sign = -1 } else if reader.take("+") || reader.take(" ") { sign = 1 } else { return nil }
            guard let hours = reader.digits(2), hours <= 18, reader.take(":"), let minutes = reader.digits(2), minutes < 60,
                  reader.atEnd else { return nil }
            self = .instant(local - sign * Int64(hours * 3600 + minutes * 60))
        }
    }
}

/// How long each page of a calendar URL lasts (`every`): minutes and hours
/// are elapsed time; days and weeks are calendar days in the URL's time
/// zone, so that a page that begins at 09:00 begins at 09:00 every day, and
/// a day across a change to or from daylight-saving time lasts 23 or 25 hours.
public struct PagePeriod: Hashable, Sendable {
    public enum Unit: UInt8, Sendable {
        case minutes = 109  // m
        case hours = 104  // h
        case days = 100  // d
        case weeks = 119  // w

        /// Its length in minutes (a day's nominal length for days and weeks).
        var minutes: Int {
            switch self {
            case .minutes: 1
            case .hours: 60
            case .days: 1440
            case .weeks: 10080
            }
        }
    }

    public var count: Int
    public var unit: Unit

    /// The allowed lengths, in minutes: 1m to 52w.
    public static let minuteRange = 1...(52 * 10080)

    /// Reads a count of ASCII digits and a unit letter `m`, `h`, `d` or `w`
    /// (`90m`, `1d`), 1m to 52w long; nil for anything else.
    public init?(_ text: some BidirectionalCollection<UInt8>) {
        guard let last = text.last, let unit = Unit(rawValue: last), let count = DecimalText.integer(text.dropLast()),
              Self.minuteRange.contains(count * unit.minutes) else { return nil }
        self.count = count
        self.unit = unit
    }

    /// The nominal length in seconds.
    var seconds: Int64 { Int64(count * unit.minutes * 60) }

    /// Whether it counts calendar days rather than elapsed time.
    var isCalendarDays: Bool { unit == .days || unit == .weeks }
}

/// Which page of a calendar URL is current at a given instant, and when that
/// changes (docs/parameters.md, "Calendar pages").
public struct PageSchedule: Hashable, Sendable {
    public let pages: Int
    public let period: PagePeriod
    public let zone: TimeZoneRules
    /// When page 0 begins.
    private let startInstant: Int64
    /// The same as the zone's wall clocks show it.
    private let startLocal: Int64

    public init(pages: Int, start: StartTime, period: PagePeriod, zone: TimeZoneRules) {
        self.pages = pages
        self.period = period
        self.zone = zone
        switch start {
        case .local(let local):
            startInstant = zone.instant(atLocal: local)
            startLocal = local
        case .instant(let instant):
            startInstant = instant
            startLocal = instant + Int64(zone.offset(at: instant))
        }
    }

    /// The page current at `now` and the instant it next changes: page 0
    /// before the start, which is then the next change; nil after the last
    /// page has begun.
    public func position(at now: Int64) -> CalendarPosition {
        let first = begin(page: 0)
        guard now >= first else { return CalendarPosition(page: 0, nextChange: first) }
        let last = pages - 1
        var page = Int(min(Int64(last), (now - first) / period.seconds))
        // Calendar days are 23 or 25 hours across daylight-saving changes: step to the page that holds `now`.
        while page < last, begin(page: page + 1) <= now { page += 1 }
        while page > 0, begin(page: page) > now { page -= 1 }
        return CalendarPosition(page: page, nextChange: page < last ? begin(page: page + 1) : nil)
    }

    /// The instant page `page` begins.
    public func begin(page: Int) -> Int64 {
        guard period.isCalendarDays else { return startInstant + Int64(page) * period.seconds }
        return zone.instant(atLocal: startLocal + Int64(page) * period.seconds)
    }
}

/// A calendar URL's page at the moment of a request.
public struct CalendarPosition: Hashable, Sendable {
    public var page: Int
    /// When the page changes next (seconds since 1970); nil when it never does again.
    public var nextChange: Int64?

    public init(page: Int, nextChange: Int64?) {
        self.page = page
        self.nextChange = nextChange
    }
}

/// Reads fixed-width ASCII numbers and single characters.
private struct DigitReader {
    var bytes: ArraySlice<UInt8>

    var atEnd: Bool { bytes.isEmpty }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard bytes.first == UInt8(ascii: character) else { return false }
        bytes.removeFirst()
        return true
    }

    /// Exactly `count` digits.
    mutating func digits(_ count: Int) -> Int? {
        guard bytes.count >= count, let value = DecimalText.integer(bytes.prefix(count)) else { return nil }
        bytes.removeFirst(count)
        return value
    }
}
