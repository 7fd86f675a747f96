/// The pieces of a log line, appended straight to the bytes of a line
/// buffer: no `String` is built, and nothing is allocated while the buffer
/// has room (as nginx writes its log lines into a preallocated buffer).
extension [UInt8] {
    /// Appends fixed text.
    mutating func appendText(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes as they are.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends a whole number in decimal, with leading zeros up to
    /// `minimumDigits`: `312`, `-1`, `000214`.
    mutating func appendDecimal(_ value: Int, minimumDigits: Int = 1) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits = 1
        var scale: UInt = 10
        while digits < 20, rest >= scale {
            digits += 1
            scale = scale.multipliedReportingOverflow(by: 10).partialValue
        }
        digits = Swift.max(digits, minimumDigits)
        // Digits written in place from the right: no slice, no copy.
        for _ in 0..<digits { append(UInt8(ascii: "0")) }
        var index = count - 1
        while rest > 0 {
            self[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Appends a number below 100 as two digits: `07`.
    mutating func appendTwoDigits(_ value: Int32) {
        append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10 % 10))
        append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }

    /// Appends seconds to the microsecond, without exponent or trailing
    /// zeros: `0.000214`, `12.5`, `3`.
    mutating func appendSeconds(_ seconds: Double) {
        let micros = Int((Swift.min(Swift.max(0, seconds), 1e12) * 1e6).rounded())
        appendDecimal(micros / 1_000_000)
        var fraction = micros % 1_000_000
        guard fraction > 0 else { return }
        append(UInt8(ascii: "."))
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        appendDecimal(fraction, minimumDigits: digits)
    }

    /// Appends bytes for a quoted field of the combined format: `"`, `\`,
    /// control bytes and non-ASCII bytes as `\xHH` (as nginx does), so that a
    /// client cannot end the field or the line.
    mutating func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        func needsEscape(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }
        guard bytes.contains(where: needsEscape) else { return append(contentsOf: bytes) }
        for byte in bytes {
            if needsEscape(byte) {
                appendText("\\x")
                appendHex(byte)
            } else {
                append(byte)
            }
        }
    }

    /// `appendQuoted` for a string's bytes.
    mutating func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { appendQuoted($0) }
    }

    /// Appends a JSON string's content (RFC 8259 §7): `"` and `\` escaped,
    /// control characters as `\u00HH`; bytes that are not UTF-8 become U+FFFD.
    mutating func appendJSONEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            // Rare (a header with non-ASCII bytes): made valid UTF-8 first.
            var text = String(decoding: bytes, as: UTF8.self)
            return text.withUTF8 { appendJSONEscapedUTF8($0) }
        }
        appendJSONEscapedUTF8(bytes)
    }

    /// `appendJSONEscaped` for a string's bytes.
    mutating func appendJSONEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONEscapedUTF8($0) }
    }

    /// `appendJSONEscaped` for bytes known to be UTF-8.
    private mutating func appendJSONEscapedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) {
        func needsEscape(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }
        guard bytes.contains(where: needsEscape) else { return append(contentsOf: bytes) }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): appendText("\\\"")
            case UInt8(ascii: "\\"): appendText("\\\\")
            case _ where needsEscape(byte):
                appendText("\\u00")
                appendHex(byte)
            default: append(byte)
            }
        }
    }

    /// Appends a byte as two uppercase hexadecimal digits.
    private mutating func appendHex(_ byte: UInt8) {
        func digit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
        append(digit(byte >> 4))
        append(digit(byte & 0xF))
    }
}
