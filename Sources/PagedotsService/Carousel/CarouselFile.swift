import Glibc
import HTTPServer

/// A carousel's file as the encoder writes it: the bytes go to an unlinked
/// temporary file (`openTemporaryFile`) as they are made, their length and
/// SHA-256 taken as they pass, so that a carousel at the limits (a GIF of
/// about 64 MB) is never held whole in memory; the answer is then sent
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

    /// A file for bytes of `contentType`, written to `spool` (a new
    /// temporary file by default; nil holds them in memory from the start).
    init(contentType: String, spool: Int32? = openTemporaryFile(prefix: "pagedots-carousel")) {
        self.contentType = contentType
        descriptor = spool
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Appends the next bytes of the file.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !lost else { return }
        checksum.update(bytes)
        let before = count
        count += bytes.count
        if let descriptor {
            guard !writeAll(bytes, to: descriptor) else { return }
            // The bytes so far come back into memory, and these join them there.
            memory = [UInt8](repeating: 0, count: before)
            lost = !memory.withUnsafeMutableBytes { readAll(into: $0, from: descriptor, at: 0) }
            close(descriptor)
            self.descriptor = nil
            guard !lost else {
                memory = []
                return
            }
        }
        memory.append(contentsOf: bytes)
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

    /// The finished file's bytes, read back into memory; nil if they could not be.
    func bytes() -> [UInt8]? {
        guard !lost else { return nil }
        guard let descriptor else { return memory }
        var bytes = [UInt8](repeating: 0, count: count)
        return bytes.withUnsafeMutableBytes { readAll(into: $0, from: descriptor, at: 0) } ? bytes : nil
    }

    /// Copies the finished file to `output`; false if it could not.
    func copy(to output: Int32) -> Bool {
        guard !lost else { return false }
        guard let descriptor else { return memory.withUnsafeBytes { writeAll($0, to: output) } }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < count {
            let length = min(chunk.count, count - offset)
            let copied = chunk.withUnsafeMutableBytes { chunk in
                let piece = UnsafeMutableRawBufferPointer(rebasing: chunk[..<length])
                return readAll(into: piece, from: descriptor, at: offset) && writeAll(UnsafeRawBufferPointer(piece), to: output)
            }
            guard copied else { return false }
            offset += length
        }
        return true
    }
}
