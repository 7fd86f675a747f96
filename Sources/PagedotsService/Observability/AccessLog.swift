import Glibc
import HTTPServer
import Synchronization

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

extension timespec {
    /// As seconds.
    fileprivate var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}
