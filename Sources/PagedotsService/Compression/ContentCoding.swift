/// The content codings a text response can be sent in, and the choice between
/// them that a request's `Accept-Encoding` makes (RFC 9110 §12.5.3;
/// docs/http.md, "Compression").
enum ContentCoding: Equatable, Sendable {
    case identity
    case gzip

    /// The coding to send for the values of a request's `Accept-Encoding`
    /// field lines (nil or empty: no such field):
    ///
    /// - no `Accept-Encoding` at all: `identity` (RFC 9110 would allow any
    ///   coding, but a client that does not say it can decode gzip, such as
    ///   curl without `--compressed`, is better served plain);
    /// - otherwise the list is read member by member, codings
    ///   case-insensitively, `x-gzip` as `gzip`, with a `q` weight (default 1;
    ///   `q=0` excludes); `*` stands for every coding not named, `identity`
    ///   included;
    /// - `gzip` is chosen when its weight is above 0 and, if `identity` has
    ///   a weight (named, or by `*`), at least that one (a tie goes to the
    ///   smaller response): `identity` that is not named is acceptable but
    ///   preferred to nothing, so `gzip;q=0.5` alone still asks for gzip;
    /// - else `identity`, also when neither is acceptable (RFC 9110 lets a
    ///   server ignore the field rather than refuse with 406).
    ///
    /// A member whose weight is not a valid `qvalue` (`q=2`, `q=0.5.1`,
    /// `q=1.0000`) is ignored as a whole; a coding named twice keeps its
    /// lowest weight, so an exclusion anywhere stands. Empty members, spaces
    /// and tabs around `,`, `;` and `=`, and other parameters are allowed.
    static func negotiate(acceptEncoding fieldValues: [Substring]) -> ContentCoding {
        guard !fieldValues.isEmpty else { return .identity }
        var weights = Weights()
        for value in fieldValues {
            for member in value.split(separator: ",", omittingEmptySubsequences: true) {
                weights.read(member)
            }
        }
        let gzip = weights.gzip ?? weights.any ?? 0
        let identity = weights.identity ?? weights.any ?? 0
        return gzip > 0 && gzip >= identity ? .gzip : .identity
    }

    /// The token of this coding in `Content-Encoding`.
    var token: String {
        switch self {
        case .identity: "identity"
        case .gzip: "gzip"
        }
    }

    /// Weights named in an `Accept-Encoding` list, in thousandths.
    private struct Weights {
        static let one = 1000

        var gzip: Int?
        var identity: Int?
        /// `*`.
        var any: Int?

        /// Reads one list member: `coding *( OWS ";" OWS parameter )`.
        mutating func read(_ member: Substring) {
            var parts = member.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
            guard let coding = parts.next()?.trimmingSpacesAndTabs, !coding.isEmpty else { return }
            var weight = Self.one
            while let parameter = parts.next() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair[0].trimmingSpacesAndTabs.lowercased() == "q" else { continue }
                guard pair.count == 2, let parsed = Self.qvalue(pair[1].trimmingSpacesAndTabs) else { return }
                weight = parsed
            }
            switch coding.lowercased() {
            case "gzip", "x-gzip": gzip = min(gzip ?? weight, weight)
            case "identity": identity = min(identity ?? weight, weight)
            case "*": any = min(any ?? weight, weight)
            default: break
            }
        }

        /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
        static func qvalue(_ text: Substring) -> Int? {
            let bytes = Array(text.utf8)
            guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
            let fraction = bytes.dropFirst()
            if fraction.isEmpty { return first == UInt8(ascii: "1") ? one : 0 }
            let digits = fraction.dropFirst()
            guard fraction.first == UInt8(ascii: "."), digits.count <= 3,
                  digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            if first == UInt8(ascii: "1") { return digits.allSatisfy { $0 == UInt8(ascii: "0") } ? one : nil }
            var thousandths = 0
            for (index, digit) in digits.enumerated() {
                thousandths += Int(digit - UInt8(ascii: "0")) * [100, 10, 1][index]
            }
            return thousandths
        }
    }
}
