/// The service's endpoints as the `route` label of `pagedots_requests_total`
/// names them (docs/operating.md, "Metrics"). The raw value is the `HTTPResponse.label`.
enum Route: Int, CaseIterable, Sendable {
    case other = 0
    case indicator
    case healthz
    case metrics
    case page
    case openapi
    case presets
    case carousel

    /// The name in metrics.
    var name: String {
        switch self {
        case .other: "other"
        case .indicator: "indicator"
        case .healthz: "healthz"
        case .metrics: "metrics"
        case .page: "page"
        case .openapi: "openapi"
        case .presets: "presets"
        case .carousel: "carousel"
        }
    }
}
