/// How `--access-log` writes one line per response on standard output.
public enum AccessLogFormat: String, CaseIterable, Sendable {
    /// nginx's and Apache's "combined" format, with the seconds taken appended:
    /// `127.0.0.1 - - [29/Nov/2026:16:40:17 +0000] "GET /indicator?pages=5 HTTP/1.1" 200 312 "-" "curl/7.88.1" 0.000214`
    case combined
    /// One JSON object a line, with the same facts and the full peer address.
    case json
    /// No access log (error lines about refused requests are still written).
    case off
}
