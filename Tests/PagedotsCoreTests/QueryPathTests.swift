import Testing
import PagedotsCore

/// Image paths, their suffixes, and suffixes that disagree with the query.
@Suite struct QueryPathTests {
    @Test(arguments: [
        ("/indicator", PathOptions()),
        ("/indicator.png", PathOptions(format: .png)),
        ("/indicator.svg", PathOptions(format: .svg)),
        ("/indicator@1x", PathOptions(scale: 1)),
        ("/indicator@2x", PathOptions(scale: 2)),
        ("/indicator@02x", PathOptions(scale: 2)),
        ("/indicator@3x.png", PathOptions(format: .png, scale: 3)),
        ("/indicator@4x.svg", PathOptions(format: .svg, scale: 4)),
        ("/indicator@%32x", PathOptions(scale: 2)),
        ("/indicator.gif", PathOptions(format: .gif)),
        ("/indicator.apng", PathOptions(format: .apng)),
        ("/indicator@2x.gif", PathOptions(format: .gif, scale: 2)),
        ("/indicator@3x.apng", PathOptions(format: .apng, scale: 3)),
    ])
    func imagePaths(path: String, options: PathOptions) throws {
        #expect(try IndicatorQuery.pathOptions(forPath: path[...]) == options)
    }

    @Test(arguments: [
        "/", "", "/indicators", "/indicatorx", "/Indicator", "/indicator/", "/indicator.PNG", "/indicator.GIF", "/indicator.apng.png",
        "/indicator.", "/indicator@", "/indicator@2", "/indicator@2x.", "/indicator@2X", "/indicator.png.png",
        "/indicator.svg@2x", "/x/indicator", "/indicator.xapng", "/indicator@2xapng", "/indicator.apn",
    ])
    func otherPathsAreNotImagePaths(path: String) throws {
        #expect(try IndicatorQuery.pathOptions(forPath: path[...]) == nil)
    }

    @Test(arguments: [
        ("/indicator@5x", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "5""#),
        ("/indicator@0x.png", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "0""#),
        ("/indicator@99999999999999999999x.svg",
         #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "99999999999999999999""#),
        // Not an integer: still an @Nx path, so about scale rather than not found.
        ("/indicator@1.5x.png", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "1.5""#),
        ("/indicator@x", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got """#),
        ("/indicator@-1x", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "-1""#),
        ("/indicator@+2x", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "+2""#),
        ("/indicator@2x@2x", #"scale: must be an integer from 1 to 4 (in the path's @Nx); got "2x@2""#),
    ])
    func scaleSuffixOutOfRangeIsAboutScale(path: String, message: String) {
        let error = #expect(throws: ParameterError.self) { try IndicatorQuery.pathOptions(forPath: path[...]) }
        #expect(error?.parameter == "scale")
        #expect(error?.description == message)
    }

    @Test(arguments: [
        (PathOptions(format: .png), "pages=3&format=svg", #"format: must be png to agree with the path's .png; got "svg""#),
        (PathOptions(format: .svg), "pages=3&format=png", #"format: must be svg to agree with the path's .svg; got "png""#),
        (PathOptions(scale: 2), "pages=3&scale=3", #"scale: must be 2 to agree with the path's @2x; got "3""#),
        (PathOptions(format: .svg, scale: 1), "pages=3&scale=4", #"scale: must be 1 to agree with the path's @1x; got "4""#),
    ])
    func suffixThatDisagreesWithTheQueryIsRefused(options: PathOptions, query: String, message: String) {
        #expect(refusal(query, options: options) == message)
    }

    @Test func suffixThatAgreesWithTheQueryIsFine() throws {
        #expect(try parsedSpec("pages=3&format=PNG", options: PathOptions(format: .png)) == IndicatorSpec(pages: 3))
        #expect(try parsedSpec("pages=3&scale=02", options: PathOptions(scale: 2)).scale == 2)
        #expect(try parsedSpec("pages=3&format=svg", options: PathOptions(format: .svg)).format == .svg)
    }

    @Test func suffixSetsFormatAndScale() throws {
        #expect(try parsedSpec("pages=3", options: PathOptions(scale: 3)) == spec(pages: 3) { $0.scale = 3 })
        #expect(try parsedSpec("pages=3", options: PathOptions(format: .svg)) == spec(pages: 3) { $0.format = .svg })
    }

    @Test func scaleDoesNotApplyToSVG() throws {
        let fromPath = try parsedSpec("pages=3", options: PathOptions(format: .svg, scale: 3))
        let fromQuery = try parsedSpec("pages=3&format=svg&scale=3")
        #expect(fromPath.scale == 1)
        #expect(fromQuery == fromPath)
    }

    @Test func pathAndQueryGiveTheSameSpec() throws {
        let fromPath = try IndicatorQuery.pathOptions(forPath: "/indicator@2x.png")
        #expect(try parsedSpec("pages=3", options: try #require(fromPath)) == parsedSpec("pages=3&scale=2&format=png"))
    }
}

@Suite struct RenderTargetTests {
    @Test(arguments: [
        ("pages=5&current=2", "/indicator", "pages=5&current=2"),
        ("?pages=5", "/indicator", "pages=5"),
        ("/indicator@2x.png?pages=5", "/indicator@2x.png", "pages=5"),
        ("/indicator.svg", "/indicator.svg", ""),
        ("http://localhost:8080/indicator?pages=3", "/indicator", "pages=3"),
    ])
    func splitsQueriesPathsAndURLs(target: String, path: String, query: String) {
        let split = IndicatorQuery.split(target: Substring(target))
        #expect(split.path == Substring(path))
        #expect(split.query == Substring(query))
    }
}
