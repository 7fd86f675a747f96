import HTTPServer
import PagedotsCore
import PagedotsFetch

/// The pagedots application: routes requests, answers images from the cache
/// or has them drawn, and serves the health, metrics, page, OpenAPI and
/// presets endpoints. Knows HTTP only through the `HTTPServer` types.
public final class PagedotsService: HTTPHandler {
    private let cache: ImageCache
    private let renderLanes: RenderLanes
    /// Also counts the lines the access log drops (`ServeCommand`).
    let metrics: Metrics
    private let fixedResponses: [Route: Representations]
    private let notFound: PreparedResponse
    /// Signature, expiry and presets: what a query passes before it is read.
    let gate: QueryGate
    /// nil when `--client-miss-rate` is 0.
    private let missLimiter: MissRateLimiter?
    private let trustedProxies: TrustedProxies
    /// Seconds since 1970: the time calendar pages and expiring signatures are judged at.
    private let clock: @Sendable () -> Int64
    private let zones: any TimeZoneSource
    private let carousels: CarouselRoute
    /// Problems met away from a request's answer (a URL slide's source), for the error log.
    let problems = ProblemLog()

    /// Why the service cannot serve as configured (URL slides allowed but no
    /// fetcher could start), or nil: `serve` refuses to start then.
    public var startProblem: String? { carousels.urls.startProblem }

    /// The observer to give the server, so that `/metrics` sees every response.
    public var observer: any HTTPServerObserver { metrics }

    public convenience init(configuration: ServiceConfiguration) {
        self.init(
            configuration: configuration,
            renderLanes: RenderLanes(
                threads: configuration.renderThreads,
                stillQueueLimit: configuration.renderQueueLimit,
                animationQueueLimit: configuration.animationQueueLimit
            )
        )
    }

    /// A service drawing on `renderLanes` (tests hold their threads to fill
    /// their queues), its clients' miss rates counted on `missClock` (nanoseconds).
    init(
        configuration: ServiceConfiguration, renderLanes: RenderLanes,
        missClock: @escaping @Sendable () -> Int64 = monotonicNanoseconds
    ) {
        cache = ImageCache(capacity: configuration.cacheBytes)
        self.renderLanes = renderLanes
        metrics = Metrics(version: configuration.version)
        gate = QueryGate(
            signer: configuration.signer,
            presets: PresetStore(configuration.presets, file: configuration.presetsFile, zones: configuration.zones),
            onlyPresets: configuration.onlyPresets
        )
        clock = configuration.clock
        zones = configuration.zones
        missLimiter = configuration.clientMissRate > 0
            ? MissRateLimiter(perSecond: configuration.clientMissRate, clock: missClock)
            : nil
        trustedProxies = configuration.trustedProxies
        let missLimiter = missLimiter
        let trustedProxies = trustedProxies
        carousels = CarouselRoute(
            renderLanes: renderLanes, gate: gate, clock: configuration.clock, zones: configuration.zones, metrics: metrics,
            takeTokens: { request, tokens in
                guard let missLimiter, case .refused(let seconds) = missLimiter.take(tokens, for: trustedProxies.client(of: request)) else {
                    return nil
                }
                return seconds
            },
            urls: URLCarousels(configuration: configuration, cache: cache, metrics: metrics, log: problems)
        )
        // The documents are compressed here, once; tagged, so that a cache
        // that keeps them for their five minutes can revalidate them.
        fixedResponses = [
            .healthz: Representations(Self.text("ok\n", route: .healthz), validated: false, compressible: false),
            .page: Representations(BuilderPage.response, validated: true, compressible: true),
            .openapi: Representations(OpenAPIDocument.response, validated: true, compressible: true),
        ]
        notFound = PreparedResponse(ServiceError.notFound.response(route: .other))
    }

