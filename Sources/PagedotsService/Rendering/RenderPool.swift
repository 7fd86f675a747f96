import CLinux
import Glibc
import HTTPServer
import Locking

/// A fixed set of threads that draw images, each with its own `ImageMaker`
/// (Cairo and zlib state reused between images), fed by a bounded queue: when
/// the queue is full, `submit` refuses at once instead of letting a backlog grow.
///
/// While more jobs wait, a thread's responses wake their event loops once
/// per `jobsPerWakeup` jobs (`DeferredWakeups`), not once each; a thread
/// that finds no job waiting wakes them before it sleeps.
///
/// Its threads may run at a lower priority than the rest of the process
/// (`niceness`), so that the kernel gives the other threads the CPU first
/// (`RenderLanes`: animations beside stills), and may give the memory their
/// jobs freed back to the system between jobs (`trimsHeap`).
final class RenderPool: Sendable {
    /// Jobs a thread runs, while others wait, before it wakes the loops it
    /// answered for: the most a response waits for others to join it.
    static let jobsPerWakeup = 8

    /// Work for a render thread; it gets that thread's pipeline.
    typealias Job = @Sendable (ImageMaker) -> Void

    private struct Queue {
        var jobs: [Job?] = []
        var head = 0
        var count: Int { jobs.count - head }

        mutating func push(_ job: @escaping Job) { jobs.append(job) }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head > 64, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    private let queue = Locked(Queue())
    private let limit: Int
    private let available: Semaphore
    private let trimsHeap: Bool

    /// Starts `threads` render threads, each `niceness` nice steps below the
    /// process's priority (0: the same; Linux gives each thread its own nice
    /// value); at most `queueLimit` jobs wait. With `trimsHeap`, a thread
    /// gives the memory freed back to the system between jobs, as often as
    /// `HeapTrimSchedule` allows.
    init(threads: Int, queueLimit: Int, niceness: Int32 = 0, trimsHeap: Bool = false) {
        limit = queueLimit
        available = Semaphore()
        self.trimsHeap = trimsHeap
        for _ in 0..<max(1, threads) {
            let started = DetachedThread.start { [self] in
                if niceness > 0 { Self.lowerPriority(by: niceness) }
                work()
            }
            // Only at start-up, never from a request: without its threads the service cannot work.
            precondition(started, "cannot start a render thread")
        }
    }

    /// Jobs waiting for a thread now.
    var queueDepth: Int { queue.withLock { $0.count } }

    /// Queues a job; false when the queue is full.
    func submit(_ job: @escaping Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard queue.count < limit else { return false }
            queue.push(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Lowers the calling thread's priority by `steps` nice steps (to 19 at
    /// most). Raising one's nice value is always allowed; should it fail,
    /// the thread runs at the process's priority, which is only less fair.
    private static func lowerPriority(by steps: Int32) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        // `who` 0 is the calling thread: on Linux the nice value is per thread.
        let current = getpriority(which, 0)
        _ = setpriority(which, 0, min(19, current + steps))
    }

    /// Gives the pages that the heap holds free back to the system (glibc's
    /// `malloc_trim`, every arena): freed memory otherwise stays resident.
    ///
    /// An animation's scratch (frames, patches, compressed candidates, the
    /// timeline's drawings: up to ~17 MiB near the limits) is freed when it
    /// ends, in its thread's malloc arena, among the cached bodies made on
    /// that thread. glibc keeps those holes resident and fills them only
    /// partly: under a flood of animated misses they kept ~12 MiB beyond the
    /// cache's budget (docs/performance.md, "Memory").
    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }

    /// Makes glibc map every allocation of 4 MiB or more on its own and
    /// unmap it when it is freed, for the whole process (set once, before
    /// the threads start). By default glibc raises that threshold to the
    /// largest block freed so far, after which frame-sized buffers (9 MiB
    /// a frame for a carousel at the limits, several per frame, freed and
    /// made again) come from the arenas and leave holes there: a carousel
    /// at the limits peaked 11 MiB higher so. Smaller blocks, all an
    /// indicator's work, are served as before.
    static func mapLargeAllocationsApart() {
        _ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
    }

    private func work() -> Never {
        let maker = ImageMaker()
        let wakeups = DeferredWakeups.beginOnThisThread()
        var jobsSinceWakeup = 0
        var trims = HeapTrimSchedule()
        while true {
            if jobsSinceWakeup >= Self.jobsPerWakeup || !available.tryWait() {
                // About to go idle, or answered enough: wake the loops now.
                wakeups.flush()
                jobsSinceWakeup = 0
                available.wait()
            }
            guard let job = queue.withLock({ $0.pop() }) else { continue }
            let start = trimsHeap ? monotonicNanoseconds() : 0
            job(maker)
            jobsSinceWakeup += 1
            if trimsHeap, trims.jobDone(nanoseconds: monotonicNanoseconds() - start) {
                // The answers made so far go out first: a trim takes up to a millisecond.
                wakeups.flush()
                jobsSinceWakeup = 0
                let trimStart = monotonicNanoseconds()
                Self.returnFreedMemory()
                trims.trimmed(nanoseconds: monotonicNanoseconds() - trimStart)
            }
        }
    }
}
