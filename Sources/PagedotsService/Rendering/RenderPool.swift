import HTTPServer
import Synchronization

/// A fixed set of threads that draw images, each with its own `ImageMaker`
/// (Cairo and zlib state reused between images), fed by two bounded queues,
/// one per lane: still images and animations. When a lane's queue is full,
/// `submit` refuses at once instead of letting a backlog grow; a flood of
/// animations fills only its own queue.
///
/// An animation costs as much as tens to thousands of still images, so
/// that a flood of them cannot starve the stills (docs/operating.md, "The
/// render queue"): a thread takes a waiting still before a waiting
/// animation, and at most `threads − 1` threads (at least one) draw
/// animations at once. With two threads or more a still therefore never
/// waits for an animation to finish; with one, for one animation at most.
///
/// A thread with nothing to do sleeps on a semaphore of its own, and the job
/// that wakes it is handed to it with the wake-up: a woken thread always has
/// work, and the count of animations under way is exact.
///
/// While more jobs wait, a thread's responses wake their event loops once
/// per `jobsPerWakeup` jobs (`DeferredWakeups`), not once each; a thread
/// that finds no job waiting wakes them before it sleeps.
final class RenderPool: Sendable {
    /// Jobs a thread runs, while others wait, before it wakes the loops it
    /// answered for: the most a response waits for others to join it.
    static let jobsPerWakeup = 8

    /// Work for a render thread; it gets that thread's pipeline.
    typealias Job = @Sendable (ImageMaker) -> Void

    /// Which queue a job waits in.
    enum Lane: Sendable {
        /// A still image (PNG, SVG): taken first.
        case still
        /// An animation (GIF, APNG): drawn by at most `threads − 1` threads at once.
        case animation
    }

    private struct Queue {
        let limit: Int
        var jobs: [Job?] = []
        var head = 0
        var count: Int { jobs.count - head }

        init(limit: Int) { self.limit = limit }

        /// Appends a job; false when `limit` jobs wait already.
        mutating func push(_ job: @escaping Job) -> Bool {
            guard count < limit else { return false }
            jobs.append(job)
            return true
        }

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

    /// A job taken from its queue, with its lane.
    private struct Work {
        var lane: Lane
        var job: Job
    }

    private struct State {
        var stills: Queue
        var animations: Queue
        /// The most animations drawn at once.
        let animationThreads: Int
        /// Animations being drawn, or handed to a thread that is waking.
        var animating = 0
        /// Threads asleep, by index; the latest to sleep is woken first (its caches are warmest).
        var idle: [Int] = []
        /// The job handed to a sleeping thread with its wake-up, by index.
        var handed: [Work?]

        /// Takes the job a thread should start next: the oldest still, else
        /// the oldest animation while fewer than `animationThreads` are drawn.
        mutating func next() -> Work? {
            if let job = stills.pop() { return Work(lane: .still, job: job) }
            guard animating < animationThreads, let job = animations.pop() else { return nil }
            animating += 1
            return Work(lane: .animation, job: job)
        }

        /// Hands a job that may start to a sleeping thread, if there are
        /// both; returns the thread to wake. Called after each job queued,
        /// so that no thread sleeps while a job could start: a thread sleeps
        /// only when `next()` finds nothing, and one that finishes an
        /// animation takes the next job itself (stills first; if a still
        /// waited, no thread was asleep).
        mutating func handOut() -> Int? {
            guard let thread = idle.last, let work = next() else { return nil }
            idle.removeLast()
            handed[thread] = work
            return thread
        }
    }

    private let state: Mutex<State>
    /// One per thread, by index: what wakes it.
    private let wakeups: [Semaphore]

    /// Starts `threads` render threads (at least one); at most
    /// `stillQueueLimit` still images and `animationQueueLimit` animations wait.
    init(threads: Int, stillQueueLimit: Int, animationQueueLimit: Int) {
        let threads = max(1, threads)
        state = Mutex(State(
            stills: Queue(limit: stillQueueLimit), animations: Queue(limit: animationQueueLimit),
            animationThreads: max(1, threads - 1), handed: Array(repeating: nil, count: threads)
        ))
        wakeups = (0..<threads).map { _ in Semaphore() }
        for index in 0..<threads {
            let started = DetachedThread.start { [self] in work(index) }
            // Only at start-up, never from a request: without its threads the service cannot work.
            precondition(started, "cannot start a render thread")
        }
    }

    /// Jobs waiting for a thread now, in both lanes.
    var queueDepth: Int { state.withLock { $0.stills.count + $0.animations.count } }

    /// Queues a job in `lane`; false when that lane's queue is full.
    func submit(_ lane: Lane, _ job: @escaping Job) -> Bool {
        let (accepted, woken) = state.withLock { state -> (Bool, Int?) in
            let accepted = switch lane {
            case .still: state.stills.push(job)
            case .animation: state.animations.push(job)
            }
            return (accepted, state.handOut())
        }
        if let woken { wakeups[woken].signal() }
        return accepted
    }

    private func work(_ index: Int) -> Never {
        let maker = ImageMaker()
        let deferred = DeferredWakeups.beginOnThisThread()
        var jobsSinceWakeup = 0
        var finished: Lane?
        while true {
            var work = state.withLock { state -> Work? in
                if finished == .animation { state.animating -= 1 }
                let work = state.next()
                if work == nil { state.idle.append(index) }
                return work
            }
            finished = nil
            if work == nil {
                // About to go idle: wake the loops now.
                deferred.flush()
                jobsSinceWakeup = 0
                wakeups[index].wait()
                work = state.withLock { $0.handed[index].take() }
            }
            guard let work else { continue }
            work.job(maker)
            finished = work.lane
            jobsSinceWakeup += 1
            if jobsSinceWakeup >= Self.jobsPerWakeup {
                // Answered enough while others waited: wake the loops now.
                deferred.flush()
                jobsSinceWakeup = 0
            }
        }
    }
}
