import PagedotsCore
import PagedotsDecode

/// The carousel paths of the OpenAPI document (docs/carousel.md):
/// `/carousel`, `/carousel.gif` and `/carousel.apng`, each with a `GET` and
/// a `HEAD` of slide URLs the service fetches and a `POST` of a
/// `multipart/form-data` body, their query parameters and every answer.
struct CarouselPath {
    /// The format the suffix fixes, if any (GIF or APNG).
    var format: ImageFormat?

    static let all: [CarouselPath] = [CarouselPath(format: nil)] + ImageFormat.allCases.filter(\.isAnimated).map { CarouselPath(format: $0) }

    /// `/carousel`, `/carousel.gif`, `/carousel.apng`.
    var template: String {
        "/carousel" + (format.map { ".\($0.rawValue)" } ?? "")
    }

    /// The formats an answer may have: the suffix's, else GIF and APNG.
    private var formats: [ImageFormat] {
        format.map { [$0] } ?? ImageFormat.allCases.filter(\.isAnimated)
    }

    /// `Gif`, `Apng` or nothing, for operation ids.
    private var idSuffix: String {
        format.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? ""
    }

    var pathItem: JSONValue {
        let formatText = format.map { "always an animated \($0.rawValue.uppercased())" } ?? "GIF unless `format=apng`"
        return [
            "summary": .string("A whole carousel: the slides and their page indicator in one animation, \(formatText)."),
            "get": urlOperation(method: "get", summary: "Draws the carousel of the slides at these URLs (or of a carousel GIF) with its indicator."),
            "head": urlOperation(method: "head", summary: "The GET's headers, without the body."),
            "post": uploadOperation,
        ]
    }

    /// The `GET` or `HEAD` of slide URLs: cacheable while its sources are fresh.
    private func urlOperation(method: String, summary: String) -> JSONValue {
        let notModified: JSONValue = [
            "description": "`If-None-Match` names this carousel's `ETag`: no body.",
            "headers": ["ETag": OpenAPIDocument.ref("headers", "ETag"), "Cache-Control": OpenAPIDocument.ref("headers", "Carousel-Cache-Control")],
        ]
        return [
            "operationId": .string("\(method)Carousel\(idSuffix)"),
            "summary": .string(summary),
            "parameters": .array(Self.sourceParameters + parameters + ["If-None-Match"].map { OpenAPIDocument.ref("parameters", $0) }),
            "responses": .object([
                ("200", ok(cacheControl: OpenAPIDocument.ref("headers", "Carousel-Cache-Control"), fetched: true)),
                ("304", notModified),
                ("400", OpenAPIDocument.ref("responses", "BadCarousel")),
                ("403", OpenAPIDocument.ref("responses", "SlideURLForbidden")),
                ("404", OpenAPIDocument.ref("responses", "SourceNotFound")),
                ("405", OpenAPIDocument.ref("responses", "CarouselMethodNotAllowed")),
                ("413", OpenAPIDocument.ref("responses", "SourceTooLarge")),
                ("414", OpenAPIDocument.ref("responses", "URITooLong")),
                ("415", OpenAPIDocument.ref("responses", "UnsupportedImage")),
                ("422", OpenAPIDocument.ref("responses", "OverBudget")),
                ("429", OpenAPIDocument.ref("responses", "TooManyNewImages")),
                ("502", OpenAPIDocument.ref("responses", "SourceFailed")),
                ("503", OpenAPIDocument.ref("responses", "Overloaded")),
                ("504", OpenAPIDocument.ref("responses", "SourceTimeout")),
            ]),
        ]
    }

    /// The `POST` of the slides as a form: never cached.
    private var uploadOperation: JSONValue {
        [
            "operationId": .string("postCarousel\(idSuffix)"),
            "summary": "Draws the carousel of the slides sent (or of a carousel GIF) with its indicator.",
            "parameters": .array(parameters),
            "requestBody": requestBody,
            "responses": .object([
                ("200", ok(cacheControl: OpenAPIDocument.ref("headers", "No-Store"), fetched: false)),
                ("400", OpenAPIDocument.ref("responses", "BadCarousel")),
                ("403", OpenAPIDocument.ref("responses", "Forbidden")),
                ("405", OpenAPIDocument.ref("responses", "CarouselMethodNotAllowed")),
                ("408", OpenAPIDocument.ref("responses", "BodyTimeout")),
                ("413", OpenAPIDocument.ref("responses", "BodyTooLarge")),
                ("414", OpenAPIDocument.ref("responses", "URITooLong")),
                ("415", OpenAPIDocument.ref("responses", "UnsupportedImage")),
                ("422", OpenAPIDocument.ref("responses", "OverBudget")),
                ("429", OpenAPIDocument.ref("responses", "TooManyNewImages")),
                ("503", OpenAPIDocument.ref("responses", "Overloaded")),
            ]),
        ]
    }

