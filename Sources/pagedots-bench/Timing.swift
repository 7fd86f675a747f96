#if canImport(Glibc)
import Glibc
#endif

/// Times a piece of work the way the anchor benchmarks do: a warm-up, a
/// repeat count calibrated so that one timed run lasts about `runTime`, then
/// the median over `runs` timed runs, in microseconds per call. It counts the
/// thread's CPU time, not wall time: on a shared machine other processes
/// then stretch the figures far less (both sides of a comparison alike).
struct Stopwatch {
    var runs = 5
    var runTime: Duration = .milliseconds(60)

    /// Median µs per call of `work`. The closure's results are summed into
    /// `checksum` so that the optimiser cannot drop the work.
    func microsecondsPerCall(_ work: () -> Int) -> Double {
        var checksum = 0
        func timed(_ count: Int) -> Duration {
            let start = Self.threadCPUTime()
            for _ in 0..<count {
                checksum &+= work()
            }
            return Self.threadCPUTime() - start
        }
        _ = timed(3)
        var count = 1
        var elapsed = timed(count)
        while elapsed < runTime / 8 && count < 1 << 30 {
            count *= 2
            elapsed = timed(count)
        }
        count = max(1, Int(Double(count) * (runTime / max(elapsed, .nanoseconds(1)))))
        let perCall = (0..<runs).map { _ in Self.microseconds(timed(count)) / Double(count) }.sorted()
        precondition(checksum != 0, "benchmarked work produced nothing")
        return perCall[runs / 2]
    }

    static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    static func microseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e6 + Double(parts.attoseconds) / 1e12
    }
}
