import Glibc

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

/// Fills `buffer` with the file's bytes from `offset`; false if the file would not give them all.
func readAll(into buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int) -> Bool {
    var done = 0
    while done < buffer.count {
        let read = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
        if read < 0, errno == EINTR { continue }
        guard read > 0 else { return false }
        done += read
    }
    return true
}
