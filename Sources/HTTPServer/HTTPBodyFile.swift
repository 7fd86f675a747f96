#if canImport(Glibc)
import Glibc
#endif

/// A response body kept in an open file and read a piece at a time as the
/// client takes it, so that a large body is never held in memory whole (nor
/// more of it than a connection buffers for a client that reads slowly).
///
/// It owns its descriptor, which it closes when the last response holding
/// it lets go: an unlinked temporary file then disappears. Reads give the
/// offset, so that several responses can send one body at once.
public final class HTTPBodyFile: Sendable {
    private let descriptor: Int32
    /// The body's length: the file's first `count` bytes.
    public let count: Int

    /// A body of the first `count` bytes of the file open as `descriptor`
    /// (for reading), which it now owns.
    public init(descriptor: Int32, count: Int) {
        precondition(count >= 0, "a body file cannot hold \(count) bytes")
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        closeDescriptor(descriptor)
    }

    /// Reads the body's bytes from `offset` into `buffer` (no further than
    /// the body's end); returns how many, nil when the file could not be read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int? {
        let wanted = min(buffer.count, count - offset)
        guard wanted > 0 else { return 0 }
        let read = try? systemCall("pread") { pread(descriptor, buffer.baseAddress, wanted, off_t(offset)) }
        // A regular file never blocks; nil (EAGAIN) would mean it is none.
        guard let read, read > 0 else { return nil }
        return read
    }
}
