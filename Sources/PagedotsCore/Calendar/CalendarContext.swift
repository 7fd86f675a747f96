/// Finds time zones by their IANA names (`Europe/Berlin`).
public protocol TimeZoneSource: Sendable {
    /// The zone named `name`, or nil when there is none by that name.
    func zone(named name: String) -> TimeZoneRules?
}

/// What the calendar parameters (`start`, `every`, `tz`) need to choose a
/// request's current page: the time it arrived and the time zones.
public struct CalendarContext: Sendable {
    /// Seconds since 1970, UTC.
    public var now: Int64
    public var zones: any TimeZoneSource

    /// At `now`, with `zones`. The default knows only UTC, at the start of
    /// 1970: enough for URLs without calendar parameters.
    public init(now: Int64 = 0, zones: any TimeZoneSource = UTCOnly()) {
        self.now = now
        self.zones = zones
    }

    /// A source that knows only `UTC`.
    public struct UTCOnly: TimeZoneSource {
        public init() {}

        public func zone(named name: String) -> TimeZoneRules? {
            name == TimeZoneRules.utc.name ? .utc : nil
        }
    }
}
