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
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
}

/// Writes every byte to a file descriptor; false if it could not.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}
