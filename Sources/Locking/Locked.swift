#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only under its lock.
///
/// The lock is a pthread mutex, so ThreadSanitizer sees every hand-over:
/// the standard library's `Synchronization.Mutex` locks with futex calls
/// that ThreadSanitizer does not intercept on Linux, so two threads taking
/// turns under one `Mutex` look to it as if they raced. `withLock` has
/// `Mutex.withLock`'s shape (the value `inout` for the length of the body,
/// the body's error passed through as it is typed), so one stands for the
/// other.
public final class Locked<Value>: @unchecked Sendable {
    // Allocated apart: a pthread mutex must not move, and a stored
    // property's address is not stable to Swift.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    public init(_ value: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    ///
    /// The lock is not recursive: `body` must not call `withLock` on the same lock.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