    /// The `200`: the carousel with its size in points, what a budget
    /// chose, and `cacheControl` (`no-store` for an upload; for slide URLs,
    /// the freshness of their sources).
    private func ok(cacheControl: JSONValue, fetched: Bool) -> JSONValue {
        var description = """
            The carousel: the slides in order from `current`, each shown `dwell` ms, the indicator moving with them; \
            a cycle's frame delays add up to pages × dwell ms, and the first frame is the composed still of slide \
            `current`. With `budget`, at most that many bytes.
            """
        description += fetched
            ? " The same query with the same sources' bytes gives the same image as the POST of those files; the service keeps it while its sources are fresh."
            : " The same body and query give the same bytes. `no-store`: the sender hosts it."
        if formats.contains(.apng) { description += " An APNG is `image/png`, in full colour and alpha." }
        return [
            "description": .string(description),
            "headers": [
                "ETag": OpenAPIDocument.ref("headers", "ETag"),
                "Cache-Control": cacheControl,
                "Content-Length": OpenAPIDocument.ref("headers", "Content-Length"),
                "X-Carousel-Size": OpenAPIDocument.ref("headers", "X-Carousel-Size"),
                "X-Carousel-Encoding": OpenAPIDocument.ref("headers", "X-Carousel-Encoding"),
                "X-Ignored-Parameters": OpenAPIDocument.ref("headers", "X-Ignored-Parameters"),
            ],
            "content": .object(formats.map(\.mediaType).map { (key: $0, value: .object([])) }),
        ]
    }

    /// `slide` (repeated, in order) or `carousel`: the URLs a `GET` draws.
    private static let sourceParameters: [JSONValue] = [
        [
            "name": "slide", "in": "query", "required": false, "style": "form", "explode": true,
            "description": .string(
                "A slide's URL, percent-encoded (a `+` in it as `%2B`), repeated in order: \(CarouselInput.slideCount.lowerBound) to \(CarouselInput.slideCount.upperBound), each a \(ImageKind.allNames) image that the service fetches from a source its operator allows (`--allow-source`; without it any `slide` is a `403`). Not with `carousel`; a `GET` with neither is a `400`."
            ),
            "schema": [
                "type": "array", "items": ["type": "string", "format": "uri"],
                "minItems": .integer(CarouselInput.slideCount.lowerBound), "maxItems": .integer(CarouselInput.slideCount.upperBound),
            ],
        ],
        [
            "name": "carousel", "in": "query", "required": false,
            "description": "Instead of slides: the URL of one animated GIF made elsewhere, percent-encoded, to which the indicator is added on its own timing (`pages` is then required).",
            "schema": ["type": "string", "format": "uri"],
        ],
    ]

    /// The parameter table (the indicator's and the carousel's own), with
    /// `pages` optional (it is the number of slides), `scale` in quarters,
    /// `format` and `theme` narrowed to what a carousel can be; then the
    /// parameters that say how to read them (`preset`, `expires`, `sig`).
    private var parameters: [JSONValue] {
        Parameter.all.map { parameter in
            switch parameter.name {
            case .pages:
                [
                    "name": "pages", "in": "query", "required": false,
                    "description": "The number of slides, which it must agree with when given; required with a carousel GIF (its cycle is split into `pages` equal dwells).",
                    "schema": ["type": "integer", "minimum": 2, "maximum": 20],
                ]
            case .scale:
                [
                    "name": "scale", "in": "query", "required": false,
                    "description": .string(
                        "Pixels per point: 1 to 4 in steps of 0.25 on a carousel (`1.5`), 2 unless given. The carousel's size in points (`X-Carousel-Size`) is the same at every scale; `budget` may choose a lower one (down to 1). \(parameter.openAPIDescription)"
                    ),
                    "schema": ["type": "number", "minimum": 1, "maximum": 4, "multipleOf": .number(0.25), "default": 2],
                ]
            case .format: parameter.openAPIParameter(choices: formats.map(\.rawValue))
            case .theme: parameter.openAPIParameter(choices: ["light", "dark"])
            default: OpenAPIDocument.ref("parameters", parameter.name.rawValue)
            }
        } + OpenAPIDocument.requestParameterNames.map { OpenAPIDocument.ref("parameters", $0) }
    }

    /// The slides, or one carousel GIF, as a form.
    private var requestBody: JSONValue {
        let image: JSONValue = ["type": "string", "format": "binary"]
        let slides = CarouselInput.slideLimits
        return [
            "required": true,
            "description": .string(
                "Either \(CarouselInput.slideCount.lowerBound) to \(CarouselInput.slideCount.upperBound) parts named `slide`, in order, each a \(ImageKind.allNames) image (a GIF's or WebP's first frame; a HEIC's or AVIF's primary image), at most \(ImageLimits.grouped(slides.maxSide)) pixels a side and \(ImageLimits.grouped(slides.maxPixels)) in all; or one part named `carousel`, an animated GIF made elsewhere, to which the indicator is added on its own timing. The slides are `slidesize` points, else the first slide's size scaled down to at most \(Int(CarouselLayout.defaultMaxWidth)) points wide, plus the indicator's band with `place=below` or `above`. The body is at most `--max-upload-mb` MiB (default 32)."
            ),
            "content": [
                "multipart/form-data": [
                    "schema": [
                        "type": "object",
                        "properties": [
                            "slide": [
                                "type": "array", "items": image,
                                "minItems": .integer(CarouselInput.slideCount.lowerBound), "maxItems": .integer(CarouselInput.slideCount.upperBound),
                            ],
                            "carousel": image,
                        ],
                    ],
                    "encoding": [
                        "slide": ["contentType": .string(ImageKind.allCases.map(\.mediaType).joined(separator: ", "))],
                        "carousel": ["contentType": "image/gif"],
                    ],
                ],
            ],
        ]
    }

