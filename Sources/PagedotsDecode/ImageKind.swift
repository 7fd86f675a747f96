/// The image formats an upload may be in, told by their first bytes (not by
/// a file name or a declared media type, which clients get wrong).
public enum ImageKind: String, Sendable, CaseIterable {
    case png, jpeg, gif

    /// The kind whose signature `bytes` start with, or nil.
    public init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(with signature: [UInt8]) -> Bool {
            bytes.count >= signature.count && zip(bytes, signature).allSatisfy { $0 == $1 }
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }

    /// `PNG`, `JPEG`, `GIF`: as messages name it.
    public var name: String { rawValue.uppercased() }
}
