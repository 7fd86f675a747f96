import Glibc
import HTTPServer
import Synchronization

/// How `--access-log` writes one line per response on standard output.
public enum AccessLogFormat: String, CaseIterable, Sendable {
    /// nginx's and Apache's "combined" format, with the seconds taken appended:
    /// `127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] "GET /indicator?pages=5 HTTP/1.1" 200 312 "-" "curl/7.88.1" 0.000214`
    case combined
    /// One JSON object a line, with the same facts and the full peer address.
    case json
    /// No access log (error lines about refused requests are still written).
    case off
}

/// The access log and the error log of `pagedots serve`, as a server observer.
///
/// Access lines go to standard output, error lines (the requests the server
/// refused itself: malformed, too large, too slow, over the connection limit,
/// with the peer and the reason) to standard error. Neither is written per
/// request: lines gather in memory and a background thread writes them in
/// batches every `flushInterval`, so logging costs a request a formatted
/// line, not a system call. Error lines are rate-limited by a token bucket,
/// so a flood of bad requests cannot fill a disk: the lines over the rate are
/// counted, and the count is written as one line when the rate allows again.
final class AccessLog: HTTPServerObserver {
    /// Seconds between batches.
    static let flushInterval = 0.1
    /// Error lines allowed in a burst, and per second after it.
    static let errorBurst = 100
    static let errorLinesPerSecond = 10.0

    private let format: AccessLogFormat
    private let accessLines: LineBuffer
    private let errorLines: LineBuffer
    private let errorRate: Mutex<ErrorRate>
    private let clock: @Sendable () -> timespec

    private struct ErrorRate {
        var bucket: TokenBucket
        var suppressed = 0
    }

    /// A log in `format` writing access lines to `accessDescriptor` and error
    /// lines to `errorDescriptor`; `clock` gives the wall-clock time (tests fix it).
    init(
        format: AccessLogFormat, accessDescriptor: Int32 = STDOUT_FILENO, errorDescriptor: Int32 = STDERR_FILENO,
        clock: @escaping @Sendable () -> timespec = AccessLog.wallClock
    ) {
        self.format = format
        accessLines = LineBuffer(descriptor: accessDescriptor)
        errorLines = LineBuffer(descriptor: errorDescriptor)
        errorRate = Mutex(ErrorRate(bucket: TokenBucket(capacity: AccessLog.errorBurst, perSecond: AccessLog.errorLinesPerSecond)))
        self.clock = clock
    }

    /// Starts the thread that writes the gathered lines every `flushInterval`;
    /// false when no thread could be started.
    func startFlushing() -> Bool {
        DetachedThread.start { [self] in
            var interval = timespec(tv_sec: 0, tv_nsec: Int(AccessLog.flushInterval * 1e9))
            while true {
                nanosleep(&interval, nil)
                flush()
            }
        }
    }

    /// Writes every gathered line now (and the count of suppressed error lines, if the rate allows).
    func flush() {
        reportSuppressedErrors(now: clock())
        accessLines.flush()
        errorLines.flush()
    }

    // MARK: HTTPServerObserver

    func connectionOpened() {}

    func connectionClosed() {}

    func responseSent(label: Int, status: Int, seconds: Double) {}

    var wantsAccessRecords: Bool { format != .off }

    func accessRecord(_ record: HTTPAccessRecord) {
        let now = clock()
        switch format {
        case .combined: accessLines.append(AccessLog.combinedLine(record, time: now))
        case .json: accessLines.append(AccessLog.jsonLine(record, time: now))
        case .off: break
        }
        if let problem = record.problem { logRefusal(record, problem: problem, now: now) }
    }

    // MARK: Error lines

    private func logRefusal(_ record: HTTPAccessRecord, problem: String, now: timespec) {
        let suppressedBefore: Int? = errorRate.withLock { rate in
            guard rate.bucket.take(at: now.seconds) else {
                rate.suppressed += 1
                return nil
            }
            defer { rate.suppressed = 0 }
            return rate.suppressed
        }
        guard let suppressedBefore else { return }
        if suppressedBefore > 0 { errorLines.append(AccessLog.suppressedLine(suppressedBefore, time: now)) }
        errorLines.append(AccessLog.refusalLine(record, problem: problem, time: now))
    }

    private func reportSuppressedErrors(now: timespec) {
        let suppressed: Int = errorRate.withLock { rate in
            guard rate.suppressed > 0, rate.bucket.take(at: now.seconds) else { return 0 }
            defer { rate.suppressed = 0 }
            return rate.suppressed
        }
        if suppressed > 0 { errorLines.append(AccessLog.suppressedLine(suppressed, time: now)) }
    }

    // MARK: Formats

    /// `127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] "GET /x HTTP/1.1" 200 312 "-" "curl/7.88.1" 0.000214`.
    static func combinedLine(_ record: HTTPAccessRecord, time: timespec) -> String {
        let request = record.method.isEmpty ? "-" : "\(record.method) \(record.target) \(record.version?.description ?? "-")"
        return "\(address(of: record.peer)) - - [\(LogTime.common(time))] \"\(quoted(request))\" \(record.status) "
            + "\(record.bodyBytes) \"\(quoted(record.referer ?? "-"))\" \"\(quoted(record.userAgent ?? "-"))\" "
            + "\(LogTime.decimal(record.seconds))\n"
    }

