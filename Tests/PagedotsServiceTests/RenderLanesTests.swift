import Glibc
import Locking
import Testing
@testable import PagedotsService

/// Stills beside animations (docs/operating.md, "The render queue"), with
/// jobs held by semaphores the tests open: which job runs, and which is
/// refused, is then a fact, not a race. A wait for a job that should run has
/// a deadline, so that a broken rule fails the test instead of hanging it.
@Suite struct RenderLanesTests {
    /// Long enough for any job on a loaded machine; reached only when a rule is broken.
    static let deadline = 60.0

    @Test("With every animation thread held, a still is drawn at once; another animation waits", arguments: [1, 2, 3])
    func aStillDoesNotWaitForAnimations(threads: Int) {
        let lanes = RenderLanes(threads: threads, stillQueueLimit: 8, animationQueueLimit: 8)
        let started = Semaphore()
        let gate = Semaphore()
        let finished = Semaphore()
        let animationThreads = max(1, threads - 1)
        for _ in 0..<animationThreads {
            #expect(lanes.submit(.animation) { _ in
                started.signal()
                gate.wait()
                finished.signal()
            })
        }
        for _ in 0..<animationThreads { #expect(started.wait(seconds: Self.deadline)) }
        #expect(lanes.submit(.animation) { _ in finished.signal() })
        #expect(lanes.queueDepth == 1)

        let still = Semaphore()
        #expect(lanes.submit(.still) { _ in still.signal() })
        #expect(still.wait(seconds: Self.deadline))
        #expect(lanes.queueDepth == 1)

        for _ in 0..<animationThreads { gate.signal() }
        for _ in 0...animationThreads { #expect(finished.wait(seconds: Self.deadline)) }
        #expect(lanes.queueDepth == 0)
    }

    @Test("A full animation queue refuses animations and still takes stills; a full still queue, the reverse")
    func eachLaneHasItsOwnBound() {
        let lanes = RenderLanes(threads: 1, stillQueueLimit: 2, animationQueueLimit: 1)
        let releases = [lanes.stills.holdThread(), lanes.animations.holdThread()]
        let finished = Semaphore()
        #expect(lanes.submit(.animation) { _ in finished.signal() })
        #expect(!lanes.submit(.animation) { _ in finished.signal() })
        #expect(lanes.submit(.still) { _ in finished.signal() })
        #expect(lanes.submit(.still) { _ in finished.signal() })
        #expect(!lanes.submit(.still) { _ in finished.signal() })
        #expect(lanes.queueDepth == 3)
        releases.forEach { $0.signal() }
        for _ in 0..<3 { #expect(finished.wait(seconds: Self.deadline)) }
        #expect(lanes.queueDepth == 0)
    }

    @Test("Animations are drawn ten nice steps below stills, so that the kernel runs stills first")
    func animationsRunAtALowerPriority() {
        let lanes = RenderLanes(threads: 2, stillQueueLimit: 8, animationQueueLimit: 8)
        let niceness = Locked<[RenderLanes.Lane: Int32]>([:])
        let finished = Semaphore()
        for lane in [RenderLanes.Lane.still, .animation] {
            #expect(lanes.submit(lane) { _ in
                let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                niceness.withLock { $0[lane] = value }
                finished.signal()
            })
        }
        for _ in 0..<2 { #expect(finished.wait(seconds: Self.deadline)) }
        let still = niceness.withLock { $0[.still] } ?? -100
        #expect(niceness.withLock { $0[.animation] } == min(19, still + RenderLanes.animationNiceness))
    }
}
