import HTTPServer
import PagedotsCore

/// The OpenAPI 3.1 description served at `/openapi.json`: every endpoint of
/// the service (docs/http.md), its responses and their headers. The image parameters are made
/// from the parser's own table (`Parameter.all`), once, at start-up, so the
/// document cannot drift from what the service accepts.
enum OpenAPIDocument {
    /// The document as JSON text.
    static let json: String = document.serialized

    /// The document changes only with a new version: caches may keep it a while.
    static let cacheControl = "public, max-age=300"

    /// The `200` that serves it.
    static var response: HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                HTTPHeaderField("Content-Type", "application/json"),
                HTTPHeaderField("Cache-Control", cacheControl),
            ],
            body: Array(json.utf8),
            label: Route.openapi.rawValue
        )
    }

    static var document: JSONValue {
        var paths: [(key: String, value: JSONValue)] = ImagePath.all.map { ($0.template, $0.pathItem) }
        paths += CarouselPath.all.map { ($0.template, $0.pathItem) }
        paths += [
            ("/healthz", fixedPathItem(
                id: "Health", summary: "Liveness and readiness: `ok` while the process serves.",
                mediaType: "text/plain", cacheControl: "no-store", compressible: false, tagged: false
            )),
            ("/metrics", fixedPathItem(
                id: "Metrics", summary: "Prometheus text exposition (format 0.0.4) of the pagedots_* metrics.",
                mediaType: "text/plain", cacheControl: "no-store", compressible: true, tagged: false
            )),
            ("/", fixedPathItem(
                id: "BuilderPage", summary: "The builder page: a gallery of the styles and a URL and snippet builder.",
                mediaType: "text/html", cacheControl: BuilderPage.cacheControl, compressible: true, tagged: true
            )),
            ("/openapi.json", fixedPathItem(
                id: "OpenAPIDocument", summary: "This document.",
                mediaType: "application/json", cacheControl: cacheControl, compressible: true, tagged: true
            )),
            ("/presets.json", fixedPathItem(
                id: "Presets",
                summary: "The operator's presets: a JSON object of preset names to the query strings that `preset=NAME` stands for, sorted by name; `{}` without any.",
                mediaType: "application/json", cacheControl: PresetStore.cacheControl, compressible: true, tagged: true
            )),
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "pagedots",
                "version": .string(pagedotsVersion),
                "summary": "Page indicators (the dots under a carousel) as PNG or SVG images, or animated as GIF or APNG, from URL parameters.",
                "description": .string(infoDescription),
            ],
            "paths": .object(paths),
            "components": components,
        ]
    }

    private static let infoDescription = """
        Every image URL takes the same query parameters; the path may fix the format (`.png`, `.svg`, \
        `.gif`, `.apng`) and the scale (`@2x`). `format=gif` and `format=apng` draw the indicator animated, \
        as a carousel GIF of `pages` slides of `dwell` ms each: from `current` through every page and back \
        to `current`, one cycle lasting exactly pages × dwell ms, played `loop` times (0: forever). The \
        first frame is the still image (the PNG; for a GIF, over `matte` where the PNG is partly \
        transparent), so a client that shows only the first frame shows a correct indicator. An APNG is \
        served as `image/png`. `dwell`, `transition`, `effect`, `loop`, `fps` and `matte` are validated \
        and have no effect on a still image; `theme=auto` is for SVG only. Unknown query parameters are ignored and listed in `X-Ignored-Parameters`. \
        A known parameter given twice, a value out of range, or a combination that cannot be drawn is a \
        `400` whose one-line plain-text body names the parameter. With `start` and `every` the current \
        page follows the clock (in the time zone `tz`), and the answer may be kept only until the page \
        changes (`Cache-Control: public, max-age=` the seconds left; `X-Current-Page` names the page). \
        `preset=NAME` (repeatable) stands for the parameters of one of the operator's presets \
        (`/presets.json`); the URL's own parameters override them. When the service runs with signing \
        keys, image URLs must end with `&sig=`, the unpadded base64url HMAC-SHA256 of the query before it \
        under one of them; a missing or wrong signature is a `403`, and so is a signed `expires` \
        (seconds since 1970) that has come; until then the answer may be kept for the seconds left. A \
        service that draws only its presets answers `403` to a URL that sets anything but the page, its \
        calendar, `labels`, `format` and `scale`. A client that asks for more new images than its rate \
        allows gets a `429` with `Retry-After`. `POST /carousel` (`.gif`, `.apng`) takes slides as \
        `multipart/form-data` and answers the whole carousel, the slides and their indicator in one \
        animation, `no-store`; `GET /carousel?slide=URL&slide=URL…` draws the same carousel of slides \
        that the service fetches from the sources its operator allows, cacheable while they are fresh. \
        `budget` makes a carousel GIF fit that many bytes. Any method other than GET and HEAD is a `405` \
        with `Allow: GET, HEAD` (on the carousel paths, any but GET, HEAD and POST, with \
        `Allow: \(CarouselRoute.allowedMethods)`); any other path is a `404`. Text answers (SVG, the builder page, this \
        document, the metrics) are gzip-compressed when `Accept-Encoding` allows it, and carry \
        `Vary: Accept-Encoding` either way; the gzip variant's `ETag` is the plain one with `-gz` inside \
        the quotes.
        """

    /// A GET and a HEAD that answer `200` with one media type: gzip-compressed
    /// when asked for if `compressible`, with an `ETag` and `304` if `tagged`.
    private static func fixedPathItem(
        id: String, summary: String, mediaType: String, cacheControl: String, compressible: Bool, tagged: Bool
    ) -> JSONValue {
        var headers: [(key: String, value: JSONValue)] = [
            ("Cache-Control", header("`\(cacheControl)`", required: true)),
            ("Content-Length", ref("headers", "Content-Length")),
        ]
        if tagged { headers.append(("ETag", ref("headers", "ETag"))) }
        if compressible { headers += [("Vary", ref("headers", "Vary")), ("Content-Encoding", ref("headers", "Content-Encoding"))] }
        var responses: [(key: String, value: JSONValue)] = [
            ("200", [
                "description": "OK",
                "headers": .object(headers),
                "content": .object([(key: mediaType, value: .object([]))]),
            ]),
        ]
        if tagged {
            responses.append(("304", [
                "description": "`If-None-Match` names this answer's `ETag`: no body.",
                "headers": .object(headers.filter { $0.key != "Content-Length" }),
            ]))
        }
        let responsesValue = JSONValue.object(responses)
        return [
            "get": ["operationId": .string("get\(id)"), "summary": .string(summary), "responses": responsesValue],
            "head": ["operationId": .string("head\(id)"), "summary": "The GET's headers, without the body.", "responses": responsesValue],
        ]
    }

    private static var components: JSONValue {
        [
            "parameters": .object(Parameter.all.map { ($0.name.rawValue, $0.openAPIParameter()) } + requestParameters + [
                ("If-None-Match", [
                    "name": "If-None-Match", "in": "header", "required": false,
                    "description": "An ETag from an earlier answer: when it names this image, the answer is `304` without a body.",
                    "schema": ["type": "string"],
                ]),
            ]),
            "headers": JSONValue.object([]).adding([
                "ETag": header(
                    "Strong entity tag of the body: for an image, the same for every URL that draws the same bytes, on every replica; `-gz` inside the quotes for the gzip variant.",
                    required: true
                ),
                "Vary": header("`Accept-Encoding`: on every SVG, HTML, JSON and metrics answer, compressed or not.", required: false),
                "Content-Encoding": header("`gzip` when the body is compressed (text only, when `Accept-Encoding` allows it); absent otherwise.", required: false),
                "Cache-Control": header(
                    "`public, max-age=31536000, immutable`: the same URL always draws the same bytes; for a calendar URL (`start`, `every`), or a signed one with `expires`, `public, max-age=` the whole seconds until the page changes or the signature expires, whichever comes first (at least 1; a calendar URL on its last page, without `expires`: a year and `immutable`).",
                    required: true
                ),
                "X-Current-Page": header("For a calendar URL only: the page it shows now, 0-based, as `current` would say it.", required: false),
                "Content-Length": header("Length of the body (of the GET's body, for HEAD).", required: true),
                "No-Store": header("`no-store`: refusals are never cached.", required: true),
                "X-Ignored-Parameters": header(
                    "The unknown query parameters, each once, in order, as spelled in the URL, joined by `, `; absent when none.",
                    required: false
                ),
                "Retry-After": header("Seconds to wait before trying again.", required: true),
            ]).adding(CarouselPath.headers),
            "responses": JSONValue.object([]).adding([
                "NotModified": [
                    "description": "`If-None-Match` names this image: no body.",
                    "headers": [
                        "ETag": ref("headers", "ETag"), "Cache-Control": ref("headers", "Cache-Control"),
                        "Vary": ref("headers", "Vary"), "Content-Encoding": ref("headers", "Content-Encoding"),
                    ],
                ],
                "BadParameter": refusal("A parameter or a combination that cannot be drawn (e.g. `current: must be an integer from 0 to 4 (pages=5); got \"5\"`; `theme=auto` with a raster format), an image over 4096 pixels on a side or 4,194,304 in all, or an animation of more than 2000 frames or 33,554,432 pixels over all frames (the line says what to lower)."),
                "Forbidden": refusal(
                    "When the service runs with signing keys: `sig` is missing, malformed or wrong under every key, or the signed `expires` has come (`expired: this URL was valid until …`). When it draws only its presets: the URL names no preset, or sets a parameter it may not (the line names it)."
                ),
                "URITooLong": refusal("The request line is longer than 8192 bytes; the connection is closed."),
                "TooManyNewImages": refusal(
                    "This client (its address, or the one a trusted proxy forwarded) asked for more new images than the service's per-client rate allows; images already drawn are not limited.",
                    extraHeaders: ["Retry-After": ref("headers", "Retry-After")]
                ),
                "Overloaded": refusal("Too many images are waiting to be drawn.", extraHeaders: ["Retry-After": ref("headers", "Retry-After")]),
            ]).adding(CarouselPath.responses),
        ]
    }

    /// The names of `requestParameters`, in order.
    static var requestParameterNames: [String] { requestParameters.map(\.key) }

    /// The query parameters of an image URL that are not image parameters:
    /// they say how to read the others.
    private static let requestParameters: [(key: String, value: JSONValue)] = [
        ("preset", [
            "name": "preset", "in": "query", "required": false, "style": "form", "explode": true,
            "description": "The name of one of the operator's presets (`/presets.json`), whose parameters apply; repeatable, a later preset overriding an earlier one, and the URL's own parameters overriding both. An unknown name is a `400`.",
            "schema": ["type": "array", "items": ["type": "string", "pattern": "^[a-z0-9-]{1,32}$"]],
        ]),
        ("expires", [
            "name": "expires", "in": "query", "required": false,
            "description": "With signing keys: the URL is valid until this time, in seconds since 1970 (UTC), inside the signed part; from then on a `403`. Without keys, validated and without effect.",
            "schema": ["type": "integer", "minimum": 0, "maximum": .integer(Int(QueryDirectives.maxExpiry))],
        ]),
        ("sig", [
            "name": "sig", "in": "query", "required": false,
            "description": "With signing keys (and then required, last): the unpadded base64url HMAC-SHA256 of the query before `&sig=`. Without keys, an unknown parameter.",
            "schema": ["type": "string", "pattern": "^[A-Za-z0-9_-]{43}$"],
        ]),
    ]

    /// A one-line `text/plain` refusal with `Cache-Control: no-store`.
    static func refusal(_ description: String, extraHeaders: KeyValuePairs<String, JSONValue> = [:]) -> JSONValue {
        let headers: JSONValue = ["Cache-Control": ref("headers", "No-Store"), "Content-Length": ref("headers", "Content-Length")]
        return [
            "description": .string(description),
            "headers": headers.adding(extraHeaders),
            "content": ["text/plain": ["schema": ["type": "string"]]],
        ]
    }

    static func header(_ description: String, required: Bool) -> JSONValue {
        ["description": .string(description), "required": .bool(required), "schema": ["type": "string"]]
    }

    /// `{"$ref": "#/components/<section>/<name>"}`.
    static func ref(_ section: String, _ name: String) -> JSONValue {
        ["$ref": .string("#/components/\(section)/\(name)")]
    }
}

