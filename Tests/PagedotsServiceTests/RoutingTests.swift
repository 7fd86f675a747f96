@testable import HTTPServer
@testable import PagedotsService
import Testing

/// Every kind of path × every kind of method, in process: the status, and
/// whether the request counts as an image request (hit or miss).
@Suite struct RoutingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var path: String
        var query: String = ""
        /// The status for GET and HEAD; any other method gets 405 on a listed path, 404 on another.
        var readStatus: Int
        var isListed = true
        var isImage = false
        var testDescription: String { query.isEmpty ? path : "\(path)?\(query)" }
    }

    static let cases: [Case] = [
        Case(path: "/", readStatus: 200),
        Case(path: "/healthz", readStatus: 200),
        Case(path: "/metrics", readStatus: 200),
        Case(path: "/openapi.json", readStatus: 200),
        Case(path: "/indicator", query: "pages=3", readStatus: 200, isImage: true),
        Case(path: "/indicator@2x.svg", query: "pages=3", readStatus: 200, isImage: true),
        Case(path: "/indicator", query: "pages=0", readStatus: 400, isImage: true),
        Case(path: "/indicator.png", query: "pages=3&format=svg", readStatus: 400, isImage: true),
        Case(path: "/indicator@9x.png", query: "pages=3", readStatus: 400, isImage: true),
        Case(path: "/indicator@1.5x", query: "pages=3", readStatus: 400, isImage: true),
        Case(path: "/nothing", readStatus: 404, isListed: false),
        Case(path: "/indicator/", query: "pages=3", readStatus: 404, isListed: false),
        Case(path: "/Indicator", query: "pages=3", readStatus: 404, isListed: false),
        Case(path: "/indicator.jpg", query: "pages=3", readStatus: 404, isListed: false),
        Case(path: "/healthz/", readStatus: 404, isListed: false),
        Case(path: "*", readStatus: 404, isListed: false),
    ]

    static let methods: [HTTPMethod] = [.get, .head, .post, .other("PUT"), .other("DELETE"), .other("OPTIONS"), .other("BREW")]

    @Test(arguments: cases)
    func everyMethodOnEveryKindOfPath(_ route: Case) {
        let service = PagedotsService(configuration: ServiceConfiguration())
        let answers = RecordedAnswers()
        for method in Self.methods {
            let request = HTTPRequest(method: method, version: .http1_1, path: route.path, query: route.query, headers: [HTTPHeaderField("Host", "test")])
            service.handle(request, responder: answers.responder(method.name))
            answers.waitFor(1)
            let expected = method == .get || method == .head ? route.readStatus : (route.isListed ? 405 : 404)
            #expect(answers.statuses(method.name) == [expected], "\(method.name)")
            if expected == 405 {
                #expect(answers.head(method.name).contains("\r\nAllow: GET, HEAD\r\n"), "\(method.name)")
            }
        }
        // Every image request counted once, as a hit or a miss; nothing else counted.
        let metrics = HTTPRequest(method: .get, version: .http1_1, path: "/metrics", query: "", headers: [HTTPHeaderField("Host", "test")])
        service.handle(metrics, responder: answers.responder("metrics"))
        answers.waitFor(1)
        let counted = Self.counter("pagedots_cache_hits_total", in: answers.body("metrics"))
            + Self.counter("pagedots_cache_misses_total", in: answers.body("metrics"))
        #expect(counted == (route.isImage ? Self.methods.count : 0))
    }

    @Test func aRepeatedImageIsAHitAndEverythingElseAMiss() {
        let service = PagedotsService(configuration: ServiceConfiguration())
        let answers = RecordedAnswers()
        func get(_ path: String, _ query: String, method: HTTPMethod = .get) {
            let request = HTTPRequest(method: method, version: .http1_1, path: path, query: query, headers: [HTTPHeaderField("Host", "test")])
            service.handle(request, responder: answers.responder("\(path)?\(query)"))
            answers.waitFor(1)
        }
        get("/indicator", "pages=3")                      // drawn: miss
        get("/indicator", "pages=3")                      // the URL again: hit
        get("/indicator", "pages=3&current=0")            // another URL, the same image: hit
        get("/indicator", "pages=3", method: .head)       // hit
        get("/indicator", "pages=3", method: .post)  // 405: miss
        get("/indicator", "pages=1000&current=1000")      // 400: miss
        get("/healthz", "")                               // not an image
        get("/metrics", "")
        let body = answers.body("/metrics?")
        #expect(Self.counter("pagedots_cache_hits_total", in: body) == 3)
        #expect(Self.counter("pagedots_cache_misses_total", in: body) == 3)
    }

    /// The value of an unlabelled counter in a Prometheus exposition.
    static func counter(_ name: String, in exposition: String) -> Int {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }
}
