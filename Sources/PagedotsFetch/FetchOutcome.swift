/// How a fetch ended, with what a caller needs for its metrics whichever way it ended.
public struct FetchOutcome: Sendable {
    /// The final response (any status, 304 and 4xx/5xx included: the caller maps statuses), or why there is none.
    public var result: Result<FetchResponse, FetchFailure>
    /// Redirects followed before the end (0…`FetchPolicy.maxRedirects`).
    public var redirects: Int
    /// Seconds from this caller's call to `fetch` to the end, time queued behind the limits included.
    public var elapsedSeconds: Double
    /// Body bytes received over every hop, a body cut off at the limit included.
    public var bytesReceived: Int
    /// True when this caller joined an equal fetch already in flight: the
    /// outcome (and its `bytesReceived`) is that fetch's, handed to every caller.
    public var joined: Bool

    public init(
        result: Result<FetchResponse, FetchFailure>, redirects: Int, elapsedSeconds: Double, bytesReceived: Int, joined: Bool = false
    ) {
        self.result = result
        self.redirects = redirects
        self.elapsedSeconds = elapsedSeconds
        self.bytesReceived = bytesReceived
        self.joined = joined
    }

    /// The response, if there is one.
    public var response: FetchResponse? { try? result.get() }

    /// The failure, if there is one.
    public var failure: FetchFailure? {
        guard case .failure(let failure) = result else { return nil }
        return failure
    }
}

/// A response as the origin gave it: the body is not decompressed.
public struct FetchResponse: Sendable {
    /// The final status (never a redirect that was followed).
    public var status: Int
    /// The final response's header fields.
    public var headers: FetchHeaders
    /// The final response's body, as sent (a `Content-Encoding` is not undone).
    public var body: [UInt8]
    /// The URL that answered: the request's, or the last redirect's target as `followsRedirect` gave it.
    public var url: String

    public init(status: Int, headers: FetchHeaders, body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// A response's header fields in order, names lower-cased.
public struct FetchHeaders: Sendable {
    /// One header field: its name (lower-cased) and value (trimmed).
    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    public var fields: [Field]

    public init(fields: [Field] = []) {
        self.fields = fields
    }

    /// The value of the field `name` (any case), repeated fields joined with ", "; nil if absent.
    /// E.g. `etag`, `last-modified`, `cache-control`, `expires`, `date`, `age`, `content-type`.
    public subscript(_ name: String) -> String? {
        let name = name.lowercased()
        let values = fields.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

/// Why a fetch gave no response, with a message fit for a log line: it names
/// the host, never the URL's path or query.
public struct FetchFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// `FetchPolicy.allowsAddress` refused this address: before `connect`, or
        /// on the connection made (then nothing was sent on it).
        case addressRefused(FetchAddress)
        /// `FetchPolicy.followsRedirect` refused a redirect's target (which was never asked).
        case redirectRefused(FetchRefusal)
        /// Another redirect after `FetchPolicy.maxRedirects` were followed.
        case tooManyRedirects
        /// The body (counted as it arrived, or by its `Content-Length`) or the
        /// header block was over the limit.
        case tooLarge
        /// The fetch's time ran out (connecting, waiting, reading, or queued).
        case timeout
        /// The connection failed: how is in the case.
        case connectFailed(ConnectFailure)
        /// The TLS handshake or the certificate's verification failed.
        case tls
        /// The request could not be made: not an http(s) URL libcurl reads, user
        /// information in it, or a header value with a line break.
        case invalidRequest
        /// Anything else (the origin broke HTTP, closed inside the body, the fetcher stopped…).
        case other
    }

    /// How a connection failed.
    public enum ConnectFailure: Hashable, Sendable {
        /// The host name did not resolve.
        case hostNotFound
        /// The address refused the connection.
        case refused
        /// The connection was reset.
        case reset
        /// The origin closed the connection without an answer.
        case closed
        /// Another failure to connect (unreachable, …).
        case failed
    }

    public var kind: Kind
    /// One line: the host first, then what happened.
    public var message: String

    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The fetch's time, `budget` in all, ran out while `doing` something.
    static func timedOut(_ host: String, budget: Duration, _ doing: String) -> FetchFailure {
        FetchFailure(.timeout, message: "\(host): timed out after \(budget.secondsText) \(doing)")
    }
}
