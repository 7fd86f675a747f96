import Glibc

/// Writes text to standard output, unbuffered.
func writeOut(_ text: String) {
    writeAll(Array(text.utf8), to: STDOUT_FILENO)
}

/// Writes text to standard error, unbuffered.
func writeError(_ text: String) {
    writeAll(Array(text.utf8), to: STDERR_FILENO)
}

/// Writes every byte to a file descriptor; false if it could not.
@discardableResult
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}
