import HTTPServer
import PagedotsCore
import PagedotsDecode
import PagedotsFetch

/// `GET`/`HEAD /carousel…?slide=URL&…` (docs/carousel.md, "Carousels from
/// URLs"): the carousel of slides the service fetches from the sources the
/// operator allows, the same picture as the `POST` of the same files.
///
/// In order, the first refusal answering: the path and the query (`400`,
/// and the signature, presets and limits of the gate); URL slides not
/// enabled (`403`); the URLs (`400` for how many; `403` for one not
/// allowed, by prefix or by its literal address); the query against a
/// stand-in for the slides (`400`), so that a bad query fetches nothing.
/// Then the sources (kept and fresh, or fetched in parallel: `SourceStore`),
/// and on an animation thread the pictures' headers (`415`, `400`), the
/// query for their sizes, and the image cache: a carousel of the same query
/// and the same sources' bytes is answered from it, not drawn again
/// (sources revalidated unchanged give the same bytes); else the client's
/// miss tokens (`429`), and the drawing, kept in the cache while every
/// source is fresh. The answer's `max-age` is the shortest freshness left.
struct URLCarousels: Sendable {
    let allowed: SourceAllowList
    let addresses: AddressPolicy
    /// Nil when no source is allowed (and no fetcher was started).
    let store: SourceStore?
    /// Why sources are allowed but no fetcher could start (the server then refuses to).
    let startProblem: String?
    let cache: ImageCache
    let metrics: Metrics

    /// URL slides as `configuration` allows them, kept by `cache`; no
    /// fetcher is started (and every URL slide is refused) when no source
    /// is allowed.
    init(configuration: ServiceConfiguration, cache: ImageCache, metrics: Metrics, log: ProblemLog) {
        allowed = configuration.allowedSources
        addresses = AddressPolicy(allowPrivate: configuration.allowPrivateSources)
        self.cache = cache
        self.metrics = metrics
        let policy = FetchPolicy.urlSlides(
            allowed: allowed, addresses: addresses, maxBytes: configuration.maxSourceBytes, timeout: configuration.sourceTimeout
        )
        var fetcher: Fetcher?
        var problem: String?
        if !allowed.isEmpty {
            do throws(FetcherError) {
                fetcher = try Fetcher(policy: policy)
            } catch {
                problem = "cannot fetch URL slides: \(error)"
            }
        }
        startProblem = problem
        store = fetcher.map {
            SourceStore(capacity: configuration.sourceCacheBytes, fetcher: $0, clock: configuration.clock, metrics: metrics, log: log)
        }
    }

    /// What a `GET` sends for its slides.
    static let how = "send 2 to 20 slide=URL parameters, or one carousel=URL (an animated GIF)"

    /// The sources a query names, normalised and allowed; throws the refusal.
    func sourceURLs(in parameters: Substring) throws(ServiceError) -> (urls: [SourceURL], isCarousel: Bool) {
        let named: SlideURLs
        do {
            named = try SlideURLs(query: parameters)
        } catch {
            throw .badParameter(error)
        }
        guard !named.isEmpty else {
            throw .carouselInput(CarouselInputError(CarouselInputError.wrongParts("no slides", how: Self.how + ", or POST the files")))
        }
        guard !allowed.isEmpty else {
            throw .carouselInput(CarouselInputError(
                status: 403, "slide: URL slides are not enabled on this server (its operator allows sources with --allow-source); POST the files instead"
            ))
        }
        let isCarousel = !named.carousels.isEmpty
        if isCarousel, named.carousels.count > 1 || !named.slides.isEmpty {
            let problem = named.slides.isEmpty ? "\(named.carousels.count) carousel URLs" : "slides and a carousel together"
            throw .carouselInput(CarouselInputError(CarouselInputError.wrongParts(problem, how: Self.how)))
        }
        guard isCarousel || CarouselInput.slideCount.contains(named.slides.count) else {
            let count = named.slides.count
            throw .carouselInput(CarouselInputError(CarouselInputError.wrongParts("\(count) slide\(count == 1 ? "" : "s")", how: Self.how)))
        }
        var urls: [SourceURL] = []
        for (index, text) in (isCarousel ? named.carousels : named.slides).enumerated() {
            let role = isCarousel ? "carousel" : "slide \(index + 1)"
            let url: SourceURL
            do throws(SourceURLError) {
                url = try SourceURL(text)
            } catch {
                throw .carouselInput(CarouselInputError(status: 403, "\(role): \(error)"))
            }
            guard allowed.allows(url) else {
                throw .carouselInput(CarouselInputError(status: 403, "\(role): \(url.host) is not an allowed source (see --allow-source)"))
            }
            if let address = url.address, let refusal = addresses.refusal(of: address) {
                throw .carouselInput(CarouselInputError(status: 403, "\(role): \(url.host) is \(refusal), which is not fetched"))
            }
            urls.append(url)
        }
        return (urls, isCarousel)
    }

    /// The input of fetched `sources` (or the first refusal, naming its slide).
    static func input(_ sources: [Result<SourceStore.Source, SourceStore.Refusal>], isCarousel: Bool) throws(CarouselInputError) -> CarouselInput {
        var named: [CarouselInput.Source] = []
        for (index, result) in sources.enumerated() {
            let role = isCarousel ? "carousel" : "slide \(index + 1)"
            switch result {
            case .success(let source):
                named.append(CarouselInput.Source(name: isCarousel ? "carousel" : "slide", filename: source.url, bytes: source.bytes))
            case .failure(let refusal):
                throw CarouselInputError(status: refusal.status, "\(role): \(refusal.reason)")
            }
        }
        return try CarouselInput(sources: named)
    }

    /// What identifies a URL carousel's image: its validated spec (the
    /// pictures' sizes in it) and its sources' bytes.
    static func key(spec: CarouselSpec, sources: [SourceStore.Source]) -> ImageCache.Key {
        ImageCache.Key(.urlCarousel(spec, sources: sources.map(\.digest)))
    }

    /// When the carousel's answer stops being fresh: its sources' soonest
    /// (seconds since 1970), or now for a source that is not kept.
    static func freshUntil(_ sources: [SourceStore.Source], now: Int64) -> Int64 {
        sources.map { $0.freshUntil ?? now }.min() ?? now
    }
}

extension FetchPolicy {
    /// The fetches of URL slides: what `allowed` and `addresses` allow, for
    /// every connection and every redirect, at most `maxBytes` a source
    /// within `timeout` seconds.
    static func urlSlides(allowed: SourceAllowList, addresses: AddressPolicy, maxBytes: Int, timeout: Double) -> FetchPolicy {
        FetchPolicy(
            maxBytes: maxBytes,
            totalTimeout: .milliseconds(Int64((timeout * 1000).rounded())),
            userAgent: "pagedots/\(pagedotsVersion)",
            accept: ImageKind.acceptHeader,
            allowsAddress: { address in IPAddress(bytes: address.bytes).map(addresses.allows) ?? false },
            followsRedirect: { location in
                let url: SourceURL
                do throws(SourceURLError) {
                    // A fragment is the client's alone: never sent, so never judged.
                    url = try SourceURL(location.prefix { $0 != "#" })
                } catch {
                    return .failure(FetchRefusal(reason: "a redirect to a URL that is refused: \(error)"))
                }
                guard allowed.allows(url) else {
                    return .failure(FetchRefusal(reason: "a redirect to \(url.host), not an allowed source"))
                }
                if let address = url.address, let refusal = addresses.refusal(of: address) {
                    return .failure(FetchRefusal(reason: "a redirect to \(url.host), \(refusal)"))
                }
                return .success(url.text)
            }
        )
    }
}
