import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// How one hop of a fetch ended.
enum HopResult {
    case response(FetchResponse)
    /// A 301, 302, 303, 307 or 308 with a `Location`, resolved against the hop's URL by libcurl.
    case redirect(to: String)
    case failure(FetchFailure)
}

/// One request of a fetch (its URL, or a redirect's target) on an easy handle
/// of its own, and what its callbacks saw.
///
/// The callbacks run on the fetcher's thread, inside `curl_multi_perform`;
/// they reach this object through the pointer given with them, kept alive by
/// the loop while the handle is in the multi handle. They guard the transfer:
/// every address is judged before `connect` (OPENSOCKETFUNCTION) and the
/// address connected to again before the request is sent (PREREQFUNCTION,
/// which also runs on a reused connection); the header block is bounded, a
/// `Content-Length` over the limit stops the transfer as soon as it arrives,
/// and body bytes are counted as they arrive (libcurl 7.88's
/// `CURLOPT_MAXFILESIZE_LARGE` only looks at `Content-Length`).
final class CurlTransfer {
    /// The easy handle (a `CURL *`); cleaned up with this object, once out of the multi handle.
    let easy: UnsafeMutableRawPointer
    private let url: String
    private let host: String
    private let policy: FetchPolicy
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Why a callback stopped the transfer.
    private var stopped: FetchFailure?
    /// The first address refused before `connect`: the transfer may still have connected to another of the host's.
    private var refusedAddress: FetchAddress?
    /// The status of the response whose header block is arriving (from its status line).
    private var status = 0
    private var headerFields: [FetchHeaders.Field] = []
    private var headerBytes = 0
    private var body: [UInt8] = []
    /// Body bytes received, a body cut off at the limit or a redirect's (not kept) included.
    private(set) var bodyBytesReceived = 0

    /// The statuses whose `Location` is followed.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// The most bytes of header lines one hop may receive (libcurl 7.88 bounds one line, not their number).
    static let maxHeaderBytes = 64 << 10

    /// A transfer of `url` (whose host is `host`) for `request`, ready to add to a
    /// multi handle, that gives up after `timeLeft`.
    static func make(
        url: String, host: String, request: FetchRequest, policy: FetchPolicy, timeLeft: Duration
    ) throws(FetchFailure) -> CurlTransfer {
        guard let easy = curl_easy_init() else { throw FetchFailure(.other, message: "\(host): libcurl is out of memory") }
        let transfer = CurlTransfer(easy: easy, url: url, host: host, policy: policy)
        try transfer.configure(request: request, timeLeft: timeLeft)
        return transfer
    }

    private init(easy: UnsafeMutableRawPointer, url: String, host: String, policy: FetchPolicy) {
        self.easy = easy
        self.url = url
        self.host = host
        self.policy = policy
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(requestHeaders)
        errorBuffer.deallocate()
    }