/// One of the spellings of the image path (docs/parameters.md, "Paths"):
/// `/indicator`, optionally `@{scale}x`, optionally a format suffix (`.png`, `.svg`, `.gif`, `.apng`).
struct ImagePath {
    /// The format the suffix fixes, if any.
    var format: ImageFormat?
    /// Whether the path has `@{scale}x`.
    var scaled: Bool

    static let all: [ImagePath] = [false, true].flatMap { scaled in
        ([nil] + ImageFormat.allCases).map { ImagePath(format: $0, scaled: scaled) }
    }

    /// `/indicator@{scale}x.png` and the like.
    var template: String {
        "/indicator" + (scaled ? "@{scale}x" : "") + (format.map { ".\($0.rawValue)" } ?? "")
    }

    /// `IndicatorScaledPng` and the like, for operation ids.
    private var idSuffix: String {
        "Indicator" + (scaled ? "Scaled" : "") + (format.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "")
    }

    var pathItem: JSONValue {
        var parameters: [JSONValue] = Parameter.all.map { parameter in
            // A suffix's format is the only one the query may repeat.
            if parameter.name == .format, let format {
                return parameter.openAPIParameter(choices: [format.rawValue])
            }
            return OpenAPIDocument.ref("parameters", parameter.name.rawValue)
        }
        parameters += (OpenAPIDocument.requestParameterNames + ["If-None-Match"]).map { OpenAPIDocument.ref("parameters", $0) }
        if scaled {
            parameters.insert([
                "name": "scale", "in": "path", "required": true,
                "description": "Pixels per point, as the query's `scale` (which may repeat it, not contradict it). Digits outside 1…4 are a `400`; anything but digits is a `404`.",
                "schema": ["type": "integer", "minimum": 1, "maximum": 4],
            ], at: 0)
        }
        return [
            "summary": .string(summary),
            "parameters": .array(parameters),
            "get": operation(method: "get", summary: "The image."),
            "head": operation(method: "head", summary: "The image's headers, without the body."),
        ]
    }

