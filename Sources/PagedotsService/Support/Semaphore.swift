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
}
