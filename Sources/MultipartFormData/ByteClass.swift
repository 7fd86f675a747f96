/// The byte classes of RFC 9110 §5.6 and RFC 2046 §5.1.1 that the parser needs.
enum ByteClass {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let dash: UInt8 = 0x2D
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C

    /// RFC 9110 §5.6.2 `tchar`: visible ASCII but the delimiters.
    static func isToken(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
    }

    /// SP or HTAB.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// RFC 9110 §5.5: a byte of a field value — visible ASCII, obs-text
    /// (UTF-8 file names), SP and HTAB; no other control byte.
    static func isFieldText(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == 0x09
    }

    /// RFC 2046 §5.1.1 `bchars`: digits, letters, `'()+_,-./:=?` and space.
    static func isBoundary(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "'()+_,-./:=? ".utf8.contains(byte)
        }
    }

    /// `bytes` without leading and trailing SP and HTAB.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = bytes.firstIndex { !isBlank($0) } ?? bytes.endIndex
        let end = bytes.lastIndex { !isBlank($0) }.map { $0 + 1 } ?? start
        return bytes[start..<max(start, end)]
    }

    /// ASCII letters in lower case, other bytes as they are.
    static func lowercased(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
