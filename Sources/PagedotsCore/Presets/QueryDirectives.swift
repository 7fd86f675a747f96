/// The pairs of an image or carousel query that are not image parameters but
/// say how to read them: `preset` (repeatable, in order) and `expires`, and
/// the query without them.
public struct QueryDirectives: Sendable {
    /// The query as sent, less the `preset` and `expires` pairs (the query
    /// itself when it has none: no copy).
    public var rest: Substring
    /// The names of `preset=` pairs, percent-decoded, in order.
    public var presetNames: [String]
    /// `expires`: seconds since 1970, UTC.
    public var expires: Int64?
    /// The names of the other pairs, as sent (what a URL sets itself), in order.
    public var ownNames: [Substring]

    /// The latest `expires` allowed: 9999-12-31T23:59:59Z.
    public static let maxExpiry: Int64 = 253_402_300_799

    /// Splits `query` (as sent, after any `sig`): a bad or repeated `expires`
    /// is a `ParameterError` about it, and so is a `preset` value that is
    /// not percent-encoded UTF-8.
    public init(_ query: Substring) throws(ParameterError) {
        rest = query
        presetNames = []
        ownNames = []
        var kept: [Substring] = []
        var removedAny = false
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(name.count + 1)
            switch name {
            case "preset":
                presetNames.append(try Self.decoded(value, of: "preset"))
                removedAny = true
            case "expires":
                guard expires == nil else { throw ParameterError(parameter: "expires", description: "expires: given more than once") }
                guard let seconds = DecimalText.integer(value.utf8, ceiling: Self.maxExpiry + 1),
                      seconds <= Self.maxExpiry else {
                    throw ParameterError(
                        "expires", must: "be an integer from 0 to \(Self.maxExpiry) (seconds since 1970, UTC)",
                        got: ParameterError.quoted(value.utf8)
                    )
                }
                expires = seconds
                removedAny = true
            default:
                kept.append(pair)
                if !name.isEmpty { ownNames.append(name) }
            }
        }
        if removedAny { rest = Substring(kept.joined(separator: "&")) }
    }

    /// A value form-decoded as UTF-8, or the message naming `parameter`.
    private static func decoded(_ value: Substring, of parameter: String) throws(ParameterError) -> String {
        guard let bytes = try? PercentDecoding.decode(Array(value.utf8)[...]) else {
            throw ParameterError(parameter, must: "be percent-encoded UTF-8", got: ParameterError.quoted(value.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
