#if canImport(Glibc)
import Glibc
#endif

/// Files a test run leaves for people and other tools to look at (pngcheck,
/// Pillow, an image viewer), under `Tests/PagedotsPNGTests/Output/`, which git ignores.
enum TestOutput {
    static let directory: String = {
        let file = #filePath
        let folder = file[..<(file.lastIndex(of: "/") ?? file.endIndex)]
        return folder + "/Output"
    }()

    /// Writes `bytes` to `Output/name`; true when it was written.
    @discardableResult
    static func write(_ bytes: [UInt8], named name: String) -> Bool {
        mkdir(directory, 0o755)
        guard let file = fopen(directory + "/" + name, "wb") else { return false }
        defer { fclose(file) }
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }
}
