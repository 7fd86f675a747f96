import Glibc
@testable import HTTPServer
@testable import PagedotsService
import Synchronization
import Testing
import TestSupport

/// A wall-clock time: 2026-11-29 16:40:17.5 UTC.
private let fixedTime = timespec(tv_sec: 1_795_970_417, tv_nsec: 500_000_000)

private func record(
    peer: String = "127.0.0.1:54321", method: String = "GET", target: String = "/indicator?pages=5",
    referer: String? = nil, userAgent: String? = "curl/7.88.1", status: Int = 200, bytes: Int = 312,
    seconds: Double = 0.000214, problem: String? = nil
) -> HTTPAccessRecord {
    HTTPAccessRecord(
        peer: peer, method: method, target: target, version: method.isEmpty ? nil : .http1_1, referer: referer,
        userAgent: userAgent, status: status, bodyBytes: bytes, seconds: seconds, label: problem == nil ? 1 : 0, problem: problem
    )
}

/// A pipe whose read end a test drains after the log has flushed.
private final class LogPipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Everything written so far.
    func lines() -> [String] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

@Suite struct AccessLogTests {
    @Test("combined: nginx's combined format with the seconds appended; the port is not part of the address")
    func combinedLine() {
        #expect(AccessLog.combinedLine(record(), time: fixedTime)
            == "127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] \"GET /indicator?pages=5 HTTP/1.1\" 200 312 \"-\" \"curl/7.88.1\" 0.000214\n")
        #expect(AccessLog.combinedLine(record(peer: "[::1]:8080", referer: "https://mail.example/"), time: fixedTime)
            .hasPrefix("::1 - - [29/Nov/2026:16:40:17 +0000] \"GET /indicator?pages=5 HTTP/1.1\" 200 312 \"https://mail.example/\" "))
    }

    @Test("combined: a request the server could not read is \"-\"")
    func combinedRefusal() {
        let line = AccessLog.combinedLine(
            record(method: "", target: "", userAgent: nil, status: 414, bytes: 38, seconds: 0.5, problem: "request line longer than 8192 bytes"),
            time: fixedTime
        )
        #expect(line == "127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] \"-\" 414 38 \"-\" \"-\" 0.5\n")
    }

    @Test("A client cannot break a line or a field: quotes, backslashes, control and non-ASCII bytes are escaped")
    func escaping() {
        let line = AccessLog.combinedLine(record(userAgent: "evil\" 200 1 \"x\\\u{1}\nnext é"), time: fixedTime)
        #expect(line.hasSuffix("\"evil\\x22 200 1 \\x22x\\x5C\\x01\\x0Anext \\xC3\\xA9\" 0.000214\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        let json = AccessLog.jsonLine(record(userAgent: "a\"b\\c\u{1}\nd é"), time: fixedTime)
        #expect(json.contains("\"user_agent\":\"a\\\"b\\\\c\\u0001\\u000Ad é\""))
        #expect(json.filter { $0 == "\n" }.count == 1)
    }

    @Test("json: one object a line; facts the server does not have are null")
    func jsonLine() {
        #expect(AccessLog.jsonLine(record(), time: fixedTime)
            == "{\"time\":\"2026-11-29T16:40:17Z\",\"peer\":\"127.0.0.1:54321\",\"method\":\"GET\",\"target\":\"/indicator?pages=5\","
            + "\"version\":\"HTTP/1.1\",\"status\":200,\"bytes\":312,\"seconds\":0.000214,\"referer\":null,"
            + "\"user_agent\":\"curl/7.88.1\",\"problem\":null}\n")
        let refusal = AccessLog.jsonLine(record(method: "", target: "", status: 505, problem: "HTTP version not supported"), time: fixedTime)
        #expect(refusal.contains("\"method\":null,\"target\":null,\"version\":null,\"status\":505"))
        #expect(refusal.contains("\"problem\":\"HTTP version not supported\""))
    }

    @Test("Seconds are plain decimals to the microsecond", arguments: [
        (0.000214, "0.000214"), (12.5, "12.5"), (3, "3"), (0, "0"), (1e-9, "0"), (2.0000005, "2.000001"),
    ])
    func seconds(value: Double, text: String) {
        #expect(LogTime.decimal(value) == text)
    }

    @Test("The token bucket allows a burst, then its rate; time refills it up to its capacity")
    func tokenBucket() {
        var bucket = TokenBucket(capacity: 3, perSecond: 2)
        #expect((0..<5).map { _ in bucket.take(at: 100) } == [true, true, true, false, false])
        #expect(bucket.take(at: 100.4) == false)
        #expect(bucket.take(at: 100.5) == true)
        #expect((0..<5).map { _ in bucket.take(at: 200) } == [true, true, true, false, false])
        // A clock that steps back takes nothing away and gives nothing.
        #expect(bucket.take(at: 150) == false)
    }

    @Test("Lines wait in memory until flushed; the access log off still writes refusals")
    func bufferingAndOff() {
        let output = LogPipe()
        let errors = LogPipe()
        let log = AccessLog(format: .off, accessDescriptor: output.writeEnd, errorDescriptor: errors.writeEnd, clock: { fixedTime })
        #expect(!log.wantsAccessRecords)
        log.accessRecord(record())
        log.accessRecord(record(peer: "10.0.0.1:999", method: "", target: "", status: 408, problem: "request not received within 10 s"))
        #expect(errors.lines().isEmpty)
        log.flush()
        #expect(output.lines().isEmpty)
        #expect(errors.lines() == ["pagedots: 2026-11-29T16:40:17Z 10.0.0.1:999 408 refused: request not received within 10 s"])
    }

    @Test("A flood of refusals is cut to the burst; the rest are counted in one line when the rate allows")
    func errorFloodIsRateLimited() {
        let output = LogPipe()
        let errors = LogPipe()
        let now = Mutex(fixedTime)
        let log = AccessLog(format: .combined, accessDescriptor: output.writeEnd, errorDescriptor: errors.writeEnd, clock: { now.withLock { $0 } })
        // 300 lines of each log stay well within a pipe's 64 KiB.
        for _ in 0..<300 {
            log.accessRecord(record(method: "", target: "", status: 400, problem: "malformed header line"))
        }
        log.flush()
        #expect(output.lines().count == 300)
        let burst = errors.lines()
        #expect(burst.count == AccessLog.errorBurst)
        // A second later the bucket has room again: the count of what was dropped comes first.
        now.withLock { $0.tv_sec += 1 }
        log.flush()
        #expect(errors.lines() == ["pagedots: 2026-11-29T16:40:18Z 200 error lines suppressed (over 10 a second)"])
    }

    @Test("A log that does not keep up drops lines and says how many, instead of growing")
    func boundedBuffer() {
        let errors = LogPipe()
        let buffer = LineBuffer(descriptor: errors.writeEnd, maxPendingBytes: 10)
        for _ in 0..<5 { buffer.append("abcd\n") }
        buffer.flush()
        #expect(errors.lines() == ["abcd", "abcd", "pagedots: 3 log lines dropped: the log output did not keep up"])
    }

    @Test("--access-log and PAGEDOTS_ACCESS_LOG choose the format; combined by default; others are refused")
    func option() throws {
        func format(_ arguments: [String], environment: [String: String] = [:]) -> AccessLogFormat? {
            try? CommandLineOption.configuration(arguments: arguments, environment: { environment[$0] }).get().accessLog
        }
        #expect(format([]) == .combined)
        #expect(format(["--access-log", "json"]) == .json)
        #expect(format(["--access-log=OFF"]) == .off)
        #expect(format([], environment: ["PAGEDOTS_ACCESS_LOG": "json"]) == .json)
        #expect(format(["--access-log", "apache"]) == nil)
        guard case .failure(let error) = CommandLineOption.configuration(arguments: ["--access-log", "xml"], environment: { _ in nil }) else {
            Issue.record("xml was accepted")
            return
        }
        #expect(error.message == "--access-log: must be combined, json or off; got \"xml\"")
    }

    @Test("--max-connections and PAGEDOTS_MAX_CONNECTIONS set the connection limit")
    func maxConnectionsOption() throws {
        let configuration = try CommandLineOption.configuration(arguments: ["--max-connections", "64"], environment: { _ in nil }).get()
        #expect(configuration.server.maxConnections == 64)
        let fromEnvironment = try CommandLineOption.configuration(arguments: [], environment: { $0 == "PAGEDOTS_MAX_CONNECTIONS" ? "7" : nil }).get()
        #expect(fromEnvironment.server.maxConnections == 7)
        #expect(throws: OptionError.self) { try CommandLineOption.configuration(arguments: ["--max-connections", "0"], environment: { _ in nil }).get() }
    }

    @Test("Through a real server: one line per response, refusals included, all written by the end of the drain")
    func servedRequestsAreLogged() throws {
        let output = LogPipe()
        let errors = LogPipe()
        var configuration = ServiceConfiguration()
        configuration.server.port = 0
        configuration.server.eventLoops = 1
        configuration.renderThreads = 1
        let service = PagedotsService(configuration: configuration)
        let log = AccessLog(format: .json, accessDescriptor: output.writeEnd, errorDescriptor: errors.writeEnd)
        let server = HTTPServer(configuration: configuration.server, handler: service, observer: ObserverGroup([service.observer, log]))
        try server.start()
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator?pages=5", headers: ["User-Agent: test-agent", "Referer: https://mail.example/"])
        #expect(try client.readResponse().status == 200)
        client.request("/healthz")
        #expect(try client.readResponse().status == 200)
        let refused = try HTTPTestClient(port: server.port)
        refused.send("GET /healthz HTTP/2.0\r\n\r\n")
        #expect(try refused.readResponse().status == 505)
        server.shutdown()
        server.wait()
        log.flush()
        let lines = output.lines()
        #expect(lines.count == 3)
        #expect(lines.contains { $0.contains("\"target\":\"/indicator?pages=5\"") && $0.contains("\"status\":200")
            && $0.contains("\"user_agent\":\"test-agent\"") && $0.contains("\"referer\":\"https://mail.example/\"") })
        #expect(lines.contains { $0.contains("\"status\":505") && $0.contains("\"peer\":\"127.0.0.1:") })
        let errorLines = errors.lines()
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.hasSuffix(" 505 refused: HTTP version not supported: use HTTP/1.1 or HTTP/1.0") == true)
    }
}
