/// Form decoding of query values, as browsers' `URLSearchParams` writes them:
/// `%XX` is the byte XX, `+` is a space; the result must be UTF-8.
enum PercentDecoding {
    /// Why a value cannot be decoded.
    enum Failure: Error {
        /// A `%` not followed by two hex digits.
        case malformedEscape
        /// The decoded bytes are not UTF-8.
        case invalidUTF8
    }

    /// The decoded bytes of `raw`; `raw` itself when it has nothing to decode
    /// (the usual case: no copy).
    static func decode(_ raw: ArraySlice<UInt8>) throws(Failure) -> ArraySlice<UInt8> {
        let percent = UInt8(ascii: "%"), plus = UInt8(ascii: "+")
        var decoded = raw
        if raw.contains(where: { $0 == percent || $0 == plus }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(raw.count)
            var index = raw.startIndex
            while index < raw.endIndex {
                switch raw[index] {
                case percent:
                    guard index + 2 < raw.endIndex,
                          let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2])
                    else { throw .malformedEscape }
                    bytes.append(high << 4 | low)
                    index += 3
                case plus:
                    bytes.append(UInt8(ascii: " "))
                    index += 1
                case let byte:
                    bytes.append(byte)
                    index += 1
                }
            }
            decoded = bytes[...]
        }
        if decoded.contains(where: { $0 >= 0x80 }), String(validating: decoded, as: UTF8.self) == nil {
            throw .invalidUTF8
        }
        return decoded
    }

    /// The value of an ASCII hex digit (either case), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    /// The ASCII bytes with `A`…`Z` lowered (other bytes kept; invalid UTF-8 repaired).
    init(asciiLowercased bytes: ArraySlice<UInt8>) {
        self.init(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }
}

extension Collection where Element: Equatable {
    /// Whether the collection ends with `suffix`.
    func hasSuffix(_ suffix: some Collection<Element>) -> Bool {
        count >= suffix.count && dropFirst(count - suffix.count).elementsEqual(suffix)
    }
}
