#if canImport(Glibc)
import Glibc
#endif

/// Times a piece of work the way the anchor benchmarks do: a warm-up, a
/// repeat count calibrated so that one timed run lasts about `runTime`, then
/// the median over `runs` timed runs, in microseconds per call. By default it
/// counts the thread's CPU time: on a shared machine other processes then
/// stretch the figures far less (both sides of a comparison alike). Wall
/// time is there to compare with tools that measure it.
struct Stopwatch {
    enum Clock {
        case threadCPU, wall
    }

    var runs = 5
    var runTime: Duration = .milliseconds(60)
    var clock = Clock.threadCPU

    /// Median µs per call of `work`. The closure's results are summed into
    /// `checksum` so that the optimiser cannot drop the work.
    func microsecondsPerCall(_ work: () -> Int) -> Double {
        var checksum = 0
        func timed(_ count: Int) -> Duration {
            let start = now()
            for _ in 0..<count {
                checksum &+= work()
            }
            return now() - start
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

    private func now() -> Duration {
        var time = timespec()
        clock_gettime(clock == .wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    static func microseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e6 + Double(parts.attoseconds) / 1e12
    }
}