    /// `{"time":"2026-11-29T16:40:17Z","peer":"127.0.0.1:54321",…}`; absent facts are `null`.
    static func jsonLine(_ record: HTTPAccessRecord, time: timespec) -> String {
        func string(_ text: String?) -> String { text.map { "\"\(jsonEscaped($0))\"" } ?? "null" }
        let understood = !record.method.isEmpty
        return "{\"time\":\"\(LogTime.iso8601(time))\",\"peer\":\(string(record.peer)),"
            + "\"method\":\(string(understood ? record.method : nil)),\"target\":\(string(understood ? record.target : nil)),"
            + "\"version\":\(string(record.version?.description)),\"status\":\(record.status),"
            + "\"bytes\":\(record.bodyBytes),\"seconds\":\(LogTime.decimal(record.seconds)),"
            + "\"referer\":\(string(record.referer)),\"user_agent\":\(string(record.userAgent)),"
            + "\"problem\":\(string(record.problem))}\n"
    }

    /// `pagedots: 2026-11-29T16:40:17Z 127.0.0.1:54321 414 refused: request line longer than 8192 bytes`.
    static func refusalLine(_ record: HTTPAccessRecord, problem: String, time: timespec) -> String {
        "pagedots: \(LogTime.iso8601(time)) \(record.peer) \(record.status) refused: \(problem)\n"
    }

    /// `pagedots: 2026-11-29T16:40:17Z 1234 error lines suppressed (over 10 a second)`.
    static func suppressedLine(_ count: Int, time: timespec) -> String {
        "pagedots: \(LogTime.iso8601(time)) \(count) error lines suppressed (over \(LogTime.decimal(errorLinesPerSecond)) a second)\n"
    }

    /// The address without its port: `127.0.0.1:54321` → `127.0.0.1`, `[::1]:80` → `::1`.
    static func address(of peer: String) -> String {
        guard !peer.isEmpty else { return "-" }
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") { return String(peer[peer.index(after: peer.startIndex)..<close]) }
        return String(peer.prefix { $0 != ":" })
    }

    /// Text safe inside a quoted log field: `"`, `\`, control bytes and
    /// non-ASCII as `\xHH` (as nginx does), so a client cannot forge a line.
    static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x5C }) else { return text }
        var escaped = ""
        for byte in text.utf8 {
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
                escaped += "\\x" + hex(byte)
            } else {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }

    /// A JSON string's content (RFC 8259 §7).
    static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: escaped += "\\u00" + hex(UInt8(scalar.value))
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// The wall clock now.
    static let wallClock: @Sendable () -> timespec = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }
}

/// Lets every observer of a list see each event: the service's metrics and its logs.
final class ObserverGroup: HTTPServerObserver {
    private let observers: [any HTTPServerObserver]
    let wantsAccessRecords: Bool

    init(_ observers: [any HTTPServerObserver]) {
        self.observers = observers
        wantsAccessRecords = observers.contains { $0.wantsAccessRecords }
    }

    func connectionOpened() { observers.forEach { $0.connectionOpened() } }

    func connectionClosed() { observers.forEach { $0.connectionClosed() } }

    func responseSent(label: Int, status: Int, seconds: Double) {
        observers.forEach { $0.responseSent(label: label, status: status, seconds: seconds) }
    }

    func accessRecord(_ record: HTTPAccessRecord) { observers.forEach { $0.accessRecord(record) } }
}

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

/// A token bucket: `capacity` tokens, refilled at `perSecond`; each line takes one.
struct TokenBucket {
    let capacity: Double
    let perSecond: Double
    private var tokens: Double
    private var updatedAt: Double?

    init(capacity: Int, perSecond: Double) {
        self.capacity = Double(capacity)
        self.perSecond = perSecond
        tokens = Double(capacity)
    }

    /// Takes a token at time `now` (seconds); false when none is left.
    mutating func take(at now: Double) -> Bool {
        if let updatedAt, now > updatedAt { tokens = min(capacity, tokens + (now - updatedAt) * perSecond) }
        updatedAt = max(updatedAt ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

/// Wall-clock times as the logs write them, in UTC.
enum LogTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `29/Nov/2026:16:40:17 +0000` (the common log format's).
    static func common(_ time: timespec) -> String {
        let parts = utc(time)
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    /// `2026-11-29T16:40:17Z`.
    static func iso8601(_ time: timespec) -> String {
        let parts = utc(time)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Seconds to the microsecond, without exponent: `0.000214`, `12.5`.
    static func decimal(_ seconds: Double) -> String {
        let micros = Int((max(0, seconds) * 1e6).rounded())
        let fraction = String(micros % 1_000_000)
        var text = "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func utc(_ time: timespec) -> tm {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension timespec {
    /// As seconds.
    fileprivate var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}
