import Glibc
@testable import HTTPServer
@testable import PagedotsService
import Locking
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
    let headers = [("Referer", referer), ("User-Agent", userAgent)].compactMap { name, value in value.map { HTTPHeaderField(name, $0) } }
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let request = method.isEmpty ? nil : HTTPRequest(
        method: method == "GET" ? .get : .other(method), version: .http1_1,
        path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "", headers: headers
    )
    return HTTPAccessRecord(
        peer: peer, request: request, status: status, bodyBytes: bytes, seconds: seconds,
        label: problem == nil ? 1 : 0, problem: problem
    )
}

/// A line as the log writes it at `fixedTime`.
private func line(_ record: HTTPAccessRecord, _ format: AccessLogFormat = .combined) -> String {
    var bytes: [UInt8] = []
    let time = LogTime(second: fixedTime.tv_sec)
    if format == .json {
        AccessLog.appendJSON(record, time: time, to: &bytes)
    } else {
        AccessLog.appendCombined(record, time: time, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Lines dropped, as an output reports them.
private final class DropCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
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

    /// Everything written since the last read.
    func text() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole lines written since the last read.
    func lines() -> [String] {
        text().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Checks that `output` is `count` whole combined lines for `GET /healthz`,
/// each ending in a line feed.
private func expectHealthzLines(_ output: [UInt8], count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = String(decoding: output, as: UTF8.self)
    #expect(text.hasSuffix("\n"), sourceLocation: sourceLocation)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == count, sourceLocation: sourceLocation)
    let malformed = lines.filter { line in
        let fields = line.split(separator: "\"")
        // 127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] "GET /healthz HTTP/1.1" 200 3 "-" "-" 0.000123
        return !line.hasPrefix("127.0.0.1 - - [") || !fields[0].hasSuffix(" +0000] ") || fields.count != 7
            || fields[1] != "GET /healthz HTTP/1.1" || fields[2] != " 200 3 " || fields[3] != "-" || fields[4] != " "
            || fields[5] != "-" || fields[6].first != " " || Double(fields[6].dropFirst()) == nil
    }
    #expect(malformed.isEmpty, "\(malformed.prefix(3))", sourceLocation: sourceLocation)
}

@Suite struct AccessLogTests {
    @Test("combined: nginx's combined format with the seconds appended; the port is not part of the address")
    func combinedLine() {
        #expect(line(record())
            == "127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] \"GET /indicator?pages=5 HTTP/1.1\" 200 312 \"-\" \"curl/7.88.1\" 0.000214\n")
        #expect(line(record(peer: "[::1]:8080", referer: "https://mail.example/"))
            .hasPrefix("::1 - - [29/Nov/2026:16:40:17 +0000] \"GET /indicator?pages=5 HTTP/1.1\" 200 312 \"https://mail.example/\" "))
        #expect(line(record(target: "/healthz", userAgent: nil)).contains(" \"GET /healthz HTTP/1.1\" 200 312 \"-\" \"-\" 0.000214\n"))
    }

    @Test("combined: a request the server could not read is \"-\"")
    func combinedRefusal() {
        let refusal = record(method: "", target: "", userAgent: nil, status: 414, bytes: 38, seconds: 0.5, problem: "request line longer than 8192 bytes")
        #expect(line(refusal) == "127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] \"-\" 414 38 \"-\" \"-\" 0.5\n")
    }

    @Test("A client cannot break a line or a field: quotes, backslashes, control and non-ASCII bytes are escaped")
    func escaping() {
        let combined = line(record(userAgent: "evil\" 200 1 \"x\\ é"))
        #expect(combined.hasSuffix("\"evil\\x22 200 1 \\x22x\\x5C \\xC3\\xA9\" 0.000214\n"))
        let json = line(record(userAgent: "a\"b\\c é"), .json)
        #expect(json.contains("\"user_agent\":\"a\\\"b\\\\c é\""))
        // The parser lets no control byte through to a request; the escaping does not count on it.
        let control: [UInt8] = Array("a\u{1}\n\u{7F}b".utf8)
        var quoted: [UInt8] = []
        control.withUnsafeBufferPointer { quoted.appendQuoted($0) }
        #expect(String(decoding: quoted, as: UTF8.self) == "a\\x01\\x0A\\x7Fb")
        var escaped: [UInt8] = []
        control.withUnsafeBufferPointer { escaped.appendJSONEscaped($0) }
        #expect(String(decoding: escaped, as: UTF8.self) == "a\\u0001\\u000A\\u007Fb")
        // Bytes that are not UTF-8 cannot make a JSON line invalid.
        var invalid: [UInt8] = []
        [UInt8(0x61), 0xFF, 0x62].withUnsafeBufferPointer { invalid.appendJSONEscaped($0) }
        #expect(String(decoding: invalid, as: UTF8.self) == "a\u{FFFD}b")
    }

    @Test("json: one object a line; facts the server does not have are null")
    func jsonLine() {
        #expect(line(record(), .json)
            == "{\"time\":\"2026-11-29T16:40:17Z\",\"peer\":\"127.0.0.1:54321\",\"method\":\"GET\",\"target\":\"/indicator?pages=5\","
            + "\"version\":\"HTTP/1.1\",\"status\":200,\"bytes\":312,\"seconds\":0.000214,\"referer\":null,"
            + "\"user_agent\":\"curl/7.88.1\",\"problem\":null}\n")
        let refusal = line(record(method: "", target: "", status: 505, problem: "HTTP version not supported"), .json)
        #expect(refusal.contains("\"method\":null,\"target\":null,\"version\":null,\"status\":505"))
        #expect(refusal.hasSuffix("\"referer\":null,\"user_agent\":null,\"problem\":\"HTTP version not supported\"}\n"))
    }

    @Test("Seconds are plain decimals to the microsecond", arguments: [
        (0.000214, "0.000214"), (12.5, "12.5"), (3, "3"), (0, "0"), (1e-9, "0"), (2.0000005, "2.000001"), (0.1, "0.1"), (-1, "0"),
    ])
    func seconds(value: Double, text: String) {
        var bytes: [UInt8] = []
        bytes.appendSeconds(value)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }

    @Test("Time texts are made for a second, in UTC, and remade for another")
    func timeTexts() {
        var time = LogTime(second: fixedTime.tv_sec)
        #expect(String(decoding: time.common, as: UTF8.self) == "29/Nov/2026:16:40:17 +0000")
        #expect(String(decoding: time.iso8601, as: UTF8.self) == "2026-11-29T16:40:17Z")
        time.update(to: 0)
        #expect(String(decoding: time.common, as: UTF8.self) == "01/Jan/1970:00:00:00 +0000")
        #expect(String(decoding: time.iso8601, as: UTF8.self) == "1970-01-01T00:00:00Z")
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
        let now = Locked(fixedTime)
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
        let dropped = DropCount()
        let output = LogOutput(descriptor: errors.writeEnd, lanes: 1, maxLaneBytes: 10, wakeBytes: 100, lineDropped: dropped.add)
        for _ in 0..<5 { output.append(lane: 0, second: 0) { line, _ in line.appendText("abcd\n") } }
        #expect(dropped.value == 3)
        #expect(output.flush())
        #expect(errors.lines() == ["abcd", "abcd", "pagedots: 3 log lines dropped: the log output did not keep up"])
    }

    @Test("A full disk loses no line it took: lines wait, those beyond the bound are counted, and all is written when it recovers")
    func fullDiskRecovers() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        // The output's descriptor is /dev/full for now (every write fails with ENOSPC), a pipe later.
        let descriptor = dup(full)
        defer { close(descriptor) }
        let dropped = DropCount()
        let output = LogOutput(descriptor: descriptor, lanes: 2, maxLaneBytes: 12, wakeBytes: 100, lineDropped: dropped.add)
        for index in 0..<4 { output.append(lane: index % 2, second: 0) { line, _ in line.appendText("line \(index)\n") } }
        // The writer took lane 0's lines and could not write them; lane 1 waits its turn.
        #expect(!output.flush())
        for index in 4..<8 { output.append(lane: index % 2, second: 0) { line, _ in line.appendText("line \(index)\n") } }
        #expect(!output.flush())
        // Lane 0 had room again (its lines wait with the writer), lane 1 was full.
        #expect(dropped.value == 2)
        let recovered = LogPipe()
        dup2(recovered.writeEnd, descriptor)
        #expect(output.flush())
        #expect(recovered.lines() == [
            "line 0", "line 2", "line 4", "line 6",
            "line 1", "line 3", "pagedots: 2 log lines dropped: the log output did not keep up",
        ])
    }

    @Test("What a write could not take is written by the next flush, first: lines are never torn")
    func partialWrites() {
        let pipe = LogPipe()
        _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) | O_NONBLOCK)
        let output = LogOutput(descriptor: pipe.writeEnd, lanes: 1, maxLaneBytes: 1 << 20, wakeBytes: 1 << 20)
        let sent = (0..<100).map { "\($0) " + String(repeating: "x", count: 1000) + "\n" }
        for text in sent { output.append(lane: 0, second: 0) { line, _ in line.appendText(text) } }
        // 100 KB for a 64 KiB pipe that nobody has read: the first flush cannot finish.
        var received = ""
        var flushes = 1
        while !output.flush() {
            flushes += 1
            received += pipe.text()
        }
        received += pipe.text()
        #expect(flushes > 1)
        #expect(received == sent.joined())
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

    @Test("Two loops under load, a log reader that reads nothing until every response is out: all are answered, and each has one whole line")
    func stalledReaderStallsNoResponse() async throws {
        let ends = try closeOnExecPipe()
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        var configuration = ServiceConfiguration()
        configuration.server.port = 0
        configuration.server.eventLoops = 2
        configuration.renderThreads = 1
        let service = PagedotsService(configuration: configuration)
        let dropped = DropCount()
        let log = AccessLog(format: .combined, loops: 2, accessDescriptor: writeEnd, lineDropped: dropped.add)
        #expect(log.startWriting())
        let server = HTTPServer(configuration: configuration.server, handler: service, observer: ObserverGroup([service.observer, log]))
        try server.start()
        // 4,000 lines of ~100 bytes: six times what the pipe holds, so the log
        // writer is stuck in `write` long before the last response.
        let (clients, batches, batch) = (4, 10, 100)
        let port = server.port
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    let client = try HTTPTestClient(port: port)
                    var ok = 0
                    for _ in 0..<batches {
                        client.send(String(repeating: "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n", count: batch))
                        for _ in 0..<batch {
                            if try client.readResponse().status == 200 { ok += 1 }
                        }
                    }
                    return ok
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answered == clients * batches * batch)
        // Now a reader; the server stops; the log writes its last lines.
        let reader = PipeReader(readEnd)
        server.shutdown()
        server.wait()
        #expect(log.finish(within: 60))
        close(writeEnd)
        expectHealthzLines(reader.waitForEnd(), count: answered)
        #expect(dropped.value == 0)
    }

    @Test("SIGTERM: the process writes a line for every response before it exits, though nothing read its output meanwhile")
    func everyLineAtSIGTERM() throws {
        let server = try ServerProcess(["--threads", "2"], capturesStandardOutput: true)
        let (clients, batches, batch) = (4, 5, 100)
        for _ in 0..<clients {
            let client = try HTTPTestClient(port: server.port)
            for _ in 0..<batches {
                client.send(String(repeating: "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n", count: batch))
                for _ in 0..<batch { #expect(try client.readResponse().status == 200) }
            }
        }
        server.sendStopSignal()
        let output = server.readStandardOutput()
        #expect(server.stop() == 0)
        expectHealthzLines(output, count: clients * batches * batch)
    }
}

/// Reads a pipe on a thread of its own until its write end is closed.
private final class PipeReader: Sendable {
    private let bytes = Locked<[UInt8]>([])
    private let done = Semaphore()

    init(_ descriptor: Int32) {
        let started = DetachedThread.start { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { $0 += chunk[..<count] }
            }
            done.signal()
        }
        precondition(started, "cannot start a reader thread")
    }

    /// Everything read, once the pipe has ended.
    func waitForEnd() -> [UInt8] {
        done.wait()
        return bytes.withLock { $0 }
    }
}
