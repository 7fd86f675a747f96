import Glibc

/// A whole file's bytes, or nil when it cannot be read (`errno` says why)
/// or is larger than `limit`.
func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count <= limit {
        let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { return bytes }
        bytes += chunk[..<count]
    }
    errno = EFBIG
    return nil
}