    private var summary: String {
        let formatText = switch format {
        case nil: "PNG unless `format` says otherwise (`svg`, or animated: `gif`, `apng`)"
        case .apng: "always an animated PNG (APNG), served as `image/png`"
        case let format?: "always " + (format.isAnimated ? "an animated " : "") + format.rawValue.uppercased()
        }
        let scaleText = scaled ? "; the scale from the path" : ""
        return "A page indicator image: \(formatText)\(scaleText)."
    }

    /// The `200`'s prose: what an animated answer holds, where the path allows one.
    private func okDescription(_ formats: [ImageFormat]) -> String {
        var text = "The image. The same query always draws the same bytes."
        if formats.contains(where: \.isAnimated) {
            text += " An animation's frame delays add up to pages × dwell ms per cycle, and its first frame is the still image."
        }
        if formats.contains(.apng) {
            text += " An APNG is `image/png`: a client that does not animate it shows that first frame."
        }
        return text
    }

    private func operation(method: String, summary: String) -> JSONValue {
        let formats = format.map { [$0] } ?? ImageFormat.allCases
        // PNG and APNG share one media type: name it once.
        let mediaTypes = formats.map(\.mediaType).enumerated().filter { index, type in
            !formats.prefix(index).contains { $0.mediaType == type }
        }.map(\.element)
        var responses: [(key: String, value: JSONValue)] = [
            ("200", [
                "description": .string(okDescription(formats)),
                "headers": [
                    "ETag": OpenAPIDocument.ref("headers", "ETag"),
                    "Cache-Control": OpenAPIDocument.ref("headers", "Cache-Control"),
                    "Content-Length": OpenAPIDocument.ref("headers", "Content-Length"),
                    "X-Ignored-Parameters": OpenAPIDocument.ref("headers", "X-Ignored-Parameters"),
                    "X-Current-Page": OpenAPIDocument.ref("headers", "X-Current-Page"),
                    "Vary": OpenAPIDocument.ref("headers", "Vary"),
                    "Content-Encoding": OpenAPIDocument.ref("headers", "Content-Encoding"),
                ],
                "content": .object(mediaTypes.map { (key: $0, value: .object([])) }),
            ]),
            ("304", OpenAPIDocument.ref("responses", "NotModified")),
            ("400", OpenAPIDocument.ref("responses", "BadParameter")),
            ("403", OpenAPIDocument.ref("responses", "Forbidden")),
        ]
        if scaled {
            responses.append(("404", [
                "description": "The path's `@…x` is not digits, so the path is not an image path.",
                "headers": ["Cache-Control": OpenAPIDocument.ref("headers", "No-Store")],
                "content": ["text/plain": ["schema": ["type": "string"]]],
            ]))
        }
        responses += [
            ("414", OpenAPIDocument.ref("responses", "URITooLong")),
            ("429", OpenAPIDocument.ref("responses", "TooManyNewImages")),
            ("503", OpenAPIDocument.ref("responses", "Overloaded")),
        ]
        return [
            "operationId": .string(method + idSuffix),
            "summary": .string(summary),
            "responses": .object(responses),
        ]
    }
}
