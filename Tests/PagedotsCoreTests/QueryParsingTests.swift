import Testing
@testable import PagedotsCore

/// The spec that `query` parses to.
func parsedSpec(_ query: String, options: PathOptions = PathOptions()) throws -> IndicatorSpec {
    try IndicatorQuery.parse(query: query[...], options: options).spec
}

/// The one-line message that `query` is refused with, or nil when it parses.
func refusal(_ query: String, options: PathOptions = PathOptions()) -> String? {
    do {
        _ = try IndicatorQuery.parse(query: query[...], options: options)
        return nil
    } catch {
        return error.description
    }
}

/// `IndicatorSpec(pages:)` changed by `change`.
func spec(pages: Int, _ change: (inout IndicatorSpec) -> Void = { _ in }) -> IndicatorSpec {
    var spec = IndicatorSpec(pages: pages)
    change(&spec)
    return spec
}

@Suite struct QueryParsingTests {
    @Test func defaultsNeedOnlyPages() throws {
        #expect(try parsedSpec("pages=5") == IndicatorSpec(pages: 5))
    }

    @Test(arguments: [
        ("pages=5&current=4", spec(pages: 5) { $0.current = 4 }),
        ("pages=05&current=00", spec(pages: 5)),
        ("pages=1000&size=2&spacing=0&padding=0", spec(pages: 1000) { $0.size = 2; $0.spacing = 0; $0.padding = 0 }),
        ("pages=5&style=PiLL", spec(pages: 5) { $0.style = .pill }),
        ("pages=5&style=progress", spec(pages: 5) { $0.style = .progress }),
        ("pages=5&style=bar", spec(pages: 5) { $0.style = .bar }),
        ("pages=5&size=7.5", spec(pages: 5) { $0.size = 7.5 }),
        ("pages=5&size=2&spacing=0&padding=0", spec(pages: 5) { $0.size = 2; $0.spacing = 0; $0.padding = 0 }),
        ("pages=5&size=64.000&spacing=64&padding=64", spec(pages: 5) { $0.size = 64; $0.spacing = 64; $0.padding = 64 }),
        ("pages=5&scale=4", spec(pages: 5) { $0.scale = 4 }),
        ("pages=5&direction=BTT", spec(pages: 5) { $0.direction = .btt }),
        ("pages=5&shape=heart", spec(pages: 5) { $0.shape = .heart }),
        ("pages=5&fill=outline", spec(pages: 5) { $0.fill = .outline }),
        ("pages=5&fill=outline&stroke=0.5", spec(pages: 5) { $0.fill = .outline; $0.stroke = 0.5 }),
        ("pages=5&fill=outline&size=64&stroke=8", spec(pages: 5) { $0.fill = .outline; $0.size = 64; $0.stroke = 8 }),
        ("pages=5&fill=outline&size=3&stroke=1.5", spec(pages: 5) { $0.fill = .outline; $0.size = 3; $0.stroke = 1.5 }),
        ("pages=5&format=SVG", spec(pages: 5) { $0.format = .svg }),
        ("pages=5&style=scroll&visible=3", spec(pages: 5) { $0.style = .scroll; $0.visible = 3 }),
        ("pages=5&style=scroll&visible=25", spec(pages: 5) { $0.style = .scroll; $0.visible = 25 }),
        ("pages=5&style=progress&progress=0", spec(pages: 5) { $0.style = .progress; $0.progress = 0 }),
        ("pages=5&style=progress&progress=1.0", spec(pages: 5) { $0.style = .progress; $0.progress = 1 }),
        ("pages=5&width=100&height=20.25", spec(pages: 5) { $0.width = 100; $0.height = 20.25 }),
        ("pages=5&direction=ttb&width=20&height=80", spec(pages: 5) { $0.direction = .ttb; $0.width = 20 }),
    ])
    func validForms(query: String, expected: IndicatorSpec) throws {
        #expect(try parsedSpec(query) == expected)
    }

