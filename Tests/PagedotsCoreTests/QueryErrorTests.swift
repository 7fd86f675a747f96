import Testing
@testable import PagedotsCore

/// What every colour message says is allowed.
let colorRule = "a color: hex RGB, RGBA, RRGGBB or RRGGBBAA (# optional), a CSS color name, or transparent"

/// Every refusal and its exact one-line message.
@Suite struct QueryErrorTests {
    @Test(arguments: [
        // pages
        ("", "pages: required, an integer from 1 to 1000"),
        ("current=1", "pages: required, an integer from 1 to 1000"),
        ("pages=0", #"pages: must be an integer from 1 to 1000; got "0""#),
        ("pages=1001", #"pages: must be an integer from 1 to 1000; got "1001""#),
        ("pages=+5", #"pages: must be an integer from 1 to 1000; got "+5""#),
        ("pages=%2B5", #"pages: must be an integer from 1 to 1000; got "%2B5""#),
        ("pages=5.0", #"pages: must be an integer from 1 to 1000; got "5.0""#),
        ("pages=-0", #"pages: must be an integer from 1 to 1000; got "-0""#),
        ("pages=", #"pages: must be an integer from 1 to 1000; got """#),
        ("pages", #"pages: must be an integer from 1 to 1000; got """#),
        ("pages=%205", #"pages: must be an integer from 1 to 1000; got "%205""#),
        ("pages=5x", #"pages: must be an integer from 1 to 1000; got "5x""#),
        ("pages=99999999999999999999999999", #"pages: must be an integer from 1 to 1000; got "99999999999999999999999999""#),
        ("pages=%", #"pages: must be percent-encoded as %XX with two hex digits; got "%""#),
        ("pages=%4", #"pages: must be percent-encoded as %XX with two hex digits; got "%4""#),
        ("pages=%G4", #"pages: must be percent-encoded as %XX with two hex digits; got "%G4""#),
        ("pages=5&pages=5", "pages: given more than once"),
        ("pages=5&pages", "pages: given more than once"),
        // current
        ("pages=5&current=5", #"current: must be an integer from 0 to 4 (pages=5); got "5""#),
        ("pages=1&current=1", #"current: must be an integer from 0 to 0 (pages=1); got "1""#),
        ("pages=5&current=-1", #"current: must be an integer from 0 to 4 (pages=5); got "-1""#),
        // enums
        ("pages=5&style=round", #"style: must be one of dots, pill, bar, scroll, progress, fraction; got "round""#),
        ("pages=5&style=", #"style: must be one of dots, pill, bar, scroll, progress, fraction; got """#),
        ("pages=5&direction=up", #"direction: must be one of ltr, rtl, ttb, btt; got "up""#),
        ("pages=5&fill=hollow", #"fill: must be one of solid, outline; got "hollow""#),
        ("pages=5&shape=triangle", #"shape: must be one of circle, square, rounded, diamond, star, heart; got "triangle""#),
        ("pages=5&format=jpeg", #"format: must be one of png, svg, gif, apng; got "jpeg""#),
        // colours
        ("pages=5&color=blu", #"color: must be \#(colorRule); got "blu""#),
        ("pages=5&color=%23ggg", #"color: must be \#(colorRule); got "%23ggg""#),
        ("pages=5&color=12345", #"color: must be \#(colorRule); got "12345""#),
        ("pages=5&color=%23", #"color: must be \#(colorRule); got "%23""#),
        ("pages=5&color=%2523fff", #"color: must be \#(colorRule); got "%2523fff""#),
        ("pages=5&color=red+", #"color: must be \#(colorRule); got "red+""#),
        ("pages=5&color=%ff", #"color: must be UTF-8 once percent-decoded; got "%ff""#),
        ("pages=5&inactive=none", #"inactive: must be \#(colorRule); got "none""#),
        ("pages=5&bg=", #"bg: must be \#(colorRule); got """#),
        // lengths
        ("pages=5&size=1", #"size: must be a number from 2 to 64 (points); got "1""#),
        ("pages=5&size=64.5", #"size: must be a number from 2 to 64 (points); got "64.5""#),
        ("pages=5&size=7.", #"size: must be a number from 2 to 64 (points); got "7.""#),
        ("pages=5&size=.5", #"size: must be a number from 2 to 64 (points); got ".5""#),
        ("pages=5&size=1e1", #"size: must be a number from 2 to 64 (points); got "1e1""#),
        ("pages=5&size=7,5", #"size: must be a number from 2 to 64 (points); got "7,5""#),
        ("pages=5&size=inf", #"size: must be a number from 2 to 64 (points); got "inf""#),
        ("pages=5&spacing=65", #"spacing: must be a number from 0 to 64 (points); got "65""#),
        ("pages=5&padding=-1", #"padding: must be a number from 0 to 64 (points); got "-1""#),
        ("pages=5&scale=5", #"scale: must be an integer from 1 to 4; got "5""#),
        ("pages=5&scale=0", #"scale: must be an integer from 1 to 4; got "0""#),
        ("pages=5&scale=2.0", #"scale: must be an integer from 1 to 4; got "2.0""#),
        // stroke
        ("pages=5&fill=outline&stroke=8.5", #"stroke: must be a number from 0.5 to 8 (points); got "8.5""#),
        ("pages=5&fill=outline&stroke=0.4", #"stroke: must be a number from 0.5 to 8 (points); got "0.4""#),
        ("pages=5&stroke=0", #"stroke: must be a number from 0.5 to 8 (points); got "0""#),
        // colors
        ("pages=5&colors=", "colors: must be 1 to 1000 comma-separated colors; got 0"),
        ("pages=5&colors=red,blu", #"colors: item 2 must be \#(colorRule); got "blu""#),
        ("pages=5&colors=red,,blue", #"colors: item 2 must be \#(colorRule); got """#),
        ("pages=5&colors=red%2Cblue", #"colors: item 1 must be \#(colorRule); got "red%2Cblue""#),
        ("pages=5&colors=red,%2", #"colors: item 2 must be percent-encoded as %XX with two hex digits; got "%2""#),
        ("pages=5&color=red&colors=red", #"colors: must not be given together with color; got "red""#),
        // style-specific
        ("pages=5&visible=2", #"visible: must be an integer from 3 to 25; got "2""#),
        ("pages=5&visible=26", #"visible: must be an integer from 3 to 25; got "26""#),
        ("pages=5&progress=1.5", #"progress: must be a number from 0 to 1; got "1.5""#),
        ("pages=5&progress=0.", #"progress: must be a number from 0 to 1; got "0.""#),
        ("pages=3&labels=a,b", "labels: must be exactly 3 comma-separated labels (one per page: pages=3); got 2"),
        ("pages=3&labels=a,b,c,d", "labels: must be exactly 3 comma-separated labels (one per page: pages=3); got 4"),
        ("pages=3&labels=", "labels: must be exactly 3 comma-separated labels (one per page: pages=3); got 0"),
        ("pages=1&labels=a,b", "labels: must be exactly 1 label (one per page: pages=1); got 2"),
        ("pages=2&labels=a,b%0Ac", #"labels: item 2 must be text without control characters; got "b%0Ac""#),
        ("pages=2&labels=a,%C2%85", #"labels: item 2 must be text without control characters; got "%C2%85""#),
        ("pages=2&labels=%C3,b", #"labels: item 1 must be UTF-8 once percent-decoded; got "%C3""#),
        ("pages=2&labels=a,%zz", #"labels: item 2 must be percent-encoded as %XX with two hex digits; got "%zz""#),
        // width and height: pages=5 fits 80×16 points
        ("pages=5&width=79.5", #"width: must be a number of at least 80 (points; the fitted width); got "79.5""#),
        ("pages=5&width=wide", #"width: must be a number of at least 80 (points; the fitted width); got "wide""#),
        ("pages=5&height=15", #"height: must be a number of at least 16 (points; the fitted height); got "15""#),
        ("pages=5&style=pill&width=80", #"width: must be a number of at least 88 (points; the fitted width); got "80""#),
        ("pages=5&direction=ttb&width=10", #"width: must be a number of at least 16 (points; the fitted width); got "10""#),
        ("pages=5&direction=btt&height=20", #"height: must be a number of at least 80 (points; the fitted height); got "20""#),
        ("pages=3&size=7.1&width=45.2", #"width: must be a number of at least 45.3 (points; the fitted width); got "45.2""#),
    ])
    func refusedWithExactMessage(query: String, message: String) {
        #expect(refusal(query) == message)
    }

    @Test(arguments: [
        // The first bad parameter in the table's order is the one reported.
        ("size=1&pages=0", "pages"),
        ("shape=x&size=1&pages=5", "size"),
        ("size=1&pages=5&pages=5", "pages"),
        ("pages=5&height=1&width=1", "width"),
        ("pages=5&labels=a&visible=1", "visible"),
        ("pages=5&width=1&colors=x", "colors"),
        ("pages=5&format=svg&format=png&scale=9", "scale"),
        ("pages=1000&style=x", "style"),
        ("pages=1000&width=1", "width"),
        ("pages=1000", "image"),
    ])
    func firstBadParameterInTableOrderIsReported(query: String, parameter: String) throws {
        let error = #expect(throws: ParameterError.self) { try IndicatorQuery.parse(query: query[...]) }
        #expect(error?.parameter == parameter)
    }

    @Test func sameURLAlwaysGivesTheSameMessage() {
        let forward = refusal("pages=5&size=1&current=9&style=x")
        let shuffled = refusal("style=x&current=9&size=1&pages=5")
        #expect(forward == #"current: must be an integer from 0 to 4 (pages=5); got "9""#)
        #expect(shuffled == forward)
    }

    @Test func knownParametersInvalidForTheStyleAreStillValidated() {
        #expect(refusal("pages=5&visible=99") == #"visible: must be an integer from 3 to 25; got "99""#)
        #expect(refusal("pages=5&style=bar&shape=blob") == #"shape: must be one of circle, square, rounded, diamond, star, heart; got "blob""#)
        #expect(refusal("pages=5&format=svg&scale=7") == #"scale: must be an integer from 1 to 4; got "7""#)
    }

    @Test(arguments: [
        (Array("a\nb".utf8), #""a%0Ab""#),
        (Array("tab\there".utf8), #""tab%09here""#),
        (Array("über".utf8), #""über""#),
        ([0x61, 0xFF, 0x0A], #""a%FF%0A""#),
        (Array("a\u{2028}b".utf8), #""a%E2%80%A8b""#),
        (Array("%zz".utf8), #""%zz""#),
    ])
    func valuesAreQuotedOnOneLine(raw: [UInt8], quoted: String) {
        #expect(ParameterError.quoted(raw) == quoted)
    }

    @Test func messagesAreOneLineEvenForRawControlBytes() throws {
        let message = try #require(refusal("pages=5&style=a\r\nb"))
        #expect(message == #"style: must be one of dots, pill, bar, scroll, progress, fraction; got "a%0D%0Ab""#)
    }
}
