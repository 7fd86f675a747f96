import Testing
import PagedotsCore

/// Images over 4096 pixels on a side or 4,194,304 pixels in all are refused; the limits are allowed.
@Suite struct QueryLimitsTests {
    static let pngLimits = "image: must be at most 4096 pixels on a side and 4,194,304 pixels in all"

    @Test(arguments: [
        "pages=1&width=4096", "pages=1&height=4096", "pages=1&width=4096.4", "pages=1&width=2048&scale=2",
        "pages=1&width=1024&scale=4", "pages=1&width=2048&height=2048", "pages=1&width=1024&height=1024&scale=2",
        "pages=1&format=svg&width=4096&scale=4", "pages=1&format=svg&width=2048&height=2048",
        "pages=256&size=8&spacing=8&padding=0", "pages=128&size=8&spacing=8&padding=0&scale=2",
    ])
    func theLimitsThemselvesAreAllowed(query: String) throws {
        _ = try IndicatorQuery.parse(query: query[...])
    }

    @Test(arguments: [
        ("pages=1&width=4097", "got 4097x16 pixels (for a long row, try style=scroll)"),
        ("pages=1&height=4097", "got 16x4097 pixels (for a long row, try style=scroll)"),
        ("pages=1&width=4096.5", "got 4097x16 pixels (for a long row, try style=scroll)"),
        ("pages=1&width=2048.5&scale=2", "got 4097x32 pixels (for a long row, try style=scroll)"),
        ("pages=1&width=2049&height=2048", "got 2049x2048 pixels (for a long row, try style=scroll)"),
        ("pages=1&width=1025&height=1024&scale=2", "got 2050x2048 pixels (for a long row, try style=scroll)"),
        ("pages=1000", "got 16000x16 pixels (for a long row, try style=scroll)"),
        ("pages=1000&direction=ttb", "got 16x16000 pixels (for a long row, try style=scroll)"),
        ("pages=129&size=8&spacing=8&padding=0&scale=2", "got 4112x16 pixels (for a long row, try style=scroll)"),
        ("pages=5&style=scroll&width=5000&height=20", "got 5000x20 pixels"),
        ("pages=1&width=99999999999999999999999", "got 1e+23x16 pixels (for a long row, try style=scroll)"),
    ])
    func overTheLimitsIsRefused(query: String, got: String) {
        #expect(refusal(query) == "\(Self.pngLimits); \(got)")
    }

    @Test func svgIsMeasuredInPoints() {
        #expect(refusal("pages=1&format=svg&width=4097&scale=1")
            == "image: must be at most 4096 points on a side and 4,194,304 points in all; got 4097x16 points (for a long row, try style=scroll)")
    }

    @Test func limitErrorNamesTheImage() {
        let error = #expect(throws: ParameterError.self) { try IndicatorQuery.parse(query: "pages=1&width=5000") }
        #expect(error?.parameter == "image")
    }
}
