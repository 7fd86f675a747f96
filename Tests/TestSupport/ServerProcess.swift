import Foundation

/// The real `pagedots` binary, started for a test on a free loopback port
/// and stopped by the test (or, at the latest, by `timeout` after two minutes).
public final class ServerProcess: @unchecked Sendable {
    public let port: Int
    private let pid: pid_t
    private let errorOutput: Int32
    /// The read end of standard output, when the test asked for it.
    private let standardOutput: Int32?
    private var exitStatus: Int32?

    /// The `pagedots` executable built next to the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("pagedots")
    }

    /// Starts `pagedots serve --port 0 arguments…` with `environment` only
    /// (and the sanitizers' settings from the tests' own environment, so
    /// that `scripts/sanitizers` treats the server as it treats the tests),
    /// and waits for its "listening on" line, which names the port. Standard output
    /// goes to a pipe that the test reads with `readStandardOutput` when
    /// `capturesStandardOutput`, else to /dev/null.
    public init(_ arguments: [String] = [], environment: [String: String] = [:], capturesStandardOutput: Bool = false) throws {
        let pipe = try closeOnExecPipe()
        let outputPipe = capturesStandardOutput ? try closeOnExecPipe() : [-1, -1]
        let command = ["/usr/bin/timeout", "120", Self.executable.path, "serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        let sanitizerSettings = ProcessInfo.processInfo.environment.filter {
            ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
        }
        let variables = environment.merging(sanitizerSettings) { given, _ in given }
        pid = try Self.spawn(
            command, environment: variables.map { "\($0.key)=\($0.value)" },
            standardOutput: capturesStandardOutput ? outputPipe[1] : nil, standardError: pipe[1]
        )
        close(pipe[1])
        errorOutput = pipe[0]
        if capturesStandardOutput { close(outputPipe[1]) }
        standardOutput = capturesStandardOutput ? outputPipe[0] : nil
        var output: [UInt8] = []
        var byte: UInt8 = 0
        while output.last != 10, read(errorOutput, &byte, 1) == 1 { output.append(byte) }
        let line = String(decoding: output, as: UTF8.self)
        guard let range = line.range(of: "http://127.0.0.1:"),
              let port = Int(line[range.upperBound...].prefix { $0.isNumber }) else {
            kill(pid, SIGKILL)
            throw ServerProcessError(message: "pagedots did not start: \(line)")
        }
        self.port = port
    }

    /// Sends SIGTERM without waiting for the process to end.
    public func sendStopSignal() {
        sendSignal(SIGTERM)
    }

    /// Sends `signal` (SIGHUP: read the presets again) to the server itself
    /// without waiting. (Not through `timeout`, which passes a signal on only
    /// once and ignores it after.)
    public func sendSignal(_ signal: Int32) {
        guard exitStatus == nil else { return }
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        guard let server = children.split(separator: " ").first.flatMap({ pid_t($0) }) else { return }
        kill(server, signal)
    }

    /// The next line the server writes to standard error, without its newline,
    /// waiting for it; nil when the server closes standard error first.
    public func readErrorLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(errorOutput, &byte, 1) == 1 {
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// Reads standard output (when captured) until the process closes it:
    /// read after `sendStopSignal`, it ends when the process has ended.
    public func readStandardOutput() -> [UInt8] {
        guard let standardOutput else { return [] }
        return Self.readToEnd(standardOutput)
    }

    /// Sends SIGTERM (the way Docker stops a container) and returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if let exitStatus { return exitStatus }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
    }

    /// What the server wrote to standard error after its first line (read after `stop`).
    public func remainingErrorOutput() -> String {
        String(decoding: Self.readToEnd(errorOutput), as: UTF8.self)
    }

    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(errorOutput)
        if let standardOutput { close(standardOutput) }
    }

    /// posix_spawn with default signal dispositions and an empty signal mask
    /// (a test runner's threads block signals, and a child would inherit that).
    private static func spawn(_ command: [String], environment: [String], standardOutput: Int32?, standardError: Int32) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard status == 0 else { throw ServerProcessError(message: "cannot start \(command[0]): error \(status)") }
        return pid
    }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A pipe, read end first, whose ends are closed on exec, so that a server
/// another test starts meanwhile does not hold them open (the dup2 of an end
/// to a child's standard output or error clears the flag there).
public func closeOnExecPipe() throws -> [Int32] {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw ServerProcessError(message: "pipe failed: errno \(errno)") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return ends
}
