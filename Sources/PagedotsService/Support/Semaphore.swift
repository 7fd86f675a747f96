import Glibc

/// A counting semaphore on a POSIX one (waits are not spurious).
final class Semaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(value: UInt32 = 0) { sem_init(semaphore, 0, value) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() { sem_post(semaphore) }

    func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }

    /// Takes a count if one is there at once; false if it would have to wait.
    func tryWait() -> Bool { sem_trywait(semaphore) == 0 }

    /// Takes a count, waiting at most `seconds` (on the wall clock, which is
    /// what `sem_timedwait` offers); false if none came in time.
    func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = deadline.tv_nsec + Int(max(0, seconds).truncatingRemainder(dividingBy: 1) * 1e9)
        deadline.tv_sec += Int(max(0, min(seconds, 1e9))) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while sem_timedwait(semaphore, &deadline) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}
