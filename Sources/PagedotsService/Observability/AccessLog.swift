import Glibc
import HTTPServer
import Locking
import Synchronization

/// The access log and the error log of `pagedots serve`, as a server observer.
///
/// Access lines go to standard output, error lines (the requests the server
/// refused itself: malformed, too large, too slow, over the connection limit,
/// with the peer and the reason) to standard error. Neither is written per
/// request. Each event loop formats its lines straight from the request's
/// bytes into a buffer of its own (`LogOutput`), with time texts made once a
/// second (`LogTime`); a writer thread writes the buffers every
/// `flushInterval`, or sooner when one holds `wakeBytes`. So logging costs a
/// request the bytes of its line and a lock no other loop takes: no system
/// call, no allocation once the buffers have grown, and a log output that
/// does not keep up never holds up a response (its lines are dropped and
/// counted beyond `maxPendingBytes`).
///
/// Error lines are rate-limited by a token bucket, so a flood of bad requests
/// cannot fill a disk: the lines over the rate are counted, and the count is
/// written as one line when the rate allows again.
final class AccessLog: HTTPServerObserver {
    /// Seconds between batches.
    static let flushInterval = 0.1
    /// Bytes of lines that make an event loop wake the writer before the interval ends.
    static let wakeBytes = 64 * 1024
    /// Bytes of lines that may wait for each output (split among the event
    /// loops); more are dropped and counted.
    static let maxPendingBytes = 4 << 20
    /// Error lines allowed in a burst, and per second after it.
    static let errorBurst = 100
    static let errorLinesPerSecond = 10

    private let format: AccessLogFormat
    private let accessLines: LogOutput
    private let errorLines: LogOutput
    private let errorRate: Locked<ErrorRate>
    private let clock: @Sendable () -> timespec
    /// Wakes the writer thread before its interval ends.
    private let writerWake: Semaphore
    /// Posted by the writer thread when it has written the last lines.
    private let writerDone = Semaphore()
    private let finishing = Atomic<Bool>(false)

    private struct ErrorRate {
        var bucket: TokenBucket
        var suppressed = 0
    }

    /// A log in `format` for a server of `loops` event loops, writing access
    /// lines to `accessDescriptor` and error lines to `errorDescriptor`;
    /// `clock` gives the wall-clock time (tests fix it), `lineDropped` is
    /// called for each line an output could not take.
    init(
        format: AccessLogFormat, loops: Int = 1,
        accessDescriptor: Int32 = STDOUT_FILENO, errorDescriptor: Int32 = STDERR_FILENO,
        clock: @escaping @Sendable () -> timespec = AccessLog.wallClock,
        lineDropped: @escaping @Sendable () -> Void = {}
    ) {
        self.format = format
        let wake = Semaphore()
        writerWake = wake
        let loops = max(1, loops)
        accessLines = LogOutput(
            descriptor: accessDescriptor, lanes: loops, maxLaneBytes: max(AccessLog.wakeBytes, AccessLog.maxPendingBytes / loops),
            wakeBytes: AccessLog.wakeBytes, wakeWriter: { wake.signal() }, lineDropped: lineDropped
        )
        errorLines = LogOutput(
            descriptor: errorDescriptor, lanes: 1, maxLaneBytes: AccessLog.maxPendingBytes,
            wakeBytes: AccessLog.wakeBytes, wakeWriter: { wake.signal() }, lineDropped: lineDropped
        )
        errorRate = Locked(ErrorRate(bucket: TokenBucket(capacity: AccessLog.errorBurst, perSecond: Double(AccessLog.errorLinesPerSecond))))
        self.clock = clock
    }

    /// Starts the thread that writes the gathered lines every `flushInterval`
    /// (sooner when a loop has gathered `wakeBytes`); false when no thread
    /// could be started.
    func startWriting() -> Bool {
        DetachedThread.start { [self] in
            while true {
                _ = writerWake.wait(seconds: AccessLog.flushInterval)
                // Read before the flush: a flush that starts after `finish` was
                // called takes every line the stopped server logged.
                let lastRound = finishing.load(ordering: .acquiring)
                if flush(), lastRound {
                    writerDone.signal()
                    return
                }
            }
        }
    }

    /// Once the server has stopped: has the writer thread write every line
    /// left, and waits for it at most `seconds`. False when the outputs did
    /// not take them in that time (a reader that stopped reading, a full disk).
    func finish(within seconds: Double) -> Bool {
        finishing.store(true, ordering: .releasing)
        writerWake.signal()
        return writerDone.wait(seconds: seconds)
    }

