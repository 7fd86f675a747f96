import Glibc
import Synchronization
import Testing
@testable import PagedotsService

@Suite struct RenderPoolTests {
    @Test func rendersRunBelowTheEventLoopsPriority() {
        let pool = RenderPool(threads: 1, queueLimit: 4)
        let done = Semaphore()
        let niceness = Mutex<Int32?>(nil)
        #expect(pool.submit { _ in
            errno = 0
            let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            niceness.withLock { $0 = errno == 0 ? value : nil }
            done.signal()
        })
        done.wait()
        #expect(niceness.withLock { $0 } == RenderPool.niceness)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "the caller's thread keeps its priority")
    }

    @Test func aFullQueueRefusesAtOnce() {
        let pool = RenderPool(threads: 1, queueLimit: 2)
        let started = Semaphore()
        let release = Semaphore()
        let finished = Semaphore()
        #expect(pool.submit { _ in
            started.signal()
            release.wait()
            finished.signal()
        })
        started.wait()  // the only thread is busy: what follows waits in the queue
        #expect(pool.submit { _ in finished.signal() })
        #expect(pool.submit { _ in finished.signal() })
        #expect(pool.queueDepth == 2)
        #expect(!pool.submit { _ in finished.signal() })
        release.signal()
        for _ in 0..<3 { finished.wait() }
        #expect(pool.queueDepth == 0)
    }
}
