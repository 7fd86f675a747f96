/// The byte classes of RFC 9110/9112 that the parser needs, as plain functions on bytes.
enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let comma: UInt8 = 0x2C
    static let slash: UInt8 = 0x2F
    static let question: UInt8 = 0x3F

    /// `tchar` (RFC 9110 §5.6.2): the characters of a method or field name.
    @inline(__always)
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x30...0x39, 0x41...0x5A, 0x5E...0x7A, 0x7C, 0x7E: true
        default: false
        }
    }

    /// A byte allowed in a request target: visible ASCII except `#` (a fragment
    /// is never sent). Stricter checks on the URI belong to the application.
    @inline(__always)
    static func isTargetChar(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte <= 0x7E && byte != 0x23
    }

    /// A byte of a `Host` value or an absolute-form authority: RFC 3986
    /// unreserved, sub-delims, `%` (pct-encoded), `:` and the `[]` of IP literals.
    @inline(__always)
    static func isAuthorityChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x24...0x2E, 0x30...0x3B, 0x3D, 0x41...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E: true
        default: false
        }
    }

    /// A byte allowed in a field value (RFC 9110 §5.5): visible ASCII,
    /// obs-text, space and tab — no other control characters, never NUL, CR or LF.
    @inline(__always)
    static func isFieldValueChar(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == tab
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// The value of a hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether two byte strings are equal, ASCII letters compared without case.
    static func equalsIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// As the generic one, for bytes in memory: a plain loop, as every
    /// request's field names are compared.
    static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where lowercased(a[index]) != lowercased(b[index]) { return false }
        return true
    }

    /// Whether `a` is `b`'s bytes, ASCII letters compared without case.
    static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        equalsIgnoringCase(a, bytes(of: b))
    }

    /// Whether `a` is exactly `b`'s bytes.
    static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        a.elementsEqual(bytes(of: b))
    }

    /// A literal's UTF-8 bytes, in place.
    @inline(__always)
    static func bytes(of text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// `bytes` without leading and trailing spaces and tabs (OWS).
    static func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
