/// Times a piece of work the way the anchor benchmarks do: a warm-up, a
/// repeat count calibrated so that one timed run lasts about `runTime`, then
/// the median over `runs` timed runs, in microseconds per call.
struct Stopwatch {
    var runs = 5
    var runTime: Duration = .milliseconds(60)

    /// Median µs per call of `work`. The closure's results are summed into
    /// `checksum` so that the optimiser cannot drop the work.
    func microsecondsPerCall(_ work: () -> Int) -> Double {
        var checksum = 0
        let clock = ContinuousClock()
        func timed(_ count: Int) -> Duration {
            clock.measure {
                for _ in 0..<count {
                    checksum &+= work()
                }
            }
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

    static func microseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e6 + Double(parts.attoseconds) / 1e12
    }
}
