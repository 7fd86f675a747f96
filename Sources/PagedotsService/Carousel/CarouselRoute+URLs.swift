import HTTPServer
import PagedotsCore

extension CarouselRoute {
    /// What is settled before a URL carousel's sources are fetched.
    private struct URLRequest: Sendable {
        var options: PathOptions
        var parameters: Substring
        var urls: [SourceURL]
        var isCarousel: Bool
        /// Whether its answer may be remembered by its URL (no expiring signature).
        var remembered: Bool
        /// The presets' generation its query was read under.
        var presetGeneration: Int
    }

    /// Answers a `GET` or `HEAD` of URL slides (`URLCarousels` lists the
    /// checks): the query before anything is fetched, the sources in
    /// parallel off every render thread, then the drawing, or the image
    /// cache's answer, on an animation thread.
    func handleURLs(_ request: HTTPRequest, options: Result<PathOptions, ParameterError>, responder: HTTPResponder) {
        let prepared: URLRequest
        do throws(ServiceError) {
            prepared = try prepare(request, options: options)
        } catch {
            return responder.send(error.response(route: .carousel))
        }
        guard let store = urls.store else {
            return responder.send(ServiceError.overloaded.response(route: .carousel))
        }
        // The least a drawing takes, taken before anything is fetched: a
        // client over its rate makes no fetch (the rest is taken to draw).
        if let seconds = takeTokens(request, 1) {
            metrics.recordRateLimited()
            return responder.send(ServiceError.tooManyNewImages(retryAfter: seconds).response(route: .carousel))
        }
        store.sources(for: prepared.urls) { [self] sources in
            let accepted = renderLanes.submit(.animation) { maker in
                do throws(ServiceError) {
                    try answer(request, prepared: prepared, sources: sources, maker: maker, responder: responder)
                } catch {
                    responder.send(error.response(route: .carousel))
                }
            }
            if !accepted { responder.send(ServiceError.overloaded.response(route: .carousel)) }
        }
    }

    /// The path, the query through the gate, the URLs, and the query against
    /// stand-ins for the slides (what does not depend on their sizes is
    /// refused before anything is fetched); throws the refusal.
    private func prepare(_ request: HTTPRequest, options: Result<PathOptions, ParameterError>) throws(ServiceError) -> URLRequest {
        let options = try options.mapError { ServiceError.badParameter($0) }.get()
        do {
            _ = try CarouselQuery.format(query: Substring(request.query), options: options)
        } catch {
            throw .badParameter(error)
        }
        let now = clock()
        let admitted = try gate.admit(Substring(request.query), suffixSets: options.parameters, now: now)
        let (sourceURLs, isCarousel) = try urls.sourceURLs(in: admitted.parameters)
        if !isCarousel {
            do {
                let standIn = CarouselSource.slides(count: sourceURLs.count, width: 1200, height: 600)
                _ = try CarouselQuery.parse(query: admitted.parameters, options: options, source: standIn, calendar: CalendarContext(now: now, zones: zones))
            } catch where !["carousel", "inset"].contains(error.parameter) {
                throw .badParameter(error)
            } catch {
                // The slides' own sizes decide these.
            }
        }
        return URLRequest(
            options: options, parameters: admitted.parameters, urls: sourceURLs, isCarousel: isCarousel, remembered: admitted.expires == nil,
            presetGeneration: admitted.presetGeneration
        )
    }

    /// Answers `request` once its `sources` are had: from the image cache
    /// when the same query and the same bytes were drawn before, else drawn
    /// by `maker` (this thread's) and kept while every source is fresh.
    private func answer(
        _ request: HTTPRequest, prepared: URLRequest, sources: [Result<SourceStore.Source, SourceStore.Refusal>],
        maker: ImageMaker, responder: HTTPResponder
    ) throws(ServiceError) {
        var input: CarouselInput
        do throws(CarouselInputError) {
            input = try URLCarousels.input(sources, isCarousel: prepared.isCarousel)
        } catch {
            throw .carouselInput(error)
        }
        let now = clock()
        var parsed = try CarouselDrawing.request(
            for: input, parameters: prepared.parameters, options: prepared.options, calendar: CalendarContext(now: now, zones: zones)
        )
        parsed.ignoredParameters.removeAll { SlideURLs.names.contains($0) }
        let had = sources.compactMap { try? $0.get() }
        let key = URLCarousels.key(spec: parsed.spec, sources: had)
        let freshUntil = URLCarousels.freshUntil(had, now: now)
        let extraHeaders = parsed.ignoredParameters.isEmpty
            ? [] : [HTTPHeaderField("X-Ignored-Parameters", parsed.ignoredParameters.joined(separator: ", "))]
        let url = prepared.remembered && !parsed.isTimed ? ImageCache.URLKey(ImageCache.SentURL(path: request.path, query: request.query)) : nil
        let send: @Sendable (CachedImage?) -> Void = { [clock] image in
            guard let image else { return responder.send(ServiceError.overloaded.response(route: .carousel)) }
            let answer = ImageCache.Answer(image: image, extraHeaders: extraHeaders, freshUntil: freshUntil)
            PagedotsService.send(answer, to: request, responder: responder, now: clock())
        }
        var retryAfter: Int?
        let lookup = urls.cache.lookup(
            key, url: url, extraHeaders: extraHeaders, freshUntil: freshUntil, generation: prepared.presetGeneration, waiter: send
        ) {
            let tokens = FairUseCost.tokens(width: parsed.layout.width, height: parsed.layout.height, frames: parsed.frameCount)
            retryAfter = tokens > 1 ? takeTokens(request, tokens - 1) : nil
            return retryAfter == nil
        }
        switch lookup {
        case .hit(let image):
            send(image)
        case .joined:
            break
        case .refused:
            metrics.recordRateLimited()
            throw .tooManyNewImages(retryAfter: retryAfter ?? 1)
        case .mustRender:
            input = input.spooled()
            let start = monotonicSeconds()
            let drawn: (file: CarouselFile, encoding: CarouselEncoding?)
            do throws(ServiceError) {
                drawn = try CarouselDrawing.draw(parsed, input: input, maker: maker)
            } catch {
                for waiter in urls.cache.abandon(key) { waiter(nil) }
                throw error
            }
            metrics.recordRender(seconds: monotonicSeconds() - start)
            var headers = [HTTPHeaderField("X-Carousel-Size", parsed.layout.points.text)]
            if let encoding = drawn.encoding { headers.append(HTTPHeaderField("X-Carousel-Encoding", encoding.headerText)) }
            guard let bytes = drawn.file.bytes() else {
                for waiter in urls.cache.abandon(key) { waiter(nil) }
                throw .overloaded
            }
            let image = CachedImage(image: EncodedImage(bytes: bytes, contentType: drawn.file.contentType), headers: headers, route: .carousel)
            let waiters = urls.cache.fulfil(
                key, with: image, url: url, extraHeaders: extraHeaders, freshUntil: freshUntil, generation: prepared.presetGeneration
            )
            for waiter in waiters {
                waiter(image)
            }
            send(image)
        }
    }
}
