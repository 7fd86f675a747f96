import PagedotsCore

/// The carousel paths of the OpenAPI document (docs/carousel.md): `POST
/// /carousel`, `/carousel.gif` and `/carousel.apng`, with their
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

    var pathItem: JSONValue {
        [
            "summary": .string("A whole carousel: the slides sent and their page indicator in one animation, " + (format.map { "always an animated \($0.rawValue.uppercased())" } ?? "GIF unless `format=apng`") + "."),
            "post": operation,
        ]
    }

    private var operation: JSONValue {
        let idSuffix = format.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? ""
        let mediaTypes = formats.map(\.mediaType)
        var okDescription = """
            The carousel: the slides in order from `current`, each shown `dwell` ms, the indicator moving with them; \
            a cycle's frame delays add up to pages × dwell ms, and the first frame is the composed still of slide \
            `current`. The same body and query give the same bytes. `no-store`: the sender hosts it.
            """
        if formats.contains(.apng) { okDescription += " An APNG is `image/png`, in full colour and alpha." }
        return [
            "operationId": .string("postCarousel\(idSuffix)"),
            "summary": "Draws the carousel of the slides (or of a carousel GIF) with its indicator.",
            "parameters": .array(parameters),
            "requestBody": requestBody,
            "responses": [
                "200": [
                    "description": .string(okDescription),
                    "headers": [
                        "ETag": OpenAPIDocument.ref("headers", "ETag"),
                        "Cache-Control": OpenAPIDocument.ref("headers", "No-Store"),
                        "Content-Length": OpenAPIDocument.ref("headers", "Content-Length"),
                        "X-Ignored-Parameters": OpenAPIDocument.ref("headers", "X-Ignored-Parameters"),
                    ],
                    "content": .object(mediaTypes.map { (key: $0, value: .object([])) }),
                ],
                "400": OpenAPIDocument.ref("responses", "BadUpload"),
                "403": OpenAPIDocument.ref("responses", "Forbidden"),
                "405": OpenAPIDocument.ref("responses", "CarouselMethodNotAllowed"),
                "408": OpenAPIDocument.ref("responses", "BodyTimeout"),
                "413": OpenAPIDocument.ref("responses", "BodyTooLarge"),
                "414": OpenAPIDocument.ref("responses", "URITooLong"),
                "415": OpenAPIDocument.ref("responses", "UnsupportedImage"),
                "429": OpenAPIDocument.ref("responses", "TooManyNewImages"),
                "503": OpenAPIDocument.ref("responses", "Overloaded"),
            ],
        ]
    }

    /// The parameter table (the indicator's and the carousel's own), with
    /// `pages` optional (it is the number of slides) and `format` and
    /// `theme` narrowed to what a carousel can be.
    private var parameters: [JSONValue] {
        Parameter.all.map { parameter in
            switch parameter.name {
            case .pages:
                [
                    "name": "pages", "in": "query", "required": false,
                    "description": "The number of slides, which it must agree with when given; required with a `carousel` part (its cycle is split into `pages` equal dwells).",
                    "schema": ["type": "integer", "minimum": 2, "maximum": 20],
                ]
            case .format: parameter.openAPIParameter(choices: formats.map(\.rawValue))
            case .theme: parameter.openAPIParameter(choices: ["light", "dark"])
            default: OpenAPIDocument.ref("parameters", parameter.name.rawValue)
            }
        }
    }

    /// The slides, or one carousel GIF, as a form.
    private var requestBody: JSONValue {
        let image: JSONValue = ["type": "string", "format": "binary"]
        return [
            "required": true,
            "description": "Either 2 to 20 parts named `slide`, in order, each a PNG, JPEG or GIF (a GIF's first frame); or one part named `carousel`, an animated GIF made elsewhere, to which the indicator is added on its own timing. The carousel is the first slide's size (at most 2,359,296 pixels), plus the indicator's band with `place=below` or `above`; a slide is at most 4096 pixels a side and 16,777,216 in all. The body is at most `--max-upload-mb` MiB (default 32).",
            "content": [
                "multipart/form-data": [
                    "schema": [
                        "type": "object",
                        "properties": [
                            "slide": ["type": "array", "items": image, "minItems": 2, "maxItems": 20],
                            "carousel": image,
                        ],
                    ],
                    "encoding": [
                        "slide": ["contentType": "image/png, image/jpeg, image/gif"],
                        "carousel": ["contentType": "image/gif"],
                    ],
                ],
            ],
        ]
    }

    /// The refusals only carousels give, for `components/responses`.
    static let responses: KeyValuePairs<String, JSONValue> = [
        "BadUpload": OpenAPIDocument.refusal(
            "A bad parameter (as for an image; `format` other than `gif` or `apng`, or `theme=auto`), or a bad upload: a wrong part name, a missing boundary, fewer than 2 or more than 20 slides, a corrupt or truncated image, a slide over 4096 pixels a side or 16,777,216 pixels, a carousel over 2,359,296 pixels or 400,000,000 pixels over all frames, a carousel GIF's cycle that cannot be split into `pages` dwells of whole 10 ms. The one line says which, and what to lower."
        ),
        "CarouselMethodNotAllowed": OpenAPIDocument.refusal(
            "Any method other than `POST`.", extraHeaders: ["Allow": OpenAPIDocument.header("`POST`.", required: true)]
        ),
        "BodyTimeout": OpenAPIDocument.refusal("The body did not arrive within `--body-timeout` seconds (default 30); the connection is closed."),
        "BodyTooLarge": OpenAPIDocument.refusal("The body is larger than `--max-upload-mb` MiB (default 32): answered as soon as `Content-Length` says so, before the body is sent when the client asks `Expect: 100-continue`."),
        "UnsupportedImage": OpenAPIDocument.refusal("The body is not `multipart/form-data`, or a part is not a PNG, JPEG or GIF; the line names the part (`slide 3: not a PNG, JPEG or GIF`)."),
    ]
}
