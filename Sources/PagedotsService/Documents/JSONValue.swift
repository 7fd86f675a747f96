/// A JSON value whose objects keep their keys in the order written, for the
/// documents the service writes once at start-up (the OpenAPI document).
indirect enum JSONValue: Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)

    /// Compact JSON text. `<`, `>` and `&` are written as `\u003c` and so
    /// on, so the text can stand inside an HTML `<script>` element as it is.
    var serialized: String {
        var text = ""
        write(into: &text)
        return text
    }

    /// This object with `members` appended (an object is expected; other
    /// values are returned as they are).
    func adding(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        guard case .object(let existing) = self else { return self }
        return .object(existing + members.map { (key: $0.key, value: $0.value) })
    }

    private func write(into text: inout String) {
        switch self {
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(member.key, into: &text)
                text += ":"
                member.value.write(into: &text)
            }
            text += "}"
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(into: &text)
            }
            text += "]"
        case .string(let string):
            Self.writeString(string, into: &text)
        case .integer(let value):
            text += String(value)
        case .number(let value):
            // Whole numbers without `.0`; JSON has no infinities, so they never reach here.
            text += value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value):
            text += value ? "true" : "false"
        }
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keys in the order written.
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
