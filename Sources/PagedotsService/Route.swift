/// The endpoints of SPEC.md, as named in the `route` label of
/// `pagedots_requests_total`. The raw value is the `HTTPResponse.label`.
enum Route: Int, CaseIterable, Sendable {
    case other = 0
    case indicator
    case healthz
    case metrics
    case page
    case openapi

    /// The name in metrics.
    var name: String {
        switch self {
        case .other: "other"
        case .indicator: "indicator"
        case .healthz: "healthz"
        case .metrics: "metrics"
        case .page: "page"
        case .openapi: "openapi"
        }
    }

    /// The fixed route of `path`, or nil for image paths and unknown ones.
    init?(fixedPath path: String) {
        switch path {
        case "/healthz": self = .healthz
        case "/metrics": self = .metrics
        case "/": self = .page
        case "/openapi.json": self = .openapi
        default: return nil
        }
    }
}
