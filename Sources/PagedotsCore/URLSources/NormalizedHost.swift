/// A URL's host normalised as `SourceURL` describes: a lower-case domain of
/// ASCII labels, a dotted quad, or an IPv6 address in brackets.
struct NormalizedHost: Hashable {
    /// The host as a URL's text has it.
    let text: String
    /// The address of an IP-literal host.
    let address: IPAddress?

    /// The longest label and the longest host name, in bytes (RFC 1035).
    static let maximumLabelLength = 63, maximumLength = 253

    /// The host as written in a URL's authority (IPv6 literals in brackets).
    init(_ raw: ArraySlice<UInt8>) throws(SourceURLError) {
        if raw.first == UInt8(ascii: "[") {
            let literal = raw.dropFirst().dropLast()
            guard raw.last == UInt8(ascii: "]") else { throw .invalidIPv6 }
            guard !literal.contains(UInt8(ascii: "%")) else { throw .ipv6ZoneID }
            guard let value = IPAddress.parseIPv6(literal) else { throw .invalidIPv6 }
            address = .v6(value)
            text = "[\(IPAddress.v6(value))]"
            return
        }
        let labels = try Self.asciiLabels(raw)
        switch IPAddress.readIPv4Host(labels: labels.map { Array($0.utf8)[...] }) {
        case .address(let value):
            address = .v4(value)
            text = IPAddress.dottedQuad(value)
        case .invalid:
            throw .invalidIPv4
        case .notNumeric:
            address = nil
            text = labels.joined(separator: ".")
            guard text.utf8.count <= Self.maximumLength else { throw .hostTooLong }
        }
    }

    /// The labels of a registered name (or IPv4 number), percent-decoded,
    /// checked, lower-cased and converted to ASCII; one trailing dot dropped.
    static func asciiLabels(_ raw: ArraySlice<UInt8>) throws(SourceURLError) -> [String] {
        let decoded = try percentDecoded(raw)
        guard let name = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8InHost }
        for scalar in name.unicodeScalars {
            switch scalar {
            case "/", "\\": throw .encodedSlashInHost
            case "@": throw .userInformation
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": continue
            case _ where scalar.isASCII || scalar.properties.isWhitespace || scalar.properties.generalCategory == .control:
                throw .hostCharacter(scalar)
            default: continue
            }
        }
        // Split by scalars: a Prepend character (U+0D4E) and the dot after it are one Character.
        var labels = name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map(Substring.init)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard labels != [""] else { throw .emptyHost }
        guard !labels.contains(where: \.isEmpty) else { throw .emptyLabel }
        return try labels.map { label throws(SourceURLError) in try asciiLabel(label) }
    }

    /// Every `%XX` decoded (no `+` rule: that belongs to forms, not hosts).
    private static func percentDecoded(_ raw: ArraySlice<UInt8>) throws(SourceURLError) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "%") {
                guard let byte = URLEscapes.escapedByte(in: raw, at: index) else { throw .malformedEscape }
                bytes.append(byte)
                index += 3
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        return bytes
    }

    /// One label lower-cased; one with non-ASCII characters as an A-label.
    private static func asciiLabel(_ label: Substring) throws(SourceURLError) -> String {
        var scalars: [Unicode.Scalar] = []
        for scalar in label.unicodeScalars {
            if scalar.isASCII || scalar == "\u{DF}" || scalar == "\u{3C2}" {
                scalars.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) | 0x20) : scalar)
                continue
            }
            for mapped in scalar.properties.lowercaseMapping.unicodeScalars {
                guard mapped.isASCII || isIDNACharacter(mapped), !lowerCaseIsNewerThanIDNA2003(scalar, mapped) else {
                    throw .unsupportedIDNA(scalar)
                }
                scalars.append(mapped)
            }
        }
        let mapped = String(String.UnicodeScalarView(scalars))
        guard !scalars.allSatisfy(\.isASCII) else {
            guard mapped.utf8.count <= maximumLabelLength else { throw .labelTooLong }
            return mapped
        }
        if let first = scalars.first, [.nonspacingMark, .spacingMark].contains(first.properties.generalCategory) {
            throw .invalidIDNALabel
        }
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" { throw .invalidIDNALabel }
        // The standard library's own NFC (public, if underscored): the only NFC there is without Foundation.
        guard mapped._nfcCodeUnits.elementsEqual(mapped.utf8) else { throw .notNFC }
        guard scalars.count <= maximumLabelLength, let encoded = Punycode.encode(scalars),
              encoded.utf8.count + 4 <= maximumLabelLength
        else { throw .labelTooLong }
        return "xn--" + encoded
    }

    /// Whether `mapped` is the lower case of a character of Unicode 3.2 (the
    /// version of IDNA2003) that had none there (`Ӏ`, Georgian capitals `Ⴀ`…,
    /// `Ⅎ`, `Ↄ`): UTS 46 keeps such characters disallowed rather than map them.
    private static func lowerCaseIsNewerThanIDNA2003(_ scalar: Unicode.Scalar, _ mapped: Unicode.Scalar) -> Bool {
        guard mapped != scalar, let age = scalar.properties.age, let mappedAge = mapped.properties.age else { return false }
        return (age.major, age.minor) <= (3, 2) && (mappedAge.major, mappedAge.minor) > (3, 2)
    }

    /// Whether a lower-cased non-ASCII character may stand in a label: a
    /// letter, mark or decimal digit that NFKC case folding leaves alone.
    /// (`ß` and `ς` as written are kept before this, as UTS 46's
    /// nontransitional processing keeps them; `ẞ` lower-cased to `ß` is not,
    /// for UTS 46 maps it to `ss`.)
    private static func isIDNACharacter(_ scalar: Unicode.Scalar) -> Bool {
        let allowed: [Unicode.GeneralCategory] = [.lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber]
        return !scalar.properties.changesWhenNFKCCaseFolded && allowed.contains(scalar.properties.generalCategory)
    }
}
