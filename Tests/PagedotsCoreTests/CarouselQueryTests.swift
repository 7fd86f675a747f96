import Testing
@testable import PagedotsCore

/// `count` slides of 1200 × 600 pixels.
func slides(_ count: Int = 3, width: Int = 1200, height: Int = 600) -> CarouselSource {
    .slides(count: count, width: width, height: height)
}

/// A carousel parsed from `query` for `source`.
func parsedCarousel(_ query: String, source: CarouselSource = slides(), options: PathOptions = PathOptions()) throws(ParameterError) -> CarouselRequest {
    try CarouselQuery.parse(query: Substring(query), options: options, source: source)
}

/// The one line a carousel query is refused with.
func carouselRefusal(_ query: String, source: CarouselSource = slides(), options: PathOptions = PathOptions()) -> String? {
    do {
        _ = try parsedCarousel(query, source: source, options: options)
        return nil
    } catch {
        return error.description
    }
}

@Suite("Carousel queries: the spec, its defaults and its refusals")
struct CarouselQueryTests {
    @Test("pages is the number of slides; scale is 2; GIF; the carousel's own parameters default")
    func defaults() throws {
        let request = try parsedCarousel("style=pill")
        #expect(request.spec.indicator.pages == 3)
        #expect(request.spec.indicator.scale == 2)
        #expect(request.spec.format == .gif)
        #expect(request.spec.composition == CarouselComposition())
        #expect(request.spec.composition.change == .cut && request.spec.composition.place == .over)
        #expect(request.spec.composition.inset == 12 && request.spec.composition.fit == .cover)
        #expect(request.spec.plays == 0)
        #expect(request.layout.width == 1200 && request.layout.height == 600)
    }

    @Test("The carousel's own parameters are read; the path's @Nx and .apng apply")
    func ownParameters() throws {
        let request = try parsedCarousel(
            "change=FADE&place=below&inset=3.5&backdrop=black&fit=contain&loop=2", options: PathOptions(format: .apng, scale: 3)
        )
        #expect(request.spec.composition.change == .fade)
        #expect(request.spec.composition.place == .below)
        #expect(request.spec.composition.inset == 3.5)
        #expect(request.spec.composition.backdrop == RGBA(red: 0, green: 0, blue: 0))
        #expect(request.spec.composition.fit == .contain)
        #expect(request.spec.format == .apng)
        #expect(request.spec.indicator.scale == 3)
        #expect(request.spec.plays == 2)
    }

    @Test("The slides' size in points: slidesize WxH or W (its height from the first slide's aspect), else the first slide's, at most 600 points wide")
    func slideSize() throws {
        func size(_ query: String, _ source: CarouselSource = slides()) throws -> (pixels: String, points: String) {
            let layout = try parsedCarousel(query, source: source).layout
            return ("\(layout.width)x\(layout.height)", layout.points.text)
        }
        // A camera's photo: 600 points wide at 2x, its height in whole points.
        #expect(try size("", slides(width: 4032, height: 3024)) == ("1200x900", "600x450"))
        #expect(try size("scale=3", slides(width: 6000, height: 4000)) == ("1800x1200", "600x400"))
        // Within 600 points, the first slide's own pixels (points may be fractional).
        #expect(try size("", slides(width: 801, height: 401)) == ("801x401", "400.5x200.5"))
        #expect(try size("scale=1", slides(width: 600, height: 300)) == ("600x300", "600x300"))
        // slidesize, both forms, every slide fitted to it; the band adds its points.
        #expect(try size("slidesize=300x200") == ("600x400", "300x200"))
        #expect(try size("slidesize=300", slides(width: 4032, height: 3024)) == ("600x450", "300x225"))
        #expect(try size("slidesize=300x200&place=below&size=8&padding=4") == ("600x432", "300x216"))
        #expect(try size("slidesize=300x200&scale=1.5") == ("450x300", "300x200"))
        // A carousel GIF keeps its screen.
        #expect(try size("pages=2&slidesize=100", .animation(width: 500, height: 250, delays: [1000, 1000], loopCount: nil)) == ("500x250", "250x125"))
        for bad in ["0", "15", "2049", "600x", "x300", "600x300x2", "600X300", "600.5", "-600", ""] {
            #expect(carouselRefusal("slidesize=\(bad)")?.hasPrefix("slidesize: must be WxH or W, whole numbers from 16 to 2048") == true, "\(bad)")
        }
    }

