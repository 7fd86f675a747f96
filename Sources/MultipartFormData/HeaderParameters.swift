/// A header value of the form `token *( OWS ";" OWS name "=" value )`
/// (RFC 9110 §5.6.6), as `Content-Type` and `Content-Disposition` are
/// written: the leading token (or `type/subtype`) lowercased, and the
/// parameters, names lowercased, values unquoted (a token, or a
/// quoted-string with its `\` escapes removed).
struct HeaderParameters {
    /// The value before the first `;`, lowercased.
    var leading: String
    /// In the order sent; a name given twice makes the value invalid.
    var parameters: [(name: String, value: [UInt8])]

    /// Parses `value` (already trimmed); nil when it breaks the grammar, or
    /// when a parameter name repeats. `slashed`: the leading part must be
    /// `token "/" token` (a media type), else one token.
    init?(_ value: ArraySlice<UInt8>, slashed: Bool) {
        var reader = Reader(bytes: value)
        guard let first = reader.token() else { return nil }
        var leading = first
        if slashed {
            guard reader.take(0x2F), let subtype = reader.token() else { return nil }
            leading += [0x2F] + subtype
        }
        self.leading = ByteClass.lowercased(leading)
        parameters = []
        while true {
            reader.skipBlanks()
            if reader.atEnd { break }
            guard reader.take(0x3B) else { return nil }
            reader.skipBlanks()
            // A trailing ";" is tolerated, as browsers and curl never send one but mail tools do.
            if reader.atEnd { break }
            guard let name = reader.token(), reader.take(0x3D) else { return nil }
            let value: [UInt8]
            if reader.peek == ByteClass.quote {
                guard let quoted = reader.quotedString() else { return nil }
                value = quoted
            } else {
                guard let token = reader.token() else { return nil }
                value = token
            }
            let lowered = ByteClass.lowercased(name)
            guard !parameters.contains(where: { $0.name == lowered }) else { return nil }
            parameters.append((lowered, value))
        }
    }

    /// The value of parameter `name` (lowercase), if given.
    func value(of name: String) -> [UInt8]? {
        parameters.first { $0.name == name }?.value
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var atEnd: Bool { bytes.isEmpty }
        var peek: UInt8? { bytes.first }

        mutating func take(_ byte: UInt8) -> Bool {
            guard bytes.first == byte else { return false }
            bytes.removeFirst()
            return true
        }

        mutating func skipBlanks() {
            while let byte = bytes.first, ByteClass.isBlank(byte) { bytes.removeFirst() }
        }

        mutating func token() -> [UInt8]? {
            let token = bytes.prefix(while: ByteClass.isToken)
            guard !token.isEmpty else { return nil }
            bytes.removeFirst(token.count)
            return Array(token)
        }

        /// RFC 9110 §5.6.4: DQUOTE *( qdtext / quoted-pair ) DQUOTE.
        mutating func quotedString() -> [UInt8]? {
            guard take(ByteClass.quote) else { return nil }
            var value: [UInt8] = []
            while let byte = bytes.popFirst() {
                switch byte {
                case ByteClass.quote:
                    return value
                case ByteClass.backslash:
                    guard let escaped = bytes.popFirst(), ByteClass.isFieldText(escaped) else { return nil }
                    value.append(escaped)
                default:
                    guard ByteClass.isFieldText(byte) else { return nil }
                    value.append(byte)
                }
            }
            return nil
        }
    }
}
