import HTTPServer
import PagedotsCore

/// Every way the service refuses a request. Errors become responses here
/// and nowhere else.
enum ServiceError: Error {
    case badParameter(ParameterError)
    case forbidden(SignatureError)
    /// With `--only-presets`: a parameter the URL may not set, or no preset.
    case notAllowed(ParameterError)
    case notFound
    /// A listed path with another method: `allowed` lists those it takes.
    case methodNotAllowed(allowed: String)
    /// A carousel's pictures refused: the parts or sources, or a picture that cannot be read.
    case carouselInput(CarouselInputError)
    /// The client asked for more new images than `--client-miss-rate`
    /// allows; it may have another in `retryAfter` seconds.
    case tooManyNewImages(retryAfter: Int)
    case overloaded

    /// The line the client is told, without its newline.
    var message: String {
        String(decoding: response(route: .other).body.dropLast(), as: UTF8.self)
    }

    /// The response that tells the client: one line of plain text, never cached.
    func response(route: Route) -> HTTPResponse {
        var headers = [
            HTTPHeaderField("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeaderField("Cache-Control", "no-store"),
        ]
        let status: Int
        let message: String
        switch self {
        case .badParameter(let error):
            status = 400
            message = error.description
        case .forbidden(let error):
            status = 403
            message = error.message
        case .notAllowed(let error):
            status = 403
            message = error.description
        case .notFound:
            status = 404
            message = "not found: see / for the endpoints"
        case .methodNotAllowed(let allowed):
            status = 405
            let methods = allowed.split(separator: ", ")
            message = "method not allowed: use " + (methods.count > 1 ? methods.dropLast().joined(separator: ", ") + " or " : "") + (methods.last ?? "")
            headers.append(HTTPHeaderField("Allow", allowed))
        case .carouselInput(let error):
            status = error.status
            message = error.message
        case .tooManyNewImages(let seconds):
            status = 429
            message = "too many new images asked for from your address: try again in \(seconds) s (images already drawn are not limited)"
            headers.append(HTTPHeaderField("Retry-After", String(seconds)))
        case .overloaded:
            status = 503
            message = "busy drawing other images: try again in a second"
            headers.append(HTTPHeaderField("Retry-After", "1"))
        }
        return HTTPResponse(status: status, headers: headers, body: Array((message + "\n").utf8), label: route.rawValue)
    }
}