    /// The headers only carousels send, for `components/headers`.
    static let headers: KeyValuePairs<String, JSONValue> = [
        "X-Carousel-Size": [
            "description": "The whole carousel's size in points, band included, `WxH` (`600x450`; a side may have a fraction, `400.5x300`): the `<img>`'s `width` and `height`, rounded to whole pixels. The same at every `scale`.",
            "required": true,
            "schema": ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?x[0-9]+(\\.[0-9]+)?$"],
        ],
        "X-Carousel-Encoding": OpenAPIDocument.header(
            "With `budget` only: what was chosen to fit it, `scale=1.5; steps=3; colors=64; loss=20` (`steps`, the slides' in-between steps, for a `fade` or `push` only).",
            required: false
        ),
        "Carousel-Cache-Control": OpenAPIDocument.header(
            "`public, max-age=N`: N is the shortest time, in seconds, for which the slides' sources are still fresh (their own `max-age`, else 5 minutes; at most a day). Never `immutable`.",
            required: true
        ),
    ]

    /// The refusals only carousels give, for `components/responses`.
    static let responses: KeyValuePairs<String, JSONValue> = [
        "BadCarousel": OpenAPIDocument.refusal(
            "A bad parameter (as for an image; `format` other than `gif` or `apng`, `theme=auto`, `scale` not 1…4 in steps of 0.25, `budget` with APNG), or bad slides: a `GET` with neither `slide` nor `carousel`, or with both; a wrong part name or a missing boundary; fewer than \(CarouselInput.slideCount.lowerBound) or more than \(CarouselInput.slideCount.upperBound) slides; a corrupt or truncated image; a slide over \(ImageLimits.grouped(CarouselInput.slideLimits.maxSide)) pixels a side or \(ImageLimits.grouped(CarouselInput.slideLimits.maxPixels)) pixels; a carousel over \(ImageLimits.grouped(CarouselLayout.maxArea)) pixels or \(ImageLimits.grouped(CarouselLayout.maxPixelFrames)) pixels over all frames; a carousel GIF's cycle that cannot be split into `pages` dwells of whole 10 ms. The one line says which, and what to lower."
        ),
        "SlideURLForbidden": OpenAPIDocument.refusal(
            "URL slides are not enabled on this server (`slide: URL slides are not enabled on this server …`); a slide's URL is not allowed (not under an allowed prefix; user information, a fragment, another scheme) or names an address that is not fetched (loopback, private, link-local, …), or a redirect leads to one: the line names the slide (`slide 2: …`). Or, as for an image, a missing or wrong signature, or a parameter that only presets may set."
        ),
        "SourceNotFound": OpenAPIDocument.refusal("A slide's source answered `404` or `410`; the line names the slide."),
        "SourceTooLarge": OpenAPIDocument.refusal("A slide's source is larger than `--max-source-mb` MiB (default 16), counted as it arrives; the line names the slide."),
        "SourceFailed": OpenAPIDocument.refusal(
            "A slide's source could not be had: it answered another status than 2xx, `404` or `410`, refused or reset the connection, failed TLS, or redirected more than 3 times; the line names the slide."
        ),
        "SourceTimeout": OpenAPIDocument.refusal("A slide's source did not answer within `--source-timeout` seconds (default 10); the line names the slide."),
        "OverBudget": OpenAPIDocument.refusal(
            "Nothing fits `budget`: the line gives the smallest size reached and what to lower (`budget: the smallest this carousel comes to is 1,412,306 bytes (scale 1, 1 step, 32 colours, loss 200); try change=cut or a smaller slidesize`)."
        ),
        "CarouselMethodNotAllowed": OpenAPIDocument.refusal(
            "Any method other than `GET`, `HEAD` and `POST`.",
            extraHeaders: ["Allow": OpenAPIDocument.header("`\(CarouselRoute.allowedMethods)`.", required: true)]
        ),
        "BodyTimeout": OpenAPIDocument.refusal("The body did not arrive within `--body-timeout` seconds (default 30); the connection is closed."),
        "BodyTooLarge": OpenAPIDocument.refusal("The body is larger than `--max-upload-mb` MiB (default 32): answered as soon as `Content-Length` says so, before the body is sent when the client asks `Expect: 100-continue`."),
        "UnsupportedImage": OpenAPIDocument.refusal(
            "The body is not `multipart/form-data`, or a part or a fetched source is not a \(ImageKind.allNames) image (a `carousel` not a GIF); the line names it (`slide 3: not a \(ImageKind.allNames)`)."
        ),
    ]
}
