import Synchronization

/// Lines waiting to be written to one descriptor, in batches. Bounded: when
/// the descriptor does not keep up (a full pipe, a stalled disk) and
/// `maxPendingBytes` are waiting, further lines are dropped and counted, and
/// the count is written with the next batch, so a slow log never makes the
/// server's memory grow.
final class LineBuffer: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
    }

    private let descriptor: Int32
    private let maxPendingBytes: Int
    private let pending = Mutex(Pending())
    /// Held while writing, so that batches reach the descriptor in order.
    private let writing = Mutex(())

    init(descriptor: Int32, maxPendingBytes: Int = 4 << 20) {
        self.descriptor = descriptor
        self.maxPendingBytes = maxPendingBytes
    }

    func append(_ line: String) {
        pending.withLock { pending in
            guard pending.bytes.count + line.utf8.count <= maxPendingBytes else {
                pending.dropped += 1
                return
            }
            pending.bytes.append(contentsOf: line.utf8)
        }
    }

    /// Writes what is waiting.
    func flush() {
        writing.withLock { _ in
            var batch: [UInt8] = []
            let dropped = pending.withLock { pending in
                swap(&batch, &pending.bytes)
                defer { pending.dropped = 0 }
                return pending.dropped
            }
            if dropped > 0 {
                batch.append(contentsOf: "pagedots: \(dropped) log lines dropped: the log output did not keep up\n".utf8)
            }
            if !batch.isEmpty { writeAll(batch, to: descriptor) }
        }
    }
}
