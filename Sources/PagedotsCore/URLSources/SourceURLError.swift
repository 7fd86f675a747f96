/// Why a text is not a URL a fetch may use. Its `description` is one line
/// that names no part of the URL (so it can go into a `403` line and a log
/// line without the URL's query), at most a character's code point.
public enum SourceURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not `http://…` or `https://…` (any case): another scheme, a relative
    /// URL, or a scheme not followed by `//`.
    case notHTTP
    /// A space, a tab, a line break or another control character, anywhere.
    case whitespaceOrControl
    /// A `\`, anywhere: browsers read it as `/`, curl does not.
    case backslash
    /// A `#`: a fragment is never sent, so a URL has none.
    case fragment
    /// An `@` in the authority, raw or percent-encoded (`user@host`,
    /// `https://cdn.example@evil.example/`, `cdn.example%40evil.example`).
    case userInformation
    /// No host (`https:///x`, `https://:443/`, `https://./`).
    case emptyHost
    /// A character no host name has (after percent-decoding); its code point.
    case hostCharacter(Unicode.Scalar)
    /// A percent-encoded `/` or `\` in the host.
    case encodedSlashInHost
    /// A `%` not followed by two hex digits.
    case malformedEscape
    /// The host's percent-encoded bytes are not UTF-8.
    case invalidUTF8InHost
    /// Two dots in a row in the host (or two at its end).
    case emptyLabel
    /// A host label longer than 63 bytes (as an A-label).
    case labelTooLong
    /// A host longer than 253 bytes.
    case hostTooLong
    /// A character the IDNA conversion here does not handle (see
    /// `SourceURL`); its code point.
    case unsupportedIDNA(Unicode.Scalar)
    /// A non-ASCII label that is not in Unicode Normalization Form C.
    case notNFC
    /// A non-ASCII label that IDNA forbids: starting with a combining mark,
    /// or with `--` as its third and fourth characters.
    case invalidIDNALabel
    /// A host that ends in a number (WHATWG's rule) but is no IPv4 address.
    case invalidIPv4
    /// A bracketed host that is no IPv6 address.
    case invalidIPv6
    /// An IPv6 zone id (`[fe80::1%25eth0]`).
    case ipv6ZoneID
    /// A port that is not 1…65535 in decimal digits.
    case badPort
    /// Longer than `SourceURL.maximumLength` bytes once normalised.
    case tooLong

    public var description: String {
        switch self {
        case .notHTTP: "not an absolute http:// or https:// URL"
        case .whitespaceOrControl: "the URL has a space or a control character"
        case .backslash: "the URL has a backslash (\\)"
        case .fragment: "the URL has a fragment (#)"
        case .userInformation: "the URL has user information (an @ before or in its host)"
        case .emptyHost: "the URL has no host"
        case .hostCharacter(let scalar) where scalar.properties.isWhitespace || scalar.properties.generalCategory == .control:
            "the URL's host has a percent-encoded space or control character (\(Self.codePoint(scalar)))"
        case .hostCharacter(let scalar): "the URL's host has a character host names do not have (\(Self.codePoint(scalar)))"
        case .encodedSlashInHost: "the URL's host has a percent-encoded slash"
        case .malformedEscape: "the URL has a % not followed by two hex digits"
        case .invalidUTF8InHost: "the URL's host has percent-encoded bytes that are not UTF-8"
        case .emptyLabel: "the URL's host has an empty label (two dots in a row)"
        case .labelTooLong: "the URL's host has a label longer than 63 bytes"
        case .hostTooLong: "the URL's host is longer than 253 bytes"
        case .unsupportedIDNA(let scalar):
            "the URL's host has a character pagedots does not convert to IDNA (\(Self.codePoint(scalar))); write the host as A-labels (xn--…)"
        case .notNFC: "the URL's host is not in Unicode normalization form C; write it as A-labels (xn--…)"
        case .invalidIDNALabel: "the URL's host has a label IDNA does not allow (a leading combining mark, or -- as 3rd and 4th characters)"
        case .invalidIPv4: "the URL's host ends in a number but is not an IPv4 address"
        case .invalidIPv6: "the URL's host is not a valid IPv6 address in brackets"
        case .ipv6ZoneID: "the URL's host has an IPv6 zone id (%)"
        case .badPort: "the URL's port is not a number from 1 to 65535"
        case .tooLong: "the URL is longer than \(SourceURL.maximumLength) bytes once normalised"
        }
    }

    /// `U+0041`.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
