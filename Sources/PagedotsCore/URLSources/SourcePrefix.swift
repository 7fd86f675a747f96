/// One `--allow-source` prefix: `https://cdn.shop.example/`,
/// `https://*.shop.example/img/`, `https://*/`, `http://127.0.0.1:8080/slides/`.
///
/// Parsed once, at start-up, and normalised as a `SourceURL` is. `*` stands
/// for one or more whole labels at the start of the host (`*.shop.example`
/// matches `a.shop.example` and `a.b.shop.example`, not `shop.example` nor
/// `evilshop.example`, nor any IP literal); `*` alone for any host, IP
/// literals included. A `*` anywhere else is refused, and so is a prefix
/// without a `/` after its host and port.
///
/// A URL matches when its scheme, host (by the label rule) and port are the
/// prefix's, exactly (an `https://` prefix never allows `http://`, a prefix
/// without a port allows only the default one), and its normalised path
/// and query begin with the prefix's path, as plain text. So `/img/` does
/// not match `/img2/…`, but `/img` would: an operator writes `/img/`.
/// A path prefix narrows what is asked of a host; it does not bound what an
/// origin that decodes `%2F` (or `%5C`) in paths serves. The host is the
/// boundary that counts.
public struct SourcePrefix: Hashable, Sendable, CustomStringConvertible {
    /// The hosts a prefix allows.
    public enum HostPattern: Hashable, Sendable {
        /// `*`: any host.
        case any
        /// `*.suffix`: a domain that ends in one or more labels, a dot and `suffix`.
        case subdomains(of: String)
        /// One host, as a normalised URL writes it.
        case exactly(String)
    }

    /// `http` or `https`.
    public let scheme: SourceURL.Scheme
    /// The hosts it allows.
    public let host: HostPattern
    /// The port, the scheme's default included.
    public let port: Int
    /// The normalised path (and query) a URL's must begin with; at least `/`.
    public let pathPrefix: String
    /// The normalised prefix, `*` included.
    public let text: String

    /// The prefix `text`, normalised; throws a one-line error naming it.
    public init(_ text: some StringProtocol) throws(SourcePrefixError) {
        do throws(SourcePrefixError.Reason) {
            let syntax = try SourcePrefixError.Reason.checking { () throws(SourceURLError) in try URLSyntax(text) }
            guard syntax.pathAndQuery.first == UInt8(ascii: "/") else { throw .noSlashAfterHost }
            let wildcard = UInt8(ascii: "*")
            var name = syntax.host
            if name.elementsEqual("*".utf8) || name.starts(with: "*.".utf8) { name = name.dropFirst(2) }
            guard !name.contains(wildcard), !syntax.pathAndQuery.contains(wildcard), syntax.port?.contains(wildcard) != true else {
                throw .misplacedWildcard
            }
            let hostText: String
            if syntax.host.elementsEqual("*".utf8) {
                (host, hostText) = (.any, "*")
            } else {
                let normalized = try SourcePrefixError.Reason.checking { () throws(SourceURLError) in try NormalizedHost(name) }
                if name.startIndex == syntax.host.startIndex {
                    (host, hostText) = (.exactly(normalized.text), normalized.text)
                } else {
                    guard normalized.address == nil else { throw .wildcardBeforeAddress }
                    (host, hostText) = (.subdomains(of: normalized.text), "*." + normalized.text)
                }
            }
            let url = try SourcePrefixError.Reason.checking { () throws(SourceURLError) in
                try SourceURL(scheme: syntax.scheme, host: hostText, address: nil, port: syntax.port, rawPathAndQuery: syntax.pathAndQuery)
            }
            (scheme, port, pathPrefix, self.text) = (url.scheme, url.port, url.pathAndQuery, url.text)
        } catch {
            throw SourcePrefixError(prefix: String(text), reason: error)
        }
    }

    /// Whether `url` is under this prefix.
    public func matches(_ url: SourceURL) -> Bool {
        // Compared as bytes (both are ASCII), not as Characters.
        guard url.scheme == scheme, url.port == port, url.pathAndQuery.utf8.starts(with: pathPrefix.utf8) else { return false }
        switch host {
        case .any: return true
        case .subdomains(let suffix): return url.address == nil && url.host.utf8.hasSuffix(("." + suffix).utf8)
        case .exactly(let name): return url.host.utf8.elementsEqual(name.utf8)
        }
    }

    public var description: String {
        text
    }
}

/// Why an `--allow-source` prefix is refused; `description` is one line
/// naming the prefix, for the refusal to start.
public struct SourcePrefixError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public enum Reason: Error, Hashable, Sendable {
        /// Not a URL `SourceURL` accepts (its `*` apart).
        case notAURL(SourceURLError)
        /// Nothing, or `?…`, after the host and port: a prefix must end its host with `/`.
        case noSlashAfterHost
        /// A `*` that is not the host's first label(s).
        case misplacedWildcard
        /// `*.` followed by an IP address.
        case wildcardBeforeAddress

        /// What `body` returns, its `SourceURLError` as `notAURL`.
        static func checking<T>(_ body: () throws(SourceURLError) -> T) throws(Reason) -> T {
            do throws(SourceURLError) {
                return try body()
            } catch {
                throw .notAURL(error)
            }
        }
    }

    /// The prefix as given.
    public let prefix: String
    /// What is wrong with it.
    public let reason: Reason

    /// The error about `prefix`.
    public init(prefix: String, reason: Reason) {
        self.prefix = prefix
        self.reason = reason
    }

    public var description: String {
        let because = switch reason {
        case .notAURL(let error): error.description
        case .noSlashAfterHost: "a prefix must end its host (and port) with /"
        case .misplacedWildcard: "* may only stand for whole labels at the start of the host (*.example.com) or for any host (*)"
        case .wildcardBeforeAddress: "*. must be followed by a domain name, not an IP address"
        }
        return "allowed source \(ParameterError.quoted(Array(prefix.utf8))): \(because)"
    }
}
