import Glibc

/// The texts of one wall-clock second as the logs write them, in UTC, made
/// when the second changes and not per line (as nginx keeps its time
/// strings): each event loop's lines keep one `LogTime`.
struct LogTime {
    /// Seconds since 1970 that the texts are for.
    private(set) var second = Int.min
    /// `29/Nov/2026:16:40:17 +0000` (the common log format's).
    private(set) var common: [UInt8] = []
    /// `2026-11-29T16:40:17Z`.
    private(set) var iso8601: [UInt8] = []

    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The texts for `second`.
    init(second: Int) {
        update(to: second)
    }

    init() {}

    /// Remakes the texts if `second` is another second.
    mutating func update(to second: Int) {
        guard second != self.second else { return }
        self.second = second
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        common.removeAll(keepingCapacity: true)
        common.appendTwoDigits(parts.tm_mday)
        common.append(UInt8(ascii: "/"))
        common.appendText(LogTime.months[Int(parts.tm_mon)])
        common.append(UInt8(ascii: "/"))
        common.appendDecimal(Int(parts.tm_year) + 1900)
        common.append(UInt8(ascii: ":"))
        common.appendClock(parts)
        common.appendText(" +0000")
        iso8601.removeAll(keepingCapacity: true)
        iso8601.appendDecimal(Int(parts.tm_year) + 1900)
        iso8601.append(UInt8(ascii: "-"))
        iso8601.appendTwoDigits(parts.tm_mon + 1)
        iso8601.append(UInt8(ascii: "-"))
        iso8601.appendTwoDigits(parts.tm_mday)
        iso8601.append(UInt8(ascii: "T"))
        iso8601.appendClock(parts)
        iso8601.append(UInt8(ascii: "Z"))
    }
}

private extension [UInt8] {
    /// `16:40:17`.
    mutating func appendClock(_ parts: tm) {
        appendTwoDigits(parts.tm_hour)
        append(UInt8(ascii: ":"))
        appendTwoDigits(parts.tm_min)
        append(UInt8(ascii: ":"))
        appendTwoDigits(parts.tm_sec)
    }
}