    /// Writes every gathered line now (and the count of suppressed error
    /// lines, if the rate allows); false when an output failed.
    @discardableResult
    func flush() -> Bool {
        reportSuppressedErrors(now: clock())
        let access = accessLines.flush()
        let errors = errorLines.flush()
        return access && errors
    }

    // MARK: HTTPServerObserver

    func connectionOpened() {}

    func connectionClosed() {}

    func responseSent(label: Int, status: Int, seconds: Double) {}

    var wantsAccessRecords: Bool { format != .off }

    func accessRecord(_ record: HTTPAccessRecord) {
        let now = clock()
        switch format {
        case .combined:
            accessLines.append(lane: record.loop, second: now.tv_sec) { line, time in
                AccessLog.appendCombined(record, time: time, to: &line)
            }
        case .json:
            accessLines.append(lane: record.loop, second: now.tv_sec) { line, time in
                AccessLog.appendJSON(record, time: time, to: &line)
            }
        case .off:
            break
        }
        if let problem = record.problem { logRefusal(record, problem: problem, now: now) }
    }

    // MARK: Error lines

    private func logRefusal(_ record: HTTPAccessRecord, problem: String, now: timespec) {
        logError(now: now) { line, time in AccessLog.appendRefusal(record, problem: problem, time: time, to: &line) }
    }

    /// `pagedots: <time> <text>` on the error log, under its rate limit: a
    /// problem the service met away from a request's answer (`ProblemLog`).
    func logProblem(_ text: String) {
        logError(now: clock()) { line, time in
            line.appendText("pagedots: ")
            line.append(contentsOf: time.iso8601)
            line.appendText(" ")
            line.appendText(text.replacingControlCharacters())
            line.appendText("\n")
        }
    }

    /// Writes an error line with `write` when the rate allows, after the
    /// count of those suppressed before it; counts it as suppressed otherwise.
    private func logError(now: timespec, _ write: (inout [UInt8], LogTime) -> Void) {
        let suppressedBefore: Int? = errorRate.withLock { rate in
            guard rate.bucket.take(at: now.seconds) else {
                rate.suppressed += 1
                return nil
            }
            defer { rate.suppressed = 0 }
            return rate.suppressed
        }
        guard let suppressedBefore else { return }
        errorLines.append(lane: 0, second: now.tv_sec) { line, time in
            if suppressedBefore > 0 { AccessLog.appendSuppressed(suppressedBefore, time: time, to: &line) }
            write(&line, time)
        }
    }

    private func reportSuppressedErrors(now: timespec) {
        let suppressed: Int = errorRate.withLock { rate in
            guard rate.suppressed > 0, rate.bucket.take(at: now.seconds) else { return 0 }
            defer { rate.suppressed = 0 }
            return rate.suppressed
        }
        guard suppressed > 0 else { return }
        errorLines.append(lane: 0, second: now.tv_sec) { line, time in
            AccessLog.appendSuppressed(suppressed, time: time, to: &line)
        }
    }

    // MARK: Formats

    /// `127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] "GET /x HTTP/1.1" 200 312 "-" "curl/7.88.1" 0.000214`.
    /// A request the server could not read is `"-"`; quoted fields are
    /// escaped (`appendQuoted`).
    static func appendCombined(_ record: HTTPAccessRecord, time: LogTime, to line: inout [UInt8]) {
        line.appendAddress(of: record.peer)
        line.appendText(" - - [")
        line.append(contentsOf: time.common)
        line.appendText("] \"")
        if let request = record.request {
            line.appendQuoted(request.method.name)
            line.appendText(" ")
            line.appendTarget(of: request, json: false)
            line.appendText(" ")
            line.appendVersion(request.version)
        } else {
            line.appendText("-")
        }
        line.appendText("\" ")
        line.appendDecimal(record.status)
        line.appendText(" ")
        line.appendDecimal(record.bodyBytes)
        line.appendText(" \"")
        line.appendQuotedHeader("Referer", of: record.request)
        line.appendText("\" \"")
        line.appendQuotedHeader("User-Agent", of: record.request)
        line.appendText("\" ")
        line.appendSeconds(record.seconds)
        line.appendText("\n")
    }

