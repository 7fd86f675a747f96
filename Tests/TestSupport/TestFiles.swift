#if canImport(Glibc)
import Glibc
#endif

/// The bytes of the file at `path`, or nil when it cannot be opened.
public func readFileBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return bytes
}

/// The folder that holds the source file `filePath` (pass `#filePath`), to
/// find the files kept next to a test in the source tree.
public func sourceFolder(of filePath: String) -> String {
    String(filePath[..<(filePath.lastIndex(of: "/") ?? filePath.endIndex)])
}
