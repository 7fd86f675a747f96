import Synchronization
import Testing
@testable import PagedotsService

/// The pool's rules (docs/operating.md, "The render queue"), with jobs held by
/// semaphores the tests open: which job runs, and which is refused, is then a
/// fact, not a race. A wait for a job that should run has a deadline, so that
/// a broken rule fails the test instead of hanging it.
@Suite struct RenderPoolTests {
    /// Long enough for any job on a loaded machine; reached only when a rule is broken.
    static let deadline = 60.0

    /// A job that says it started, waits for `gate`, then says it finished.
    static func gated(started: Semaphore, gate: Semaphore, finished: Semaphore) -> RenderPool.Job {
        { _ in
            started.signal()
            gate.wait()
            finished.signal()
        }
    }

    @Test func aFullQueueRefusesAtOnce() {
        let pool = RenderPool(threads: 1, stillQueueLimit: 2, animationQueueLimit: 1)
        let started = Semaphore()
        let release = Semaphore()
        let finished = Semaphore()
        #expect(pool.submit(.still, Self.gated(started: started, gate: release, finished: finished)))
        started.wait()  // the only thread is busy: what follows waits in the queue
        #expect(pool.submit(.still) { _ in finished.signal() })
        #expect(pool.submit(.still) { _ in finished.signal() })
        #expect(pool.queueDepth == 2)
        #expect(!pool.submit(.still) { _ in finished.signal() })
        release.signal()
        for _ in 0..<3 { finished.wait() }
        #expect(pool.queueDepth == 0)
    }

    @Test("A full animation queue refuses animations and still takes stills; a full still queue, the reverse")
    func eachLaneHasItsOwnBound() {
        let pool = RenderPool(threads: 1, stillQueueLimit: 2, animationQueueLimit: 1)
        let release = pool.holdThread()
        let finished = Semaphore()
        #expect(pool.submit(.animation) { _ in finished.signal() })
        #expect(!pool.submit(.animation) { _ in finished.signal() })
        #expect(pool.submit(.still) { _ in finished.signal() })
        #expect(pool.submit(.still) { _ in finished.signal() })
        #expect(!pool.submit(.still) { _ in finished.signal() })
        #expect(pool.queueDepth == 3)
        release.signal()
        for _ in 0..<3 { finished.wait() }
        #expect(pool.queueDepth == 0)
    }

    @Test("With every thread that may draw animations held by one, a still runs before any of them finishes")
    func aStillDoesNotWaitForAnimations() {
        // Three threads: two may draw animations at once.
        let pool = RenderPool(threads: 3, stillQueueLimit: 8, animationQueueLimit: 8)
        let started = Semaphore()
        let gate = Semaphore()
        let finished = Semaphore()
        for _ in 0..<2 {
            #expect(pool.submit(.animation, Self.gated(started: started, gate: gate, finished: finished)))
        }
        for _ in 0..<2 { #expect(started.wait(seconds: Self.deadline)) }
        // A third animation waits, although a thread is free: that thread is the stills'.
        #expect(pool.submit(.animation) { _ in finished.signal() })
        #expect(pool.queueDepth == 1)
        let still = Semaphore()
        #expect(pool.submit(.still) { _ in still.signal() })
        #expect(still.wait(seconds: Self.deadline))
        #expect(pool.queueDepth == 1)
        // Once an animation finishes, the waiting one starts.
        gate.signal()
        #expect(finished.wait(seconds: Self.deadline))
        #expect(finished.wait(seconds: Self.deadline))
        gate.signal()
        #expect(finished.wait(seconds: Self.deadline))
        #expect(pool.queueDepth == 0)
    }

    @Test("One thread takes a waiting still before animations that waited longer")
    func stillsGoFirst() {
        let pool = RenderPool(threads: 1, stillQueueLimit: 8, animationQueueLimit: 8)
        let release = pool.holdThread()
        let order = Mutex<[String]>([])
        let finished = Semaphore()
        let record = { (name: String) -> RenderPool.Job in
            { _ in
                order.withLock { $0.append(name) }
                finished.signal()
            }
        }
        #expect(pool.submit(.animation, record("animation 1")))
        #expect(pool.submit(.animation, record("animation 2")))
        #expect(pool.submit(.still, record("still 1")))
        #expect(pool.submit(.still, record("still 2")))
        release.signal()
        for _ in 0..<4 { finished.wait() }
        #expect(order.withLock { $0 } == ["still 1", "still 2", "animation 1", "animation 2"])
    }
}
