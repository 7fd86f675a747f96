#if canImport(Glibc)
import Glibc
#endif

/// The `Date` header line for the current second, rebuilt at most once a
/// second (one per event loop).
struct DateHeader {
    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n`.
    private(set) var line: [UInt8] = []
    private var second = -1

    /// Rebuilds `line` if the wall clock has moved to another second.
    mutating func refresh() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        guard now.tv_sec != second else { return }
        second = now.tv_sec
        line = Array("Date: ".utf8) + DateHeader.imfFixdate(secondsSince1970: now.tv_sec) + Array("\r\n".utf8)
    }

    /// RFC 9110 §5.6.7 IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(secondsSince1970 seconds: Int) -> [UInt8] {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text = "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
