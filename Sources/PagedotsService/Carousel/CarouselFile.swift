import Glibc
import HTTPServer

/// A carousel's file as the encoder writes it: the bytes go to an unlinked
/// temporary file (in `TMPDIR`, else `/tmp`) as they are made, their length
/// and SHA-256 taken as they pass, so that a carousel at the limits (a GIF
/// of about 64 MB) is never held whole in memory; the answer is then sent
/// from the file as the client reads it. Where no temporary file can be
/// made or written (a read-only or full file system), the bytes are held in
/// memory instead: the same bytes either way. (Only a temporary file that
/// cannot be read back loses them.)
final class CarouselFile {
    /// The `Content-Type` of the carousel's format.
    let contentType: String
    /// The temporary file, or nil while the bytes are held in `memory`.
    private var descriptor: Int32?
    private var memory: [UInt8] = []
    private let checksum = Digest.SHA256()
    /// The bytes written.
    private(set) var count = 0
    /// The temporary file failed and its bytes could not be read back.
    private var lost = false

    init(contentType: String) {
        self.contentType = contentType
        descriptor = Self.temporaryFile()
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Appends the next bytes of the file.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !lost else { return }
        checksum.update(bytes)
        count += bytes.count
        if let descriptor {
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    // The bytes so far come back into memory, and the rest join them there.
                    holdInMemory(writtenBefore: count - bytes.count + offset)
                    if !lost { memory.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
                    return
                }
                offset += written
            }
        } else {
            memory.append(contentsOf: bytes)
        }
    }

    /// The `200` of the finished file: its bytes, with `headers` and a
    /// strong `ETag` (their digest) first. The file is the response's to
    /// send: nothing may be written after. Throws `overloaded` when the
    /// bytes were lost.
    func response(headers: [HTTPHeaderField], label: Int) throws(ServiceError) -> HTTPResponse {
        guard !lost else { throw .overloaded }
        let headers = [HTTPHeaderField("ETag", Digest.entityTag(sha256: checksum.finish()))] + headers
        guard let descriptor else { return HTTPResponse(status: 200, headers: headers, body: memory, label: label) }
        self.descriptor = nil
        return HTTPResponse(status: 200, headers: headers, bodyFile: HTTPBodyFile(descriptor: descriptor, count: count), label: label)
    }

    /// Copies the finished file to `output`; false if it could not.
    func copy(to output: Int32) -> Bool {
        guard !lost else { return false }
        guard let descriptor else { return writeAll(memory, to: output) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < count {
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, min($0.count, count - offset), off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0, writeAll(Array(chunk[..<read]), to: output) else { return false }
            offset += read
        }
        return true
    }

    /// Moves the first `written` bytes from the temporary file into memory,
    /// and writes to memory from now on.
    private func holdInMemory(writtenBefore written: Int) {
        guard let descriptor else { return }
        memory = [UInt8](repeating: 0, count: written)
        var offset = 0
        while offset < written {
            let read = memory.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + offset, written - offset, off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                lost = true
                memory = []
                break
            }
            offset += read
        }
        close(descriptor)
        self.descriptor = nil
    }

    /// An open, already unlinked, temporary file; nil when none can be made.
    private static func temporaryFile() -> Int32? {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/pagedots-carousel-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
