import HTTPServer
import PagedotsCore

/// The pagedots application: routes requests, answers images from the cache
/// or has them drawn, and serves the health, metrics, page and OpenAPI
/// endpoints. Knows HTTP only through the `HTTPServer` types.
public final class PagedotsService: HTTPHandler {
    private let cache: ImageCache
    private let renderPool: RenderPool
    private let metrics: Metrics
    private let fixedResponses: [Route: PreparedResponse]
    private let notFound: PreparedResponse
    private let signer: URLSigner?

    /// The observer to give the server, so that `/metrics` sees every response.
    public var observer: any HTTPServerObserver { metrics }

    public convenience init(configuration: ServiceConfiguration) {
        self.init(
            configuration: configuration,
            renderPool: RenderPool(threads: configuration.renderThreads, queueLimit: configuration.renderQueueLimit)
        )
    }

    /// A service drawing on `renderPool` (tests hold its threads to fill its queue).
    init(configuration: ServiceConfiguration, renderPool: RenderPool) {
        cache = ImageCache(capacity: configuration.cacheBytes)
        self.renderPool = renderPool
        metrics = Metrics(version: configuration.version)
        signer = configuration.signer
        fixedResponses = [
            .healthz: PreparedResponse(Self.text("ok\n", route: .healthz)),
            .page: PreparedResponse(BuilderPage.response),
            .openapi: PreparedResponse(OpenAPIDocument.response),
        ]
        notFound = PreparedResponse(ServiceError.notFound.response(route: .other))
    }

    public func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        let url = ImageCache.URLKey(ImageCache.SentURL(path: request.path, query: request.query))
        if Self.isReadOnly(request.method), let answer = cache.answer(for: url) {
            metrics.recordCacheHit()
            return Self.send(answer, ifNoneMatch: request.header("If-None-Match"), responder: responder)
        }
        if let route = Route(fixedPath: request.path) {
            guard Self.isReadOnly(request.method) else {
                return responder.send(ServiceError.methodNotAllowed.response(route: route))
            }
            if route == .metrics {
                let text = metrics.exposition(cache: cache.usage, renderQueueDepth: renderPool.queueDepth)
                return responder.send(Self.text(text, route: .metrics, contentType: "text/plain; version=0.0.4; charset=utf-8"))
            }
            if let response = fixedResponses[route] { responder.send(response) }
            return
        }
        let options: PathOptions?
        do {
            options = try IndicatorQuery.pathOptions(forPath: Substring(request.path))
        } catch {
            // An image path with a bad @Nx: the method is checked first, as on every listed path.
            let refusal = Self.isReadOnly(request.method) ? ServiceError.badParameter(error) : .methodNotAllowed
            metrics.recordCacheMiss()
            return responder.send(refusal.response(route: .indicator))
        }
        // A path that is not listed is 404 whatever the method (SPEC.md).
        guard let options else { return responder.send(notFound) }
        do throws(ServiceError) {
            guard Self.isReadOnly(request.method) else { throw .methodNotAllowed }
            let parsed = try imageRequest(query: request.query, options: options)
            serveImage(parsed, url: url, ifNoneMatch: request.header("If-None-Match"), responder: responder)
        } catch {
            // Not answered from the cache: a miss, as SPEC.md counts every image request.
            metrics.recordCacheMiss()
            responder.send(error.response(route: .indicator))
        }
    }

    /// The validated image request of an image path's query, its signature
    /// checked first when the service has a signing key.
    private func imageRequest(query: String, options: PathOptions) throws(ServiceError) -> IndicatorRequest {
        var query = Substring(query)
        if let signer {
            switch signer.verify(query) {
            case .success(let signed): query = signed
            case .failure(let error): throw .forbidden(error)
            }
        }
        do {
            return try IndicatorQuery.parse(query: query, options: options)
        } catch {
            throw .badParameter(error)
        }
    }

    /// Answers a URL not seen before (or whose image has been evicted) from
    /// the image cache, or joins or starts the image's render. Whichever way,
    /// the cache then knows the URL, so that its next request skips parsing.
    private func serveImage(_ parsed: IndicatorRequest, url: ImageCache.URLKey, ifNoneMatch: String?, responder: HTTPResponder) {
        let extraHeaders = parsed.ignoredParameters.isEmpty
            ? []
            : [HTTPHeaderField("X-Ignored-Parameters", parsed.ignoredParameters.joined(separator: ", "))]
        let answer: @Sendable (CachedImage?) -> Void = { image in
            guard let image else {
                return responder.send(ServiceError.overloaded.response(route: .indicator))
            }
            Self.send(ImageCache.Answer(image: image, extraHeaders: extraHeaders), ifNoneMatch: ifNoneMatch, responder: responder)
        }
        let key = ImageCache.Key(parsed.spec)
        switch cache.lookup(key, url: url, extraHeaders: extraHeaders, waiter: answer) {
        case .hit(let image):
            metrics.recordCacheHit()
            answer(image)
        case .joined:
            metrics.recordCacheMiss()
        case .mustRender:
            metrics.recordCacheMiss()
            let spec = parsed.spec
            let accepted = renderPool.submit { [cache, metrics] maker in
                let start = monotonicSeconds()
                let image = CachedImage(image: maker.makeImage(for: spec))
                metrics.recordRender(seconds: monotonicSeconds() - start)
                for waiter in cache.fulfil(key, with: image, url: url, extraHeaders: extraHeaders) { waiter(image) }
                answer(image)
            }
            if !accepted {
                for waiter in cache.abandon(key) { waiter(nil) }
                answer(nil)
            }
        }
    }

    /// Sends a cached image: `200`, or `304` when `If-None-Match` names it.
    private static func send(_ answer: ImageCache.Answer, ifNoneMatch: String?, responder: HTTPResponder) {
        let matched = ifNoneMatch.map(answer.image.isMatched(byIfNoneMatch:)) ?? false
        responder.send(matched ? answer.image.notModified : answer.image.ok, extraHeaders: answer.extraHeaders)
    }

    private static func isReadOnly(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head
    }

    private static func text(_ text: String, route: Route, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [HTTPHeaderField("Content-Type", contentType), HTTPHeaderField("Cache-Control", "no-store")],
            body: Array(text.utf8),
            label: route.rawValue
        )
    }
}
