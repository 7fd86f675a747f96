#if canImport(Glibc)
import Glibc
#endif

/// Files a test run leaves for people and other tools to look at (pngcheck,
/// Pillow, an image viewer), under `.build/test-output/PagedotsPNGTests/`:
/// git ignores it, and SwiftPM does not take it for unhandled sources.
enum TestOutput {
    static let directory: String = {
        // …/Tests/PagedotsPNGTests/TestOutput.swift → the package root.
        let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        return root + "/.build/test-output/PagedotsPNGTests"
    }()

    /// Writes `bytes` to `directory/name`; true when it was written.
    @discardableResult
    static func write(_ bytes: [UInt8], named name: String) -> Bool {
        mkdir(String(directory.dropLast("/PagedotsPNGTests".count)), 0o755)
        mkdir(directory, 0o755)
        guard let file = fopen(directory + "/" + name, "wb") else { return false }
        defer { fclose(file) }
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }
}
