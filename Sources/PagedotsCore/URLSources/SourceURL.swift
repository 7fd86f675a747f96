/// An absolute `http` or `https` URL of a slide, normalised: `text` is what
/// is fetched and what the operator's prefixes (`SourceAllowList`) match.
///
/// Normalised:
/// - the scheme lower-case (`HtTpS:` is `https:`);
/// - the host: percent-decoded, lower-case; one trailing dot dropped
///   (`a.example.` is `a.example`); a host that ends in a number (WHATWG's
///   rule) read as IPv4 in any notation and written as a dotted quad
///   (`0x7f.1`, `2130706433`, `017700000001` are `127.0.0.1`); an IPv6
///   literal in RFC 5952 form, in brackets; a label with non-ASCII
///   characters converted to an A-label (below);
/// - the port dropped when it is the scheme's default (80, 443);
/// - the path and query: `%XX` of an unreserved character (`A–Z a–z 0–9 -
///   . _ ~`) decoded, the hex digits of every other escape upper-case (a
///   `%2F` stays `%2F`, never a `/`), and any character RFC 3986 does not
///   allow there (`"`, `<`, `>`, `` ` ``, `{`, `}`, `|`, `^`, `[`, `]`,
///   non-ASCII) percent-encoded as UTF-8;
/// - dot segments removed (RFC 3986 §5.2.4), `%2e` ones included, as they
///   are decoded first; an empty path is `/`; a query kept as it is.
///
/// Refused (`SourceURLError`): another scheme; user information or any `@`
/// in the authority, raw or percent-encoded; a fragment; a backslash
/// anywhere; whitespace or control characters anywhere raw, or
/// percent-encoded in the host; a percent-encoded `/` in the host; a
/// malformed `%`; an empty host or label; a host character other than
/// letters, digits, `-`, `_` and `.` (before IDNA); a host that ends in a
/// number yet is no IPv4 address (`1.2.3.256`, `example.123`); a port that
/// is not 1…65535; an IPv6 zone id; more than `maximumLength` bytes.
///
/// IDNA, a subset of UTS 46 (nontransitional, as browsers do): a label
/// with non-ASCII characters is lower-cased (Unicode's lower-case mapping),
/// and each character must then be a letter (`Ll`, `Lo`, `Lm`), mark (`Mn`,
/// `Mc`) or decimal digit (`Nd`) that NFKC case folding leaves as it is;
/// `ß` and `ς` as written are kept. The label must be in NFC, must not begin
/// with a mark nor have `--` as its 3rd and 4th characters; it becomes `xn--`
/// and its Punycode (RFC 3492). Not done: UTS 46's mapping of other
/// characters (full-width forms, compatibility characters, `。` as a dot,
/// `ẞ` to `ss`), nor lower-casing the characters of Unicode 3.2 whose lower
/// case came later (`Ӏ`, Georgian capitals), which UTS 46 refuses: such
/// hosts are refused, not guessed at. UTS 46's bidi and contextual rules are
/// not checked: a label they forbid passes here and then does not resolve.
/// ASCII labels, `xn--` ones included, are only lower-cased.
public struct SourceURL: Hashable, Sendable, CustomStringConvertible {
    /// The schemes a fetch uses.
    public enum Scheme: String, Hashable, Sendable {
        case http, https

        /// 80 or 443.
        public var defaultPort: Int {
            self == .http ? 80 : 443
        }
    }

    /// The longest normalised URL, in bytes: a request line's limit.
    public static let maximumLength = 8192

    /// `http` or `https`.
    public let scheme: Scheme
    /// The host as `text` has it: a lower-case domain of ASCII labels, a
    /// dotted quad, or an IPv6 address in brackets (`[::1]`).
    public let host: String
    /// The address an IP-literal host denotes; nil for a domain.
    public let address: IPAddress?
    /// The port a connection uses, the scheme's default included.
    public let port: Int
    /// The normalised path, from its `/`, and `?` and the query if there is one.
    public let pathAndQuery: String
    /// The normalised URL.
    public let text: String

    /// `text`, normalised; throws why it cannot be fetched.
    public init(_ text: some StringProtocol) throws(SourceURLError) {
        let syntax = try URLSyntax(text)
        let host = try NormalizedHost(syntax.host)
        try self.init(scheme: syntax.scheme, host: host.text, address: host.address, port: syntax.port, rawPathAndQuery: syntax.pathAndQuery)
    }

    /// A URL from its checked host and its raw port and path.
    init(
        scheme: Scheme, host: String, address: IPAddress?, port rawPort: ArraySlice<UInt8>?, rawPathAndQuery: ArraySlice<UInt8>
    ) throws(SourceURLError) {
        self.scheme = scheme
        self.host = host
        self.address = address
        port = try Self.port(rawPort, scheme: scheme)
        pathAndQuery = try Self.normalizedPathAndQuery(rawPathAndQuery)
        text = Self.text(scheme: scheme, host: host, port: port, pathAndQuery: pathAndQuery)
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong }
    }

    /// Whether the host is an IP literal.
    public var isIPLiteral: Bool {
        address != nil
    }

    public var description: String {
        text
    }

    /// `scheme://host[:port]pathAndQuery`, the port written only when not the default.
    static func text(scheme: Scheme, host: String, port: Int, pathAndQuery: String) -> String {
        let portText = port == scheme.defaultPort ? "" : ":\(port)"
        return "\(scheme.rawValue)://\(host)\(portText)\(pathAndQuery)"
    }

    /// The port from its digits (after `:`): the default when there are none.
    static func port(_ digits: ArraySlice<UInt8>?, scheme: Scheme) throws(SourceURLError) -> Int {
        guard let digits, !digits.isEmpty else { return scheme.defaultPort }
        guard digits.allSatisfy(IPAddress.isDecimalDigit) else { throw .badPort }
        let value = digits.reduce(0) { min($0 * 10 + Int($1 - UInt8(ascii: "0")), 1 << 20) }
        guard (1...65535).contains(value) else { throw .badPort }
        return value
    }
}
