import Testing
@testable import PagedotsService

@Suite struct RenderPoolTests {
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
