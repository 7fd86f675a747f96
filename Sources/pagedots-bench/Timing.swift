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

    /// µs per call of each of `works`, per round: each round runs a block of
    /// every work in turn, each block calibrated (after a warm-up) to last
    /// about `blockTime`. A round's figures are taken milliseconds apart, so
    /// their ratios hold still while the machine's speed drifts from second
    /// to second (docs/performance.md, "The machine"), which a median over
    /// separate runs of each work does not undo.
    func interleavedMicrosecondsPerCall(_ works: [() -> Int], rounds: Int, blockTime: Duration) -> [[Double]] {
        var checksum = 0
        func timed(_ work: () -> Int, _ count: Int) -> Duration {
            let start = now()
            for _ in 0..<count {
                checksum &+= work()
            }
            return now() - start
        }
        let counts = works.map { work in
            _ = timed(work, 3)
            var count = 1
            var elapsed = timed(work, count)
            while elapsed < blockTime / 4 && count < 1 << 30 {
                count *= 2
                elapsed = timed(work, count)
            }
            return max(1, Int(Double(count) * (blockTime / max(elapsed, .nanoseconds(1)))))
        }
        let perCall = (0..<rounds).map { _ in
            zip(works, counts).map { work, count in Self.microseconds(timed(work, count)) / Double(count) }
        }
        precondition(checksum != 0, "benchmarked work produced nothing")
        return perCall
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