    @Test("scale on a carousel: 1 to 4 in steps of 0.25, agreeing with @Nx; the indicator drawn at it")
    func quarterScale() throws {
        let request = try parsedCarousel("scale=1.75&slidesize=400x200")
        #expect(request.spec.scale == 1.75)
        #expect(request.spec.indicator.scale == 2)
        #expect(request.layout.width == 700 && request.layout.height == 350)
        #expect(try parsedCarousel("", options: PathOptions(scale: 3)).spec.scale == 3)
        #expect(try parsedCarousel("scale=3.0", options: PathOptions(scale: 3)).spec.scale == 3)
        #expect(carouselRefusal("scale=2.5", options: PathOptions(scale: 3)) == "scale: must be 3 to agree with the path's @3x; got \"2.5\"")
        for bad in ["1.1", "0.75", "4.25", "2.", "x"] {
            #expect(carouselRefusal("scale=\(bad)") == "scale: must be a number from 1 to 4 in steps of 0.25 for a carousel; got \"\(bad)\"", "\(bad)")
        }
    }

    @Test("budget: bytes as an integer or with k or M, 10k to 100M, for a GIF only")
    func budget() throws {
        #expect(try parsedCarousel("").spec.budget == nil)
        for (text, bytes) in [("1M", 1_000_000), ("750k", 750_000), ("1.5M", 1_500_000), ("10000", 10_000), ("100M", 100_000_000), ("0.25M", 250_000)] {
            #expect(try parsedCarousel("budget=\(text)").spec.budget == bytes, "\(text)")
        }
        for bad in ["9999", "100.1M", "1.0005k", "1m", "1K", "1MB", "M", ".5M", "5.M", "1e6", "-1M", ""] {
            #expect(carouselRefusal("budget=\(bad)")?.hasPrefix("budget: must be a number of bytes from 10k to 100M") == true, "\(bad)")
        }
        #expect(carouselRefusal("budget=1M&format=apng")
            == "budget: must be given for a GIF carousel only (an APNG keeps full colour: use format=gif); got \"1M\"")
        #expect(carouselRefusal("budget=1M", options: PathOptions(format: .apng)) != nil)
    }

    @Test("With effect=none the slides still change over the transition given")
    func transitionKeptWhereTheIndicatorCuts() throws {
        let request = try parsedCarousel("effect=none&transition=500&change=push")
        #expect(request.spec.transition == 500)
    }

    @Test(
        "refusals, each one line",
        arguments: [
            ("pages=4", "pages: must be 3, the number of slides sent; got \"4\""),
            ("format=png", "format: must be gif or apng for a carousel; got \"png\""),
            ("theme=auto", "theme: must be light or dark for a gif image (auto switches colours only inside an SVG, which does not animate: use a <picture> with a theme=light and a theme=dark image); got \"auto\""),
            ("change=wipe", "change: must be one of fade, push, cut; got \"wipe\""),
            ("place=left", "place: must be one of over, below, above; got \"left\""),
            ("inset=201", "inset: must be a number from 0 to 200 (points); got \"201\""),
            ("inset=300", "inset: must be a number from 0 to 200 (points); got \"300\""),
            ("backdrop=nope", "backdrop: must be a color: hex RGB, RGBA, RRGGBB or RRGGBBAA (# optional), a CSS color name, or transparent; got \"nope\""),
            ("fit=fill", "fit: must be one of cover, contain; got \"fill\""),
        ]
    )
    func refusals(query: String, message: String) {
        #expect(carouselRefusal(query) == message)
    }

    @Test("An indicator that does not fit between the inset and the slides' far edge is refused")
    func insetTooLarge() {
        #expect(carouselRefusal("size=64&inset=200", source: slides(width: 1200, height: 300))
            == "inset: must leave room for the indicator (432x144 pixels) on the slides; got \"200\" on 1200x300 pixels")
        #expect(carouselRefusal("size=64&inset=200") == nil)
    }

    @Test("a carousel over 2,359,296 pixels, or 400,000,000 pixel-frames, is refused with what to lower")
    func limits() throws {
        #expect(try parsedCarousel("slidesize=768x768", source: slides(width: 1536, height: 1536)).layout.width == 1536)
        #expect(carouselRefusal("slidesize=769x768", source: slides(width: 1536, height: 1536))
            == "carousel: must be at most 2,359,296 pixels in all (e.g. slidesize=768x768 at scale 2); got 1538x1536 pixels (lower slidesize or scale)")
        #expect(carouselRefusal("slidesize=768&place=below", source: slides(width: 1536, height: 1536))?
            .hasPrefix("carousel: must be at most 2,359,296 pixels") == true)
        #expect(carouselRefusal("slidesize=2048&scale=1", source: slides(width: 1536, height: 1536)) != nil)
        let heavy = "change=fade&transition=1000&slidesize=768"
        let refusal = carouselRefusal(heavy, source: slides(20, width: 1536, height: 1536))
        #expect(refusal?.hasPrefix("carousel: must be at most 400,000,000 pixels over all frames; got ") == true)
        #expect(refusal?.hasSuffix(" frames of 1536x1536 pixels (lower fps, transition or pages, use change=cut, or lower slidesize)") == true)
        #expect(carouselRefusal("change=cut&slidesize=768", source: slides(20, width: 1536, height: 1536)) == nil)
        #expect(try parsedCarousel(heavy, source: slides(2, width: 200, height: 100)).frameCount > 40)
    }

    @Test("The pixel-frames a carousel costs are known before it is drawn")
    func pixelFrames() throws {
        let request = try parsedCarousel("change=fade")
        #expect(request.pixelFrames == 1200 * 600 * request.frameCount)
        #expect(request.frameCount == CarouselTimeline(spec: request.spec).frames().count)
    }

    @Test("a carousel made elsewhere: pages required, its total split into dwells, which must agree")
    func imported() throws {
        let gif = CarouselSource.animation(width: 400, height: 200, delays: [1000, 500, 1500, 3000], loopCount: 4)
        #expect(carouselRefusal("", source: gif) == "pages: required, an integer from 1 to 1000")
        let request = try parsedCarousel("pages=3", source: gif)
        #expect(request.spec.indicator.dwell == 2000)
        #expect(request.spec.plays == 5)
        #expect(try parsedCarousel("pages=3&dwell=2000&loop=1", source: gif).spec.plays == 1)
        #expect(carouselRefusal("pages=3&dwell=3000", source: gif)
            == "dwell: must be 2000 to agree with the carousel's 6000 ms split into pages=3 (milliseconds); got \"3000\"")
        #expect(carouselRefusal("pages=7", source: gif)
            == "carousel: must last a multiple of 10 ms × pages to split into equal dwells (70 ms with pages=7); got 6000 ms")
        #expect(carouselRefusal("pages=100", source: gif) == "carousel: must split into dwells of 100 to 60000 ms (pages=100); got 6000 ms, 60 ms a page")
        let once = CarouselSource.animation(width: 400, height: 200, delays: [1000, 1000], loopCount: nil)
        #expect(try parsedCarousel("pages=2", source: once).spec.plays == 1)
        let forever = CarouselSource.animation(width: 400, height: 200, delays: [1000, 1000], loopCount: 0)
        #expect(try parsedCarousel("pages=2", source: forever).spec.plays == 0)
    }
}
