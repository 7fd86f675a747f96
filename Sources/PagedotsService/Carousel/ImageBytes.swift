import Glibc
import HTTPServer

/// Where one image's bytes are, without copying them: part of a request
/// body in memory, part of a temporary file (`SpooledFile`), or bytes of
/// their own (a file read by `pagedots carousel`, a fetched source).
enum ImageBytes: Sendable {
    case body(HTTPRequestBody, Range<Int>)
    case spooled(SpooledFile, Range<Int>)
    case memory(SharedBytes)

    /// How many bytes there are.
    var count: Int {
        switch self {
        case .body(_, let range), .spooled(_, let range): range.count
        case .memory(let bytes): bytes.bytes.count
        }
    }

    /// Runs `body` with the bytes and an object that keeps them where they
    /// are for as long as it lives (a `GIFFramePlayer` holds it); nil when
    /// spooled bytes cannot be read back from their file.
    func withBytes<Result, Failure>(
        _ body: (UnsafeRawBufferPointer, AnyObject) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let holder: SharedBytes
        switch self {
        case .body(let requestBody, let range):
            return try requestBody.withUnsafeBytes { (bytes) throws(Failure) in
                try body(UnsafeRawBufferPointer(rebasing: bytes[range]), requestBody)
            }
        case .spooled(let file, let range):
            guard let read = file.read(range) else { return nil }
            holder = SharedBytes(read)
        case .memory(let bytes):
            holder = bytes
        }
        return try holder.bytes.withUnsafeBytes { bytes in Swift.Result { () throws(Failure) in try body(bytes, holder) } }.get()
    }
}

/// Bytes that several holders share, never changed: a class, so that one
/// copy serves every reader, and an owner to keep alive.
final class SharedBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// Bytes moved to an unlinked temporary file (`openTemporaryFile`), so that
/// their memory is let go of; each image is read back, alone, when it is
/// decoded.
final class SpooledFile: Sendable {
    private let descriptor: Int32

    /// `bytes` written to a temporary file; nil when none can be made or written.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let descriptor = openTemporaryFile(prefix: "pagedots-spool") else { return nil }
        guard writeAll(bytes, to: descriptor) else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The bytes at `range`; nil if they cannot be read.
    func read(_ range: Range<Int>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: range.count)
        return bytes.withUnsafeMutableBytes { readAll(into: $0, from: descriptor, at: range.lowerBound) } ? bytes : nil
    }
}
