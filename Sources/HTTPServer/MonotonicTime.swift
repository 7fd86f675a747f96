#if canImport(Glibc)
import Glibc
#endif

/// A point on the monotonic clock, in nanoseconds. The connection state
/// machine takes it as input and never reads a clock, so its tests can use
/// any values.
struct MonotonicTime: Comparable, Hashable, Sendable {
    var nanoseconds: UInt64

    /// The monotonic clock now.
    static func now() -> MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// This time plus `interval`.
    func adding(_ interval: TimeSpan) -> MonotonicTime {
        MonotonicTime(nanoseconds: nanoseconds &+ interval.nanoseconds)
    }

    /// Seconds from `earlier` to this time (0 if `earlier` is later).
    func seconds(since earlier: MonotonicTime) -> Double {
        nanoseconds > earlier.nanoseconds ? Double(nanoseconds - earlier.nanoseconds) / 1e9 : 0
    }

    static func < (a: MonotonicTime, b: MonotonicTime) -> Bool {
        a.nanoseconds < b.nanoseconds
    }
}

/// A length of time, in nanoseconds.
struct TimeSpan: Hashable, Sendable {
    var nanoseconds: UInt64

    /// `seconds` (negative counts as 0; values are capped at 9e9 s, about 285 years).
    init(seconds: Double) {
        nanoseconds = seconds > 0 ? UInt64(min(seconds, 9e9) * 1e9) : 0
    }
}
