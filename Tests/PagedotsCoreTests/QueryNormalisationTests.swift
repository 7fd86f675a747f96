import Testing
import PagedotsCore

/// Parameters that do not change the image take no part in the spec, which is the cache's key.
@Suite struct QueryNormalisationTests {
    @Test(arguments: [
        ["current=1&pages=3", "pages=3&current=1&style=dots", "pages=3&current=1&color=%23007aff",
         "pages=3&current=01&color=007AFFFF&inactive=007aff4d&bg=transparent", "pages=3&current=1&colors=%23007AFF",
         "pages=3&current=1&size=8.000&spacing=8.0&padding=4", "pages=3&current=1&visible=9&progress=0.9&labels=a,b,c",
         "pages=3&current=1&stroke=3", "pages=3&current=1&width=48&height=16", "pages=3&current=1&utm_source=x&sig=y",
         "pages=3&current=1&direction=LTR&fill=solid&shape=circle&format=png&scale=1"],
        ["pages=5&style=bar", "pages=5&style=bar&fill=outline&stroke=3&shape=star", "pages=5&style=bar&visible=4"],
        ["pages=5&format=svg", "pages=5&format=svg&scale=4", "pages=5&format=svg&scale=2&stroke=2"],
        ["pages=5&style=scroll&visible=5", "pages=5&style=scroll&visible=05&progress=1&labels=a,b,c,d,e"],
        ["pages=5&style=progress&progress=0.25", "pages=5&style=progress&progress=0.250&visible=3"],
        ["pages=5&size=7.5", "pages=5&size=7.50", "pages=5&size=07.5000"],
        ["pages=5&fill=outline&stroke=2", "pages=5&fill=OUTLINE&stroke=2.0"],
        // A ring half the size thick or more is the whole dot.
        ["pages=5&fill=outline&stroke=4", "pages=5&fill=outline&stroke=5", "pages=5&fill=outline&stroke=8"],
        ["pages=5&size=2&fill=outline&stroke=1", "pages=5&size=2&fill=outline&stroke=3"],
        ["pages=4&current=2&colors=red,green,blue", "pages=4&current=2&color=blue", "pages=4&current=2&color=%2300f"],
        ["pages=3&style=bar&labels=a,b,c", "pages=3&style=bar&labels=a,b,c&shape=heart"],
    ])
    func equivalentURLsGiveOneSpec(queries: [String]) throws {
        let specs = try queries.map { try parsedSpec($0) }
        for (query, spec) in zip(queries, specs) {
            #expect(spec == specs[0], "\(query)")
            #expect(spec.hashValue == specs[0].hashValue, "\(query)")
        }
    }

    @Test func everyDifferentImageGetsADifferentSpec() throws {
        let queries = [
            "pages=5", "pages=6", "pages=5&current=1", "pages=5&style=pill", "pages=5&style=bar", "pages=5&style=scroll",
            "pages=5&style=progress", "pages=5&color=red", "pages=5&inactive=red", "pages=5&bg=white", "pages=5&size=7.5",
            "pages=5&spacing=7.5", "pages=5&padding=7.5", "pages=5&scale=2", "pages=5&direction=rtl", "pages=5&fill=outline",
            "pages=5&fill=outline&stroke=2", "pages=5&shape=star", "pages=5&format=svg", "pages=5&width=81",
            "pages=5&height=17", "pages=5&style=scroll&visible=5", "pages=5&style=progress&progress=0.75",
            "pages=2&style=bar&labels=a,bc", "pages=2&style=bar&labels=ab,c", "pages=2&style=bar&labels=a%3Bb,c",
            "pages=2&style=bar&labels=a,b%3Bc", "pages=2&style=bar&labels=,", "pages=5&width=81&height=17",
        ]
        let specs = try queries.map { try parsedSpec($0) }
        #expect(Set(specs).count == queries.count)
    }

    /// `String` calls a precomposed `é` and `e` + U+0301 equal; a text engine
    /// may draw them differently, so the spec keeps them apart.
    @Test func labelsAreComparedByteForByte() throws {
        let precomposed = try parsedSpec("pages=1&style=bar&labels=%C3%A9")
        let decomposed = try parsedSpec("pages=1&style=bar&labels=e%CC%81")
        #expect(precomposed.labels?.first?.text == decomposed.labels?.first?.text)
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
    }

    @Test func unusedParametersAreResetToTheirDefaults() throws {
        let dots = try parsedSpec("pages=3&visible=9&progress=0.1&labels=a,b,c&stroke=3")
        #expect(dots == IndicatorSpec(pages: 3))

        let bar = try parsedSpec("pages=3&style=bar&fill=outline&stroke=2&shape=star&labels=a,b,c")
        #expect(bar == spec(pages: 3) { $0.style = .bar; $0.labels = ["a", "b", "c"] })

        let svg = try parsedSpec("pages=3&format=svg&scale=3")
        #expect(svg == spec(pages: 3) { $0.format = .svg })
    }

    @Test func fittedWidthAndHeightBecomeNil() throws {
        #expect(try parsedSpec("pages=5&width=80&height=16.0") == IndicatorSpec(pages: 5))
        #expect(try parsedSpec("pages=5&style=pill&width=88").width == nil)
        #expect(try parsedSpec("pages=5&direction=ttb&width=16&height=80") == spec(pages: 5) { $0.direction = .ttb })
        #expect(try parsedSpec("pages=3&size=7.1&width=45.3").width == nil)
        #expect(try parsedSpec("pages=5&width=80.5").width == 80.5)
    }
}
