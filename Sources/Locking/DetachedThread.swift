#if canImport(Glibc)
import Glibc
#endif

/// Threads of the process's own for long-lived work: event loops, render
/// threads, a log writer. Each is a detached POSIX thread (nobody joins it),
/// started with the signal mask of the thread that starts it.
public enum DetachedThread {
    /// Runs `body` on a new detached thread; false when the system refuses
    /// one (then `body` never runs).
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
