#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end, with what it wrote to standard output and
/// standard error together (for checks by other tools, e.g. pngcheck).
public struct ExternalCommand: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public var status: Int32
    public var output: String

    /// Runs `arguments` (the program looked up on the PATH), its standard
    /// input empty; nil when the program cannot be started.
    public static func run(_ arguments: [String]) -> ExternalCommand? {
        // Close-on-exec, so that a server another test starts meanwhile does not hold its write end open.
        guard !arguments.isEmpty, let pipe = try? closeOnExecPipe() else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ExternalCommand(status: code, output: String(decoding: output, as: UTF8.self))
    }
}
