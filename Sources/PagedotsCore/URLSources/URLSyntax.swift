/// An absolute http(s) URL cut into its raw parts, its characters checked,
/// nothing normalised yet: what `SourceURL` and `SourcePrefix` start from.
struct URLSyntax {
    /// The scheme, from any case.
    let scheme: SourceURL.Scheme
    /// The host as written: a registered name or IPv4 number, or an IPv6
    /// literal with its brackets.
    let host: ArraySlice<UInt8>
    /// The digits after the host's `:`, if it has one (maybe none).
    let port: ArraySlice<UInt8>?
    /// From the first `/` or `?` after the authority to the end; maybe empty.
    let pathAndQuery: ArraySlice<UInt8>

    /// Refuses a backslash, a `#`, whitespace and control characters
    /// anywhere, a scheme other than http(s) or without `//`, and an `@` in
    /// the authority.
    init(_ text: some StringProtocol) throws(SourceURLError) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": throw .backslash
            case "#": throw .fragment
            case "!"..."~": continue
            case _ where scalar.isASCII || scalar.properties.generalCategory == .control || scalar.properties.isWhitespace:
                throw .whitespaceOrControl
            default: continue
            }
        }
        let bytes = Array(text.utf8)[...]
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              let scheme = SourceURL.Scheme(rawValue: String(asciiLowercased: bytes[..<colon])),
              bytes[(colon + 1)...].starts(with: "//".utf8)
        else { throw .notHTTP }
        self.scheme = scheme
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { throw .userInformation }
        let portPart: ArraySlice<UInt8>
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { throw .invalidIPv6 }
            host = authority[...close]
            portPart = authority[(close + 1)...]
        } else {
            let colon = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
            host = authority[..<colon]
            portPart = authority[colon...]
        }
        if portPart.isEmpty {
            port = nil
        } else if portPart.first == UInt8(ascii: ":") {
            port = portPart.dropFirst()
        } else {
            throw .invalidIPv6
        }
        pathAndQuery = bytes[authorityEnd...]
    }
}
