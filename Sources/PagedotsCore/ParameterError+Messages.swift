/// Every message is one line in one of three forms:
/// `<name>: must <what it allows>; got <what was sent>` (the value quoted as
/// sent, or a count for lists; `<name>: item <n> must …` about one item of a
/// list), `<name>: given more than once`, or `pages: required, <what it allows>` (`every: required with start, …`).
extension ParameterError {
    /// `<name>: must <requirement>; got <got>`, or `<name>: item <n> must …`
    /// about one item of a list.
    init(_ name: String, item: Int? = nil, must requirement: String, got: String) {
        let subject = item.map { "\(name): item \($0)" } ?? "\(name):"
        self.init(parameter: name, description: "\(subject) must \(requirement); got \(got)")
    }

    /// A known parameter that appears twice, even with the same value.
    static func givenTwice(_ name: ParameterName) -> ParameterError {
        ParameterError(parameter: name.rawValue, description: "\(name.rawValue): given more than once")
    }

    /// A required parameter that is absent (required because `other` is given, if named).
    static func missing(_ parameter: Parameter, with other: ParameterName? = nil) -> ParameterError {
        let condition = other.map { " with \($0.rawValue)" } ?? ""
        return ParameterError(
            parameter: parameter.name.rawValue,
            description: "\(parameter.name.rawValue): required\(condition), \(parameter.kind.phrase())"
        )
    }

    /// A value as sent, in double quotes, kept on one line: control and
    /// line-separator characters are written `%XX`, and so is every byte
    /// outside printable ASCII when the value is not UTF-8.
    static func quoted(_ raw: some Collection<UInt8>) -> String {
        var text = "\""
        if let valid = String(validating: raw, as: UTF8.self) {
            for scalar in valid.unicodeScalars {
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    String(scalar).utf8.forEach { appendEscaped($0, to: &text) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        } else {
            for byte in raw {
                if (0x20...0x7E).contains(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    appendEscaped(byte, to: &text)
                }
            }
        }
        return text + "\""
    }

    private static func appendEscaped(_ byte: UInt8, to text: inout String) {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        text.unicodeScalars.append(contentsOf: ["%", digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
