import MultipartFormData
import PagedotsDecode

/// Why a carousel's input is refused: an HTTP status and one line that says
/// which part or source and what to change (docs/carousel.md: `415` for a
/// picture that is no readable image, `400` for everything else about the
/// upload; a fetched source's own statuses, docs/carousel.md).
struct CarouselInputError: Error, Equatable {
    var status: Int
    var message: String

    init(status: Int = 400, _ message: String) {
        self.status = status
        self.message = message
    }

    /// An image's refusal, named after its part: `slide 3: not a PNG, JPEG, GIF, WebP, HEIC or AVIF`.
    init(role: String, _ error: ImageDecodingError) {
        self.init(status: error.isUnsupportedFormat ? 415 : 400, "\(role): \(error)")
    }

    /// A body that is not well-formed multipart/form-data, or has too many parts.
    init(_ error: MultipartError) {
        switch error {
        case .tooManyParts(let limit):
            self.init(Self.wrongParts("more than \(limit) parts"))
        case .notFormData:
            self.init(status: 415, "\(error): send the slides with curl -F slide=@file, or as a form")
        case .missingBoundary, .invalidBoundary:
            self.init("\(error)")
        default:
            self.init("multipart body: \(error)")
        }
    }

    /// What to send instead, after `problem`: by default the parts of an upload.
    static func wrongParts(
        _ problem: String, how: String = "send 2 to 20 parts named slide (\(ImageKind.allNames)), or one part named carousel (an animated GIF)"
    ) -> String {
        "\(problem): \(how)"
    }
}
