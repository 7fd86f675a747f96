import PagedotsCore

/// Where a request's path leads, decided before anything else about the
/// request (its method, its query, the cache). A path that is not listed has
/// no endpoint: `404` whatever the method.
enum Endpoint: Equatable {
    /// A page that is not an image: `/healthz`, `/metrics`, `/`, `/openapi.json`, `/presets.json`.
    case fixed(Route)
    /// An image path (`/indicator`, `@Nx`, `.png`…), with what its suffix
    /// fixes, or why that suffix is refused (`@5x`: a `400` about `scale`).
    case image(Result<PathOptions, ParameterError>)

    /// The endpoint of `path` (still percent-encoded), or nil when it is not listed.
    init?(path: String) {
        switch path {
        case "/healthz": self = .fixed(.healthz)
        case "/metrics": self = .fixed(.metrics)
        case "/": self = .fixed(.page)
        case "/openapi.json": self = .fixed(.openapi)
        case "/presets.json": self = .fixed(.presets)
        default:
            do {
                guard let options = try IndicatorQuery.pathOptions(forPath: Substring(path)) else { return nil }
                self = .image(.success(options))
            } catch {
                self = .image(.failure(error))
            }
        }
    }

    /// The `route` label of the responses to it.
    var route: Route {
        switch self {
        case .fixed(let route): route
        case .image: .indicator
        }
    }
}
