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
    /// A carousel path (`/carousel`, `@Nx`, `.gif`, `.apng`), likewise.
    case carousel(Result<PathOptions, ParameterError>)

    /// The endpoint of `path` (still percent-encoded), or nil when it is not listed.
    init?(path: String) {
        switch path {
        case "/healthz": self = .fixed(.healthz)
        case "/metrics": self = .fixed(.metrics)
        case "/": self = .fixed(.page)
        case "/openapi.json": self = .fixed(.openapi)
        case "/presets.json": self = .fixed(.presets)
        default:
            let path = Substring(path)
            if let image = Self.options(path, IndicatorQuery.pathOptions) {
                self = .image(image)
            } else if let carousel = Self.options(path, CarouselQuery.pathOptions) {
                self = .carousel(carousel)
            } else {
                return nil
            }
        }
    }

    /// What `parse` makes of `path`: nil when it is not its kind of path.
    private static func options(
        _ path: Substring, _ parse: (Substring) throws(ParameterError) -> PathOptions?
    ) -> Result<PathOptions, ParameterError>? {
        do throws(ParameterError) {
            return try parse(path).map { .success($0) }
        } catch {
            return .failure(error)
        }
    }

    /// The `route` label of the responses to it.
    var route: Route {
        switch self {
        case .fixed(let route): route
        case .image: .indicator
        case .carousel: .carousel
        }
    }
}
