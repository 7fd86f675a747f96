import HTTPServer
import Locking
import MultipartFormData
import PagedotsCore

/// `POST /carousel` (`/carousel.gif`, `/carousel.apng`, `@Nx`): takes the
/// slides (or a carousel GIF) as `multipart/form-data`, reads and checks
/// every part, and answers the carousel (docs/carousel.md): `200`, a strong
/// `ETag` (the bytes' digest), `Cache-Control: no-store`. `GET` and `HEAD`
/// make it of URL slides (`CarouselRoute+URLs.swift`).
///
/// The checks, in order, the first failure answering: the method (`405`,
/// `Allow: GET, HEAD, POST`); the path's `@Nx` and the format (`400`); the
/// `Content-Type` (`415` when not multipart/form-data, `400` without a valid
/// boundary); a body at all (`400`). The head's checks come before the body
/// is read when the client waits for a word (`Expect: 100-continue`). Then,
/// on an animation thread: the parts (`400`: names, how many, malformed
/// multipart), each image's header (`415`: not an image pagedots reads; `400`:
/// over the size limits); the query (through the gate: signature, presets;
/// then its parameters and the carousel's limits, `400`); the client's
/// miss tokens (`429`); and, while the frames are drawn, the images' pixels
/// (`400`: corrupt).
struct CarouselRoute: Sendable {
    /// What the head alone decides: the carousel's format and path options,
    /// and the body's boundary.
    struct Head {
        var format: ImageFormat
        var options: PathOptions
        var boundary: MultipartBoundary
    }

    let renderLanes: RenderLanes
    let gate: QueryGate
    /// Seconds since 1970, for calendar pages and expiring signatures.
    let clock: @Sendable () -> Int64
    let zones: any TimeZoneSource
    let metrics: Metrics
    /// Takes a carousel's miss tokens from the request's client: nil when
    /// it may be drawn, else the seconds until it may.
    let takeTokens: @Sendable (_ request: HTTPRequest, _ tokens: Int) -> Int?
    /// The carousels of URL slides: their sources, and the image cache that keeps them.
    let urls: URLCarousels

    /// The methods a carousel path takes.
    static let allowedMethods = "GET, HEAD, POST"

    /// Checks what a request's head can tell; throws the refusal.
    static func head(of request: HTTPRequest, options: Result<PathOptions, ParameterError>) throws(ServiceError) -> Head {
        guard request.method == .post else { throw .methodNotAllowed(allowed: allowedMethods) }
        let options = try options.mapError { ServiceError.badParameter($0) }.get()
        let format: ImageFormat
        do {
            format = try CarouselQuery.format(query: Substring(request.query), options: options)
        } catch {
            throw .badParameter(error)
        }
        do throws(MultipartError) {
            let boundary = try MultipartBoundary(contentType: request.header("Content-Type") ?? "")
            return Head(format: format, options: options, boundary: boundary)
        } catch {
            throw .carouselInput(CarouselInputError(error))
        }
    }

    /// Whether the server reads the body: yes for every POST to a carousel
    /// path (so that a refusal reaches a client that sends its body at once),
    /// except when the client waits for a word before sending it and the
    /// head is refused already: then it is answered at once, and the body is
    /// never sent.
    static func acceptsBody(of request: HTTPRequest, options: Result<PathOptions, ParameterError>) -> Bool {
        guard request.method == .post else { return false }
        guard request.header("Expect")?.lowercased() == "100-continue" else { return true }
        return (try? head(of: request, options: options)) != nil
    }

    /// Answers `request`, whose `body` the server read (nil when it had none).
    func handle(_ request: HTTPRequest, body: HTTPRequestBody?, options: Result<PathOptions, ParameterError>, responder: HTTPResponder) {
        if request.method == .get || request.method == .head {
            return handleURLs(request, options: options, responder: responder)
        }
        let head: Head
        do throws(ServiceError) {
            head = try Self.head(of: request, options: options)
        } catch {
            return responder.send(error.response(route: .carousel))
        }
        guard let body, body.count > 0 else {
            return responder.send(ServiceError.carouselInput(CarouselInputError(CarouselInputError.wrongParts("no body"))).response(route: .carousel))
        }
        // Reading the parts scans the whole body and decoding takes longer:
        // an animation thread's work. It takes the body from the parcel, so
        // that once the slides are spooled nothing holds the body's memory.
        let parcel = BodyParcel(body)
        let accepted = renderLanes.submit(.animation) { maker in
            let response: HTTPResponse
            do throws(ServiceError) {
                response = try answer(request, parcel: parcel, head: head, maker: maker)
            } catch {
                response = error.response(route: .carousel)
            }
            responder.send(response)
        }
        if !accepted { responder.send(ServiceError.overloaded.response(route: .carousel)) }
    }

    /// The carousel `request` asks for, drawn by `maker`, or the refusal.
    private func answer(_ request: HTTPRequest, parcel: BodyParcel, head: Head, maker: ImageMaker) throws(ServiceError) -> HTTPResponse {
        var input: CarouselInput
        do throws(CarouselInputError) {
            input = try CarouselInput(body: parcel.take(), boundary: head.boundary)
        } catch {
            throw .carouselInput(error)
        }
        let now = clock()
        let admitted = try gate.admit(Substring(request.query), suffixSets: head.options.parameters, now: now)
        let parsed = try CarouselDrawing.request(
            for: input, parameters: admitted.parameters, options: head.options, calendar: CalendarContext(now: now, zones: zones)
        )
        let tokens = FairUseCost.tokens(width: parsed.layout.width, height: parsed.layout.height, frames: parsed.frameCount)
        if let seconds = takeTokens(request, tokens) {
            metrics.recordRateLimited()
            throw .tooManyNewImages(retryAfter: seconds)
        }
        // The slides are decoded one at a time from a temporary file: the body's memory goes.
        input = input.spooled()
        let start = monotonicSeconds()
        let (file, encoding) = try CarouselDrawing.draw(parsed, input: input, maker: maker)
        metrics.recordRender(seconds: monotonicSeconds() - start)
        return try Self.response(file, for: parsed, encoding: encoding)
    }

    /// The `200` of a carousel: its bytes (sent from its file), their digest
    /// as a strong tag, never cached (it is the sender's to host), its size
    /// in points for the `<img>`.
    static func response(_ file: CarouselFile, for request: CarouselRequest, encoding: CarouselEncoding?) throws(ServiceError) -> HTTPResponse {
        var headers = [
            HTTPHeaderField("Content-Type", file.contentType), HTTPHeaderField("Cache-Control", "no-store"),
            HTTPHeaderField("X-Carousel-Size", request.layout.points.text),
        ]
        if let encoding { headers.append(HTTPHeaderField("X-Carousel-Encoding", encoding.headerText)) }
        let ignored = request.ignoredParameters
        if !ignored.isEmpty { headers.append(HTTPHeaderField("X-Ignored-Parameters", ignored.joined(separator: ", "))) }
        return try file.response(headers: headers, label: Route.carousel.rawValue)
    }
}

/// A request body handed to the animation thread that answers it, which
/// takes it once: the closure that carries the parcel then holds nothing.
private final class BodyParcel: Sendable {
    private let body: Locked<HTTPRequestBody?>

    init(_ body: HTTPRequestBody) {
        self.body = Locked(body)
    }

    /// The body; taken once.
    func take() -> HTTPRequestBody {
        guard let body = body.withLock({ $0.take() }) else { preconditionFailure("a carousel's body is taken once") }
        return body
    }
}
