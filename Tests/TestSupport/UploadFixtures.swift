/// The small image files under `Tests/Fixtures/uploads` (made on purpose by
/// its `make-fixtures.py`): good, broken and oversized PNG, JPEG and GIF
/// files, and Pillow's reading of the good ones as `NAME.expected.png`.
public enum UploadFixtures {
    public static let folder = sourceFolder(of: #filePath) + "/../Fixtures/uploads"

    /// The bytes of fixture `name`; empty when it is missing (the test then fails on them).
    public static func bytes(_ name: String) -> [UInt8] {
        readFileBytes(folder + "/" + name) ?? []
    }

    /// The path of fixture `name`, for a tool that reads files.
    public static func path(_ name: String) -> String {
        folder + "/" + name
    }
}
