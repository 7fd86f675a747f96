import Glibc
import Locking

/// Whole log lines bound for one descriptor.
///
/// Each event loop appends to a lane of its own: a buffer under a lock that
/// only that loop and the writer take, so that loops never wait for each
/// other, nor for the descriptor. One writer thread (`AccessLog`'s) calls
/// `flush`, which takes each lane's lines in turn (leaving the lane an empty
/// buffer with room, so that appending allocates nothing once the buffers
/// have grown) and writes them. A line is appended whole or not at all, and
/// written in its lane's order.
///
/// Bounded: a lane holding `maxLaneBytes` (the descriptor does not keep up:
/// a full pipe, a full or stalled disk) drops further lines and counts them;
/// the count is written as a line of its own after that lane's lines when the
/// descriptor takes them. What a failed write did not write is kept and
/// written first next time, so a descriptor that recovers gets every line
/// whole.
final class LogOutput: Sendable {
    private final class Lane: Sendable {
        let state = Locked(LaneState())
    }

    private struct LaneState {
        var lines: [UInt8] = []
        /// Lines dropped since the writer last took the lane.
        var dropped = 0
        /// The lane has asked the writer to come early since it was last taken.
        var wakeAsked = false
        var time = LogTime()
    }

    private enum Appended {
        case kept, keptAskingForWriter, dropped
    }

    let descriptor: Int32
    private let lanes: [Lane]
    private let maxLaneBytes: Int
    private let wakeBytes: Int
    /// Bytes taken from the lanes and not yet written; held while writing.
    private let unwritten = Locked<[UInt8]>([])
    private let wakeWriter: @Sendable () -> Void
    private let lineDropped: @Sendable () -> Void

    /// Buffers larger than this after a batch are given back to the heap.
    private static let keptCapacity = 1 << 20

    /// An output to `descriptor` with `lanes` lanes (one per event loop) of at
    /// most `maxLaneBytes` each. A lane that holds `wakeBytes` calls
    /// `wakeWriter` (once until it is taken); each line dropped calls `lineDropped`.
    init(
        descriptor: Int32, lanes: Int, maxLaneBytes: Int, wakeBytes: Int,
        wakeWriter: @escaping @Sendable () -> Void = {}, lineDropped: @escaping @Sendable () -> Void = {}
    ) {
        self.descriptor = descriptor
        self.lanes = (0..<max(1, lanes)).map { _ in Lane() }
        self.maxLaneBytes = maxLaneBytes
        self.wakeBytes = wakeBytes
        self.wakeWriter = wakeWriter
        self.lineDropped = lineDropped
    }

    /// Appends one line to lane `lane` (an event loop's number; another
    /// number goes to lane 0): `write` appends the line's bytes, ending in a
    /// line feed, given the time texts of wall-clock second `second`. When the
    /// lane is full the line is dropped and counted instead.
    func append(lane: Int, second: Int, _ write: (inout [UInt8], LogTime) -> Void) {
        let outcome: Appended = lanes[lanes.indices.contains(lane) ? lane : 0].state.withLock { state in
            guard state.lines.count < maxLaneBytes else {
                state.dropped += 1
                return .dropped
            }
            state.time.update(to: second)
            write(&state.lines, state.time)
            guard state.lines.count >= wakeBytes, !state.wakeAsked else { return .kept }
            state.wakeAsked = true
            return .keptAskingForWriter
        }
        switch outcome {
        case .kept: break
        case .keptAskingForWriter: wakeWriter()
        case .dropped: lineDropped()
        }
    }

    /// Writes what the lanes hold, lane by lane, each followed by a line
    /// counting the lines it dropped, if any. Returns false when the
    /// descriptor failed: what it did not take is kept, and the lanes not yet
    /// taken keep their lines, for the next call.
    @discardableResult
    func flush() -> Bool {
        unwritten.withLock { unwritten in
            guard LogOutput.write(&unwritten, to: descriptor) else { return false }
            for lane in lanes {
                // `unwritten` is empty: the lane gets its storage, the writer the lane's lines.
                let dropped = lane.state.withLock { state in
                    swap(&state.lines, &unwritten)
                    state.wakeAsked = false
                    defer { state.dropped = 0 }
                    return state.dropped
                }
                if dropped > 0 {
                    unwritten.appendText("pagedots: ")
                    unwritten.appendDecimal(dropped)
                    unwritten.appendText(" log lines dropped: the log output did not keep up\n")
                }
                guard LogOutput.write(&unwritten, to: descriptor) else { return false }
                if unwritten.capacity > LogOutput.keptCapacity { unwritten = [] }
            }
            return true
        }
    }

    /// Writes all of `bytes` and empties them (keeping their storage), or,
    /// when the descriptor fails, drops what was written, keeps the rest and
    /// returns false.
    private static func write(_ bytes: inout [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        defer {
            if written == bytes.count { bytes.removeAll(keepingCapacity: true) } else { bytes.removeFirst(written) }
        }
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}