    @Test(arguments: [
        ("color=red", RGBA(red: 255, green: 0, blue: 0)),
        ("color=%23ff000080", RGBA(red: 255, green: 0, blue: 0, alpha: 0x80)),
        ("color=%23f008", RGBA(red: 255, green: 0, blue: 0, alpha: 0x88)),
        ("color=000", RGBA(red: 0, green: 0, blue: 0)),
    ])
    func inactiveDefaultsToColorAtThirtyPercentAlpha(query: String, color: RGBA) throws {
        let spec = try parsedSpec("pages=3&" + query)
        #expect(spec.color == color)
        #expect(spec.inactive == color.fading(to: 0.3))
    }

    @Test func inactiveOfAnOpaqueColorHasAlpha77() throws {
        #expect(try parsedSpec("pages=3").inactive == RGBA(red: 0x00, green: 0x7A, blue: 0xFF, alpha: 77))
        #expect(try parsedSpec("pages=3&color=teal").inactive.alpha == 77)
        #expect(try parsedSpec("pages=3&color=%23ff000080").inactive.alpha == 38)
    }

    @Test func inactiveGivenIsKept() throws {
        let spec = try parsedSpec("pages=3&color=red&inactive=blue")
        #expect(spec.inactive == RGBA(red: 0, green: 0, blue: 255))
    }

    @Test(arguments: [
        (0, RGBA(red: 255, green: 0, blue: 0)),
        (1, RGBA(red: 0, green: 0x80, blue: 0)),
        (2, RGBA(red: 0, green: 0, blue: 255)),
        (3, RGBA(red: 255, green: 0, blue: 0)),
        (7, RGBA(red: 0, green: 0x80, blue: 0)),
    ])
    func colorsCycleWithTheCurrentPage(current: Int, color: RGBA) throws {
        let spec = try parsedSpec("pages=8&current=\(current)&colors=red,green,%230000ff")
        #expect(spec.color == color)
        #expect(spec.inactive == color.fading(to: 0.3))
    }

    @Test func colorsKeepsAGivenInactive() throws {
        let spec = try parsedSpec("pages=2&current=1&colors=red,white&inactive=black")
        #expect(spec.color == RGBA(red: 255, green: 255, blue: 255))
        #expect(spec.inactive == RGBA(red: 0, green: 0, blue: 0))
    }

    @Test func labelsArePercentDecodedAfterSplittingOnCommas() throws {
        let spec = try parsedSpec("pages=4&style=bar&labels=Hello+world,a%2Cb,%C3%BCber%20alles,")
        #expect(spec.labels == ["Hello world", "a,b", "über alles", ""])
    }

    @Test func unknownParametersAreListedOnceInOrderAsSent() throws {
        let request = try IndicatorQuery.parse(
            query: "utm_source=mail&pages=3&Pages=4&utm_medium=x&utm_source=again&p%61ges=5&flag&sig=abc"
        )
        #expect(request.ignoredParameters == ["utm_source", "Pages", "utm_medium", "p%61ges", "flag", "sig"])
        #expect(request.spec == IndicatorSpec(pages: 3))
    }

    @Test func nothingIgnoredGivesAnEmptyList() throws {
        #expect(try IndicatorQuery.parse(query: "pages=3&size=9").ignoredParameters.isEmpty)
    }

    @Test func emptyPairsAndEmptyNamesAreSkipped() throws {
        let request = try IndicatorQuery.parse(query: "&&pages=3&&=5&=&current=2&")
        #expect(request.spec == spec(pages: 3) { $0.current = 2 })
        #expect(request.ignoredParameters.isEmpty)
    }

    @Test func namesAreMatchedAsSentNotDecoded() {
        #expect(refusal("p%61ges=3") == "pages: required, an integer from 1 to 1000")
        #expect(refusal("PAGES=3") == "pages: required, an integer from 1 to 1000")
    }

    @Test func escapesDecodeInEveryValue() throws {
        let red = RGBA(red: 255, green: 0, blue: 0)
        let expected = spec(pages: 3) { $0.color = red; $0.inactive = red.fading(to: 0.3) }
        #expect(try parsedSpec("pages=%33&style=d%6Fts&color=%23%46f0000") == expected)
    }

    @Test func plusIsASpace() {
        #expect(refusal("pages=3&style=dots+") == #"style: must be one of dots, pill, bar, scroll, progress, fraction; got "dots+""#)
        #expect(refusal("pages=3&style=%2B") == #"style: must be one of dots, pill, bar, scroll, progress, fraction; got "%2B""#)
    }
}
