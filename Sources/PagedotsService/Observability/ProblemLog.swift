import Locking

/// Lines about problems the service meets away from a request's answer (a
/// URL slide's source that failed: its host and what happened, never its
/// path or query), written to the error log once one is attached
/// (`pagedots serve` attaches its `AccessLog`, which rate-limits them);
/// dropped before that, and in the other subcommands, which say what
/// failed themselves.
final class ProblemLog: Sendable {
    private let sink = Locked<(@Sendable (String) -> Void)?>(nil)

    init() {}

    /// From now on, lines go to `write`.
    func attach(_ write: @escaping @Sendable (String) -> Void) {
        sink.withLock { $0 = write }
    }

    /// Logs `line` (without `pagedots: ` and the time, which the log adds).
    func write(_ line: String) {
        sink.withLock { $0 }?(line)
    }
}
