#if canImport(Glibc)
import Glibc
#endif

/// Lets a worker thread that answers many requests in a row (a render
/// thread) post its responses without waking their event loops each time,
/// and wake them once, with several responses waiting, when it flushes.
///
/// A loop wakes through a descriptor write and a context switch that cost
/// about as much as serving a cached image; under a stream of work that is
/// paid per response. A thread that defers wakes each loop it posted to at
/// most once per `flush()`, and loops that are awake anyway (for input)
/// pick deferred responses up without being woken. The thread must flush
/// whenever it may go idle, or a response could wait for its next job.
public final class DeferredWakeups {
    private var loops: [EventLoop] = []

    private init() {}

    /// Makes the calling thread defer its wake-ups from now on, and returns
    /// its handle for `flush()`. Call once, on a thread of your own that
    /// flushes before it waits for work (never on a shared pool's thread).
    public static func beginOnThisThread() -> DeferredWakeups {
        let wakeups = DeferredWakeups()
        // Held for the thread's life (worker threads do not end).
        pthread_setspecific(threadKey, Unmanaged.passRetained(wakeups).toOpaque())
        return wakeups
    }

    /// The calling thread's handle, when it defers its wake-ups.
    static var ofThisThread: DeferredWakeups? {
        pthread_getspecific(threadKey).map { Unmanaged<DeferredWakeups>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Wakes every loop that this thread posted to since the last flush and
    /// that has not read its mailbox since.
    public func flush() {
        for loop in loops { loop.wakeForDeliveries() }
        loops.removeAll(keepingCapacity: true)
    }

    /// Notes a loop posted to without a wake-up.
    func remember(_ loop: EventLoop) {
        if !loops.contains(where: { $0 === loop }) { loops.append(loop) }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "cannot create a thread-specific key: error \(status)")
        return key
    }()
}
