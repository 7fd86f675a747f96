import Foundation

/// The real `pagedots` binary, started for a test on a free loopback port
/// and stopped by the test (or, at the latest, by `timeout` after two minutes).
public final class ServerProcess: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let errorPipe: Pipe

    /// The `pagedots` executable built next to the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("pagedots")
    }

    /// Starts `pagedots serve --port 0 arguments…` and waits for its
    /// "listening on" line, which names the port.
    public init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", Self.executable.path, "serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        process.environment = environment
        errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var output = ""
        while !output.contains("\n") {
            let chunk = errorPipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            output += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = output.range(of: "http://127.0.0.1:"),
              let port = Int(output[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw ServerProcessError(message: "pagedots did not start: \(output)")
        }
        self.port = port
    }

    /// Sends SIGTERM and returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server wrote to standard error after its first line (read after `stop`).
    public func remainingErrorOutput() -> String {
        String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