    public func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        // Every image request is a hit or a miss, counted here and nowhere else.
        switch respond(to: request, responder: responder) {
        case .hit?: metrics.recordCacheHit()
        case .miss?: metrics.recordCacheMiss()
        case nil: break
        }
    }

    /// A carousel upload, its body read (only carousel paths accept bodies).
    public func handle(_ request: HTTPRequest, body: HTTPRequestBody, responder: HTTPResponder) {
        guard case .carousel(let options)? = Endpoint(path: request.path) else { return handle(request, responder: responder) }
        carousels.handle(request, body: body, options: options, responder: responder)
    }

    /// Only the carousel paths take bodies (uploads); every other body is read and dropped.
    public func acceptsBody(of request: HTTPRequest) -> Bool {
        guard case .carousel(let options)? = Endpoint(path: request.path) else { return false }
        return CarouselRoute.acceptsBody(of: request, options: options)
    }

    /// Whether the cache answered an image request: a hit, or anything else
    /// (a render started or joined, a refusal), a miss.
    private enum CacheOutcome {
        case hit, miss
    }

    /// Answers `request`; for an image request, says whether the cache did.
    private func respond(to request: HTTPRequest, responder: HTTPResponder) -> CacheOutcome? {
        // A URL answered before (only image URLs are remembered, with a path
        // that was valid) is answered from the cache before its path is read
        // again: a hit costs a lookup, not a parse.
        let url = ImageCache.URLKey(ImageCache.SentURL(path: request.path, query: request.query))
        let now = clock()
        if request.method == .get || request.method == .head, let answer = cache.answer(for: url, now: now) {
            Self.send(answer, to: request, responder: responder, now: now)
            return .hit
        }
        // A path that is not listed is 404 whatever the method; a listed one
        // checks the method first.
        guard let endpoint = Endpoint(path: request.path) else {
            responder.send(notFound)
            return nil
        }
        if case .carousel(let options) = endpoint {
            carousels.handle(request, body: nil, options: options, responder: responder)
            return nil
        }
        guard request.method == .get || request.method == .head else {
            responder.send(ServiceError.methodNotAllowed(allowed: "GET, HEAD").response(route: endpoint.route))
            return endpoint.route == .indicator ? .miss : nil
        }
        switch endpoint {
        case .fixed(let route):
            responder.send(fixedResponse(route, for: request))
            return nil
        case .image(let path):
            return serveImage(request, url: url, path: path, responder: responder)
        case .carousel:
            return nil
        }
    }

    /// Reads the presets file again (`SIGHUP`): a good one's presets are drawn
    /// from now on, and URLs read under the old ones are forgotten; a bad one
    /// changes nothing. Nil when the service has no presets file.
    public func reloadPresets() -> Result<Int, PresetsFileError>? {
        guard let outcome = gate.presets.reload() else { return nil }
        return outcome.map { snapshot in
            cache.forgetURLs(generation: snapshot.generation)
            return snapshot.presets.queries.count
        }
    }

    /// The answer of a fixed page: prepared at start, or (`/metrics`) made
    /// now, in the coding the request prefers.
    private func fixedResponse(_ route: Route, for request: HTTPRequest) -> PreparedResponse {
        if let responses = fixedResponses[route] { return responses.response(to: request) }
        if route == .presets { return gate.presets.snapshot.document.response(to: request) }
        let text = metrics.exposition(cache: cache.usage, renderQueueDepth: renderLanes.queueDepth)
        let response = Self.text(text, route: .metrics, contentType: "text/plain; version=0.0.4; charset=utf-8")
        return Representations.Variant(response, coding: ContentCoding.negotiate(for: request), varies: true, entityTag: nil).ok
    }

    /// Answers an image request whose URL (`url`) the cache did not know:
    /// after letting its query through the gate (signature, expiry, presets)
    /// and validating the path and the parameters, from the cache or by
    /// drawing the image.
    private func serveImage(
        _ request: HTTPRequest, url: ImageCache.URLKey, path: Result<PathOptions, ParameterError>, responder: HTTPResponder
    ) -> CacheOutcome {
        do throws(ServiceError) {
            let options = try path.mapError { ServiceError.badParameter($0) }.get()
            let now = clock()
            let admitted = try gate.admit(Substring(request.query), suffixSets: options.parameters, now: now)
            let parsed: IndicatorRequest
            do {
                parsed = try IndicatorQuery.parse(query: admitted.parameters, options: options, calendar: CalendarContext(now: now, zones: zones))
            } catch {
                throw .badParameter(error)
            }
            let lifetime = ImageLifetime(calendar: parsed.calendar, expires: admitted.expires, now: now)
            // An answer that depends on the time is worked out anew for every request: its URL is not remembered.
            let remembered = parsed.calendar == nil && admitted.expires == nil ? url : nil
            return serveImage(
                parsed, lifetime: lifetime, url: remembered, generation: admitted.presetGeneration, request: request, responder: responder
            )
        } catch {
            responder.send(error.response(route: .indicator))
            return .miss
        }
    }

    /// Answers a request not answered by its URL from the image cache, or
    /// joins or starts the image's render. Whichever way, the cache then
    /// knows `url` (unless nil), so that its next request skips parsing.
    private func serveImage(
        _ parsed: IndicatorRequest, lifetime: ImageLifetime, url: ImageCache.URLKey?, generation: Int,
        request: HTTPRequest, responder: HTTPResponder
    ) -> CacheOutcome {
        let extraHeaders = [lifetime.cacheControl]
            + (parsed.ignoredParameters.isEmpty
                ? [] : [HTTPHeaderField("X-Ignored-Parameters", parsed.ignoredParameters.joined(separator: ", "))])
            + (parsed.calendar.map { [HTTPHeaderField("X-Current-Page", String($0.page))] } ?? [])
        let answer: @Sendable (CachedImage?) -> Void = { image in
            guard let image else {
                return responder.send(ServiceError.overloaded.response(route: .indicator))
            }
            Self.send(ImageCache.Answer(image: image, extraHeaders: extraHeaders), to: request, responder: responder, now: 0)
        }
        let key = ImageCache.Key(.indicator(parsed.spec))
        // Only a request that would have its image drawn takes tokens from its client: what drawing it costs.
        let client = missLimiter == nil ? nil : trustedProxies.client(of: request)
        var retryAfter: Int?
        let lookup = cache.lookup(key, url: url, extraHeaders: extraHeaders, generation: generation, waiter: answer) {
            guard let missLimiter, let client,
                  case .refused(let seconds) = missLimiter.take(FairUseCost.tokens(for: parsed), for: client) else { return true }
            retryAfter = seconds
            return false
        }
        switch lookup {
        case .hit(let image):
            answer(image)
            return .hit
        case .joined:
            return .miss
        case .refused:
            metrics.recordRateLimited()
            responder.send(ServiceError.tooManyNewImages(retryAfter: retryAfter ?? 1).response(route: .indicator))
            return .miss
        case .mustRender:
            let spec = parsed.spec
            // An animation waits in a lane of its own, so that a flood of them cannot starve the stills.
            let lane: RenderLanes.Lane = spec.format.isAnimated ? .animation : .still
            let accepted = renderLanes.submit(lane) { [cache, metrics] maker in
                let start = monotonicSeconds()
                let image = cache.reserving(lane.scratchBytes) { CachedImage(image: maker.makeImage(for: spec)) }
                metrics.recordRender(seconds: monotonicSeconds() - start)
                for waiter in cache.fulfil(key, with: image, url: url, extraHeaders: extraHeaders, generation: generation) {
                    waiter(image)
                }
                answer(image)
            }
            if !accepted {
                for waiter in cache.abandon(key) { waiter(nil) }
                answer(nil)
            }
            return .miss
        }
    }

    /// Sends a cached image to `request`: in the coding it accepts, `200`, or
    /// `304` when its `If-None-Match` names that variant, with the headers
    /// of its URL at `now` (seconds since 1970).
    static func send(_ answer: ImageCache.Answer, to request: HTTPRequest, responder: HTTPResponder, now: Int64) {
        responder.send(answer.image.responses.response(to: request), extraHeaders: answer.headers(now: now))
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