    /// `{"time":"2026-11-29T16:40:17Z","peer":"127.0.0.1:54321",…}`, one
    /// object a line; facts the server does not have are `null`.
    static func appendJSON(_ record: HTTPAccessRecord, time: LogTime, to line: inout [UInt8]) {
        let request = record.request
        line.appendText("{\"time\":\"")
        line.append(contentsOf: time.iso8601)
        line.appendText("\",\"peer\":\"")
        line.appendJSONEscaped(record.peer)
        line.appendText("\",\"method\":")
        line.appendJSONString(request?.method.name)
        line.appendText(",\"target\":")
        if let request {
            line.appendText("\"")
            line.appendTarget(of: request, json: true)
            line.appendText("\",\"version\":\"")
            line.appendVersion(request.version)
            line.appendText("\"")
        } else {
            line.appendText("null,\"version\":null")
        }
        line.appendText(",\"status\":")
        line.appendDecimal(record.status)
        line.appendText(",\"bytes\":")
        line.appendDecimal(record.bodyBytes)
        line.appendText(",\"seconds\":")
        line.appendSeconds(record.seconds)
        line.appendText(",\"referer\":")
        line.appendJSONHeader("Referer", of: request)
        line.appendText(",\"user_agent\":")
        line.appendJSONHeader("User-Agent", of: request)
        line.appendText(",\"problem\":")
        line.appendJSONString(record.problem)
        line.appendText("}\n")
    }

    /// `pagedots: 2026-11-29T16:40:17Z 127.0.0.1:54321 414 refused: request line longer than 8192 bytes`.
    static func appendRefusal(_ record: HTTPAccessRecord, problem: String, time: LogTime, to line: inout [UInt8]) {
        line.appendText("pagedots: ")
        line.append(contentsOf: time.iso8601)
        line.appendText(" ")
        line.appendText(record.peer)
        line.appendText(" ")
        line.appendDecimal(record.status)
        line.appendText(" refused: ")
        line.appendText(problem)
        line.appendText("\n")
    }

    /// `pagedots: 2026-11-29T16:40:17Z 1234 error lines suppressed (over 10 a second)`.
    static func appendSuppressed(_ count: Int, time: LogTime, to line: inout [UInt8]) {
        line.appendText("pagedots: ")
        line.append(contentsOf: time.iso8601)
        line.appendText(" ")
        line.appendDecimal(count)
        line.appendText(" error lines suppressed (over ")
        line.appendDecimal(errorLinesPerSecond)
        line.appendText(" a second)\n")
    }

    /// The wall clock now, to the last tick (the logs write whole seconds).
    static let wallClock: @Sendable () -> timespec = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return now
    }
}

private extension [UInt8] {
    /// The peer's address without its port: `127.0.0.1:54321` → `127.0.0.1`,
    /// `[::1]:80` → `::1`; `-` when unknown.
    mutating func appendAddress(of peer: String) {
        var peer = peer
        peer.withUTF8 { bytes in
            guard let first = bytes.first else { return appendText("-") }
            let address = first == UInt8(ascii: "[")
                ? bytes.dropFirst().prefix { $0 != UInt8(ascii: "]") }
                : bytes.prefix { $0 != UInt8(ascii: ":") }
            append(contentsOf: address)
        }
    }

    /// The path and query as sent, escaped for a quoted field of the combined
    /// format or for a JSON string.
    mutating func appendTarget(of request: HTTPRequest, json: Bool) {
        appendEscaped(request.path, json: json)
        guard !request.query.isEmpty else { return }
        appendText("?")
        appendEscaped(request.query, json: json)
    }

    private mutating func appendEscaped(_ text: String, json: Bool) {
        if json { appendJSONEscaped(text) } else { appendQuoted(text) }
    }

    /// `HTTP/1.1`.
    mutating func appendVersion(_ version: HTTPVersion) {
        appendText("HTTP/")
        appendDecimal(version.major)
        appendText(".")
        appendDecimal(version.minor)
    }

    /// A header's value escaped for a quoted field of the combined format, or
    /// `-` when the request has no such header or was not understood.
    mutating func appendQuotedHeader(_ name: String, of request: HTTPRequest?) {
        guard let request else { return appendText("-") }
        request.withHeader(name) { value in
            guard let value else { return appendText("-") }
            appendQuoted(value)
        }
    }

    /// A header's value as a JSON string, or `null`.
    mutating func appendJSONHeader(_ name: String, of request: HTTPRequest?) {
        guard let request else { return appendText("null") }
        request.withHeader(name) { value in
            guard let value else { return appendText("null") }
            appendText("\"")
            appendJSONEscaped(value)
            appendText("\"")
        }
    }

    /// A JSON string, or `null`.
    mutating func appendJSONString(_ text: String?) {
        guard let text else { return appendText("null") }
        appendText("\"")
        appendJSONEscaped(text)
        appendText("\"")
    }
}

extension timespec {
    /// As seconds.
    fileprivate var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}

private extension String {
    /// The text on one line: control characters (a line break in a host
    /// name an origin sent back, say) as `?`.
    func replacingControlCharacters() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}

