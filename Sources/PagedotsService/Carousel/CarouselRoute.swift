import HTTPServer
import MultipartFormData
import PagedotsCore

/// `POST /carousel` (`/carousel.gif`, `/carousel.apng`, `@Nx`): takes the
/// slides (or a carousel GIF) as `multipart/form-data`, reads and checks
/// every part, and — until the composition is built — answers `501`.
///
/// The checks, in order, the first failure answering: the method (`405`,
/// `Allow: POST`); the path's `@Nx` and the format (`400`); the
/// `Content-Type` (`415` when not multipart/form-data, `400` without a valid
/// boundary); a body at all (`400`). The head's checks come before the body
/// is read when the client waits for a word (`Expect: 100-continue`). Then,
/// on an animation thread: the parts (`400`: names, how many, malformed
/// multipart), each image's header (`415`: not a PNG, JPEG or GIF; `400`:
/// over the size limits), and the images' pixels (`400`: corrupt).
struct CarouselRoute: Sendable {
    /// What the head alone decides: the carousel's format and path options,
    /// and the body's boundary.
    struct Head {
        var format: ImageFormat
        var options: PathOptions
        var boundary: MultipartBoundary
    }

    let renderLanes: RenderLanes

    /// Checks what a request's head can tell; throws the refusal.
    static func head(of request: HTTPRequest, options: Result<PathOptions, ParameterError>) throws(ServiceError) -> Head {
        guard request.method == .post else { throw .methodNotAllowed(allowed: "POST") }
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
            throw .upload(CarouselUploadError(error))
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
        let head: Head
        do throws(ServiceError) {
            head = try Self.head(of: request, options: options)
        } catch {
            return responder.send(error.response(route: .carousel))
        }
        guard let body, body.count > 0 else {
            return responder.send(ServiceError.upload(CarouselUploadError(CarouselUploadError.wrongParts("no body"))).response(route: .carousel))
        }
        // Reading the parts scans the whole body and decoding takes longer: an animation thread's work.
        let accepted = renderLanes.submit(.animation) { _ in
            let response: HTTPResponse
            do throws(CarouselUploadError) {
                let upload = try CarouselUpload(body: body, boundary: head.boundary)
                response = try Self.drawingNotBuilt(upload, head: head)
            } catch {
                response = ServiceError.upload(error).response(route: .carousel)
            }
            responder.send(response)
        }
        if !accepted { responder.send(ServiceError.overloaded.response(route: .carousel)) }
    }

    // MARK: - Stub: the composition and its encoder replace what follows.

    /// TEMPORARY (the carousel composition is not built yet): decodes every
    /// image once, one at a time, so that corrupt pixel data is refused as
    /// the composition will refuse it, then answers `501` with what was read.
    private static func drawingNotBuilt(_ upload: CarouselUpload, head: Head) throws(CarouselUploadError) -> HTTPResponse {
        let summary: String
        switch upload.content {
        case .slides(let slides):
            for slide in slides { _ = try slide.decode() }
            let first = slides[0].probe
            summary = "\(slides.count) slides, the first \(first.width) × \(first.height)"
        case .carousel(let carousel):
            let animation = try carousel.animation()
            try carousel.playFrames { _ in true }
            summary = "a carousel GIF of \(animation.frames.count) frames, \(animation.width) × \(animation.height)"
        }
        let message = "carousel drawing is not built yet: the upload was read (\(summary)) for \(head.format == .apng ? "an APNG" : "a GIF")"
        return ServiceError.upload(CarouselUploadError(status: 501, message)).response(route: .carousel)
    }
}
