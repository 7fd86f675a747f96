/// Percent-escapes in URLs (RFC 3986 §2).
enum URLEscapes {
    /// The byte a `%XX` at `index` stands for; nil when two hex digits do not follow.
    static func escapedByte(in bytes: ArraySlice<UInt8>, at index: Int) -> UInt8? {
        guard index + 2 < bytes.endIndex,
              let high = PercentDecoding.hexValue(bytes[index + 1]), let low = PercentDecoding.hexValue(bytes[index + 2])
        else { return nil }
        return high << 4 | low
    }

    /// `A–Z a–z 0–9 - . _ ~`: the same whether escaped or not.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// What may stand unescaped in a path or query besides unreserved
    /// characters: sub-delims, `:`, `@`, `/`, `?`.
    static func isAllowedInPathOrQuery(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&")...UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "@"): true
        default: isUnreserved(byte)
        }
    }

    /// `%XX` with upper-case hex digits.
    static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
    }
}

extension SourceURL {
    /// The path (`/` if empty), its escapes normalised and its dot segments
    /// removed, then `?` and the query, its escapes normalised, if there is one.
    static func normalizedPathAndQuery(_ raw: ArraySlice<UInt8>) throws(SourceURLError) -> String {
        let questionMark = raw.firstIndex(of: UInt8(ascii: "?"))
        var result = removingDotSegments(try normalizedEscapes(raw[..<(questionMark ?? raw.endIndex)]))
        if let questionMark {
            result += [UInt8(ascii: "?")] + (try normalizedEscapes(raw[(questionMark + 1)...]))
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Escapes of unreserved characters decoded, the others' hex digits
    /// upper-case, and every byte RFC 3986 does not allow unescaped
    /// (non-ASCII ones included) escaped.
    private static func normalizedEscapes(_ raw: ArraySlice<UInt8>) throws(SourceURLError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard let decoded = URLEscapes.escapedByte(in: raw, at: index) else { throw .malformedEscape }
                if URLEscapes.isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    URLEscapes.appendEscape(of: decoded, to: &output)
                }
                index += 3
            } else {
                if URLEscapes.isAllowedInPathOrQuery(byte) {
                    output.append(byte)
                } else {
                    URLEscapes.appendEscape(of: byte, to: &output)
                }
                index += 1
            }
        }
        return output
    }

    /// RFC 3986 §5.2.4 on an absolute path: `.` segments dropped, `..` ones
    /// dropped with the segment before (none above the root), a trailing
    /// one leaving its `/`. An empty path is `/`.
    private static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let segments = path.dropFirst().split(separator: slash, omittingEmptySubsequences: false)
        var output: [ArraySlice<UInt8>] = []
        for (index, segment) in segments.enumerated() {
            let isParent = segment.elementsEqual("..".utf8)
            guard isParent || segment.elementsEqual(".".utf8) else {
                output.append(segment)
                continue
            }
            if isParent { _ = output.popLast() }
            if index == segments.count - 1 { output.append([]) }
        }
        return [slash] + Array(output.joined(separator: [slash]))
    }
}