    private func configure(request: FetchRequest, timeLeft: Duration) throws(FetchFailure) {
        try set(CURLOPT_URL, url)
        // http and https only, on the first URL and (were libcurl to follow one) on redirects.
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Redirects are followed by the loop, each target asked of the policy first.
        // MAXREDIRS is unlimited by default before libcurl 8.3: set it anyway.
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_MAXREDIRS, 0)
        // "" turns off proxies, http_proxy and friends from the environment included.
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_NETRC, Int(CURL_NETRC_IGNORED.rawValue))
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        // No Accept-Encoding is sent (CURLOPT_ACCEPT_ENCODING is never set), and nothing is decoded:
        // the body is the bytes sent, counted against the limit as they are.
        try set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        try set(CURLOPT_CONNECTTIMEOUT_MS, min(policy.connectTimeout, timeLeft).millisecondsRoundedUp)
        try set(CURLOPT_TIMEOUT_MS, timeLeft.millisecondsRoundedUp)
        try set(CURLOPT_USERAGENT, policy.userAgent)
        let headerLines = ["Accept: \(policy.accept)"]
            + (request.ifNoneMatch.map { ["If-None-Match: \($0)"] } ?? [])
            + (request.ifModifiedSince.map { ["If-Modified-Since: \($0)"] } ?? [])
        for line in headerLines {
            guard let list = curl_slist_append(requestHeaders, line) else {
                throw FetchFailure(.other, message: "\(host): libcurl is out of memory")
            }
            requestHeaders = list
        }
        try set(CURLOPT_HTTPHEADER, pointer: requestHeaders)
        try set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)

        // Each callback reaches this transfer through the pointer set with it.
        let setWriteFunction = pd_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let transfer = CurlTransfer.from(context) else { return 0 }
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        try setCallback(CURLOPT_WRITEFUNCTION, data: CURLOPT_WRITEDATA, setWriteFunction)
        let setHeaderFunction = pd_curl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { line, size, count, context in
            guard let line, let transfer = CurlTransfer.from(context) else { return 0 }
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: line, count: size * count))
        }
        try setCallback(CURLOPT_HEADERFUNCTION, data: CURLOPT_HEADERDATA, setHeaderFunction)
        let setOpenSocketFunction = pd_curl_easy_setopt_opensocket_callback(easy) { context, purpose, address in
            guard let transfer = CurlTransfer.from(context), let address else { return CURL_SOCKET_BAD }
            return transfer.openSocket(purpose: purpose, address: address)
        }
        try setCallback(CURLOPT_OPENSOCKETFUNCTION, data: CURLOPT_OPENSOCKETDATA, setOpenSocketFunction)
        let setPrerequestFunction = pd_curl_easy_setopt_prereq_callback(easy) { context, primaryIP, _, primaryPort, _ in
            guard let transfer = CurlTransfer.from(context) else { return CURL_PREREQFUNC_ABORT }
            return transfer.checkConnection(ip: primaryIP, port: primaryPort)
        }
        try setCallback(CURLOPT_PREREQFUNCTION, data: CURLOPT_PREREQDATA, setPrerequestFunction)
    }

    /// Checks `setFunction`, the code of setting the callback `function`, and points its `data` at this transfer.
    private func setCallback(_ function: CURLoption, data: CURLoption, _ setFunction: CURLcode) throws(FetchFailure) {
        try check(setFunction, function)
        try set(data, pointer: Unmanaged.passUnretained(self).toOpaque())
    }

    /// The transfer a callback's data pointer points at.
    private static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
        context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Callbacks

    /// CURLOPT_OPENSOCKETFUNCTION: a socket for an allowed address, CURL_SOCKET_BAD for any other.
    private func openSocket(purpose: curlsocktype, address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let length = Int(address.pointee.addrlen)
        // curl_sockaddr declares a `struct sockaddr`, but libcurl's storage holds the whole address.
        let fetchAddress = withUnsafeMutablePointer(to: &address.pointee.addr) {
            FetchAddress(socketAddress: $0, family: family, length: length)
        }
        guard purpose == CURLSOCKTYPE_IPCXN, let fetchAddress else { return CURL_SOCKET_BAD }
        guard policy.allowsAddress(fetchAddress) else {
            if refusedAddress == nil { refusedAddress = fetchAddress }
            return CURL_SOCKET_BAD
        }
        return socket(family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    /// CURLOPT_PREREQFUNCTION: the address connected to (or reused), judged again before anything is sent.
    private func checkConnection(ip: UnsafeMutablePointer<CChar>?, port: Int32) -> Int32 {
        guard let ip, let address = FetchAddress(String(cString: ip), port: Int(port)) else {
            stopped = FetchFailure(.other, message: "\(host): connected to an address libcurl does not name")
            return CURL_PREREQFUNC_ABORT
        }
        guard policy.allowsAddress(address) else {
            stopped = addressRefused(address)
            return CURL_PREREQFUNC_ABORT
        }
        return CURL_PREREQFUNC_OK
    }

    /// CURLOPT_HEADERFUNCTION, once per header line: keeps the last response's
    /// fields, and stops (0) on a `Content-Length` over the limit or too many header bytes.
    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        headerBytes += line.count
        guard headerBytes <= Self.maxHeaderBytes else {
            stopped = FetchFailure(.tooLarge, message: "\(host): the response's header is over \(Self.maxHeaderBytes) bytes")
            return 0
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            // A new response (after a 1xx, say): only the last one's fields are kept.
            status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headerFields = []
            return line.count
        }
        // The blank line that ends the block has no colon; a folded line is dropped.
        guard let colon = text.firstIndex(of: ":"), !text.hasPrefix(" "), !text.hasPrefix("\t") else { return line.count }
        let field = FetchHeaders.Field(name: String(text[..<colon]), value: trimmed(text[text.index(after: colon)...]))
        if field.name == "content-length", let length = Int(field.value), length > policy.maxBytes {
            stopped = FetchFailure(.tooLarge, message: "\(host): Content-Length \(length) is over \(policy.maxBytes) bytes")
            return 0
        }
        headerFields.append(field)
        return line.count
    }

    /// CURLOPT_WRITEFUNCTION: counts body bytes and keeps them (not a
    /// redirect's); stops (0: libcurl 7.88 has no CURL_WRITEFUNC_ERROR) past the limit.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        bodyBytesReceived += bytes.count
        guard bodyBytesReceived <= policy.maxBytes else {
            stopped = FetchFailure(.tooLarge, message: "\(host): the body is over \(policy.maxBytes) bytes")
            return 0
        }
        if !Self.redirectStatuses.contains(status) {
            body.append(contentsOf: bytes)
        }
        return bytes.count
    }

    // MARK: The end

    /// How the hop ended, given the code libcurl ended it with.
    func result(of code: CURLcode) -> HopResult {
        if let stopped { return .failure(stopped) }
        if code == CURLE_COULDNT_CONNECT, let refusedAddress { return .failure(addressRefused(refusedAddress)) }
        guard code == CURLE_OK else { return .failure(failure(for: code)) }
        var status = 0
        _ = pd_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>?
        if Self.redirectStatuses.contains(status),
           pd_curl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &location) == CURLE_OK, let location {
            return .redirect(to: String(cString: location))
        }
        return .response(FetchResponse(status: status, headers: FetchHeaders(fields: headerFields), body: body, url: url))
    }

    private func addressRefused(_ address: FetchAddress) -> FetchFailure {
        FetchFailure(.addressRefused(address), message: "\(host): address \(address) is not allowed")
    }

    /// The failure a libcurl error code stands for.
    private func failure(for code: CURLcode) -> FetchFailure {
        var osError = 0
        _ = pd_curl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            var connectMicroseconds: curl_off_t = 0
            _ = pd_curl_easy_getinfo_off_t(easy, CURLINFO_CONNECT_TIME_T, &connectMicroseconds)
            return .timedOut(host, budget: policy.totalTimeout, connectMicroseconds == 0 ? "connecting" : "waiting for the answer")
        case CURLE_COULDNT_RESOLVE_HOST:
            return FetchFailure(.connectFailed(.hostNotFound), message: "\(host): the host name does not resolve")
        case CURLE_COULDNT_CONNECT where osError == Int(ECONNREFUSED):
            return FetchFailure(.connectFailed(.refused), message: "\(host): connection refused")
        case CURLE_COULDNT_CONNECT:
            return FetchFailure(.connectFailed(.failed), message: "\(host): cannot connect (\(errorText(osError)))")
        case CURLE_SEND_ERROR where osError == Int(ECONNRESET), CURLE_RECV_ERROR where osError == Int(ECONNRESET):
            return FetchFailure(.connectFailed(.reset), message: "\(host): connection reset")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return FetchFailure(.invalidRequest, message: "\(host): \(curlText(code))")
        case CURLE_GOT_NOTHING:
            return FetchFailure(.connectFailed(.closed), message: "\(host): the connection closed without an answer")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            let detail = String(cString: errorBuffer)
            return FetchFailure(.tls, message: "\(host): TLS: \(detail.isEmpty ? curlText(code) : detail)")
        default:
            return FetchFailure(.other, message: "\(host): \(curlText(code))")
        }
    }

    // MARK: Options

    private func set(_ option: CURLoption, _ value: Int) throws(FetchFailure) {
        try check(pd_curl_easy_setopt_long(easy, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(FetchFailure) {
        try check(value.withCString { pd_curl_easy_setopt_pointer(easy, option, $0) }, option)
    }

    private func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(FetchFailure) {
        try check(pd_curl_easy_setopt_pointer(easy, option, pointer), option)
    }

    /// Every option is required: a libcurl that refuses one (too old, out of memory) makes no request.
    private func check(_ code: CURLcode, _ option: CURLoption) throws(FetchFailure) {
        guard code == CURLE_OK else {
            throw FetchFailure(.other, message: "\(host): libcurl refused option \(option.rawValue): \(curlText(code))")
        }
    }
}

/// libcurl's text for an error code (fixed text: never a URL).
private func curlText(_ code: CURLcode) -> String {
    String(cString: curl_easy_strerror(code))
}

/// The C library's text for `errno` value `code`.
private func errorText(_ code: Int) -> String {
    String(cString: strerror(Int32(code)))
}

/// `text` without surrounding spaces, tabs and line ends.
private func trimmed(_ text: Substring) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
    return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
}

extension Duration {
    /// Whole milliseconds, rounded up, so that a positive duration is never 0
    /// (which libcurl reads as "no limit").
    var millisecondsRoundedUp: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// "10 s", "0.3 s" (to the millisecond).
    var secondsText: String {
        let milliseconds = (inSeconds * 1000).rounded()
        return milliseconds.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(milliseconds / 1000)) s" : "\(milliseconds / 1000) s"
    }
}
