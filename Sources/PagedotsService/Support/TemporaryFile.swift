import Glibc

/// An open, already unlinked, temporary file for reading and writing, in
/// `TMPDIR` (else `/tmp`), named `prefix` and random letters while it is
/// made; nil when none can be made (e.g. a read-only file system).
func openTemporaryFile(prefix: String) -> Int32? {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(directory)/\(prefix)-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return nil }
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return descriptor
}
