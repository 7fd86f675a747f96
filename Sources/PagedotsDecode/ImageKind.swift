/// The image formats an upload may be in, told by their first bytes (not by
/// a file name or a declared media type, which clients get wrong).
public enum ImageKind: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic, avif

    /// The kind whose signature `bytes` start with, or nil.
    ///
    /// WebP is a RIFF file of form `WEBP`. HEIC and AVIF are ISO base media
    /// files (HEIF) told apart by the brands of their leading `ftyp` box:
    /// the major brand, then the compatible brands in order, the first that
    /// names a kind deciding (`heic`, `heix`, `hevc`, `hevx`, `heim`, `heis`
    /// for HEIC; `avif`, `avis` for AVIF), so that a file whose major brand
    /// is the generic `mif1` or `msf1` is known by the brands it lists.
    public init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && zip(bytes[offset...], signature).allSatisfy { $0 == $1 }
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(with: Array("RIFF".utf8)), starts(with: Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(with: Array("ftyp".utf8), at: 4), let kind = Self.heifKind(brandsIn: bytes) {
            self = kind
        } else {
            return nil
        }
    }

    /// HEIC or AVIF by the `ftyp` box at the start of `bytes` (its size, then
    /// `ftyp`, the major brand, a minor version and the compatible brands),
    /// read no further than the box or the bytes end.
    private static func heifKind(brandsIn bytes: UnsafeRawBufferPointer) -> ImageKind? {
        let boxSize = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let end = min(boxSize, bytes.count)
        guard end >= 12 else { return nil }
        let compatible = stride(from: 16, to: end - 3, by: 4)
        for offset in [8] + compatible {
            switch String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) {
            case "heic", "heix", "hevc", "hevx", "heim", "heis": return .heic
            case "avif", "avis": return .avif
            default: continue
            }
        }
        return nil
    }

    /// `PNG`, `JPEG`, `GIF`, `WebP`, `HEIC`, `AVIF`: as messages name it.
    public var name: String {
        switch self {
        case .webp: "WebP"
        default: rawValue.uppercased()
        }
    }

    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp`, `image/heic`,
    /// `image/avif`: for an upload form's `accept` and an API's description.
    public var mediaType: String { "image/" + rawValue }

    /// Every kind's media type, as an `Accept` header or a form's `accept` lists them.
    public static let acceptHeader = allCases.map(\.mediaType).joined(separator: ",")

    /// Every kind's name, as a message lists them: `PNG, JPEG, GIF, WebP, HEIC or AVIF`.
    public static let allNames: String = {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }()
}
