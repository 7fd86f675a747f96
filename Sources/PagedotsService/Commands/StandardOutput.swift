import Glibc

/// Writes text to standard output, unbuffered.
func writeOut(_ text: String) {
    writeAll(Array(text.utf8), to: STDOUT_FILENO)
}

/// Writes text to standard error, unbuffered.
func writeError(_ text: String) {
    writeAll(Array(text.utf8), to: STDERR_FILENO)
}
