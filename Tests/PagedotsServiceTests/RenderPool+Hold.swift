@testable import PagedotsService
import Testing

extension RenderPool {
    /// Occupies a render thread with a job that waits; returns once the job
    /// runs, with the semaphore that lets it finish. With one thread,
    /// "the renderer is busy" is then a fact, not a race.
    func holdThread() -> Semaphore {
        let started = Semaphore()
        let release = Semaphore()
        #expect(submit { _ in
            started.signal()
            release.wait()
        })
        started.wait()
        return release
    }
}
