import Glibc

/// Wall-clock times as the logs write them, in UTC.
enum LogTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `29/Nov/2026:16:40:17 +0000` (the common log format's).
    static func common(_ time: timespec) -> String {
        let parts = utc(time)
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    /// `2026-11-29T16:40:17Z`.
    static func iso8601(_ time: timespec) -> String {
        let parts = utc(time)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Seconds to the microsecond, without exponent: `0.000214`, `12.5`.
    static func decimal(_ seconds: Double) -> String {
        let micros = Int((max(0, seconds) * 1e6).rounded())
        let fraction = String(micros % 1_000_000)
        var text = "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func utc(_ time: timespec) -> tm {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
