import Foundation
import PagedotsCore
import PagedotsDecode
import Testing
import TestSupport
@testable import PagedotsService

/// `/openapi.json` tells the truth: its image parameters are the parser's
/// table, every endpoint of the README is there, and the served bytes are the document.
@Suite struct OpenAPIDocumentTests {
    typealias Object = [String: Any]

    static func document() throws -> Object {
        let data = Data(OpenAPIDocument.json.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? Object)
    }

    /// Follows `{"$ref": "#/components/…"}` within the document.
    static func resolved(_ value: Any, in document: Object) throws -> Object {
        let object = try #require(value as? Object)
        guard let reference = object["$ref"] as? String else { return object }
        var target: Any = document
        for key in reference.dropFirst(2).split(separator: "/") {
            target = try #require((target as? Object)?[String(key)], "dangling \(reference)")
        }
        return try #require(target as? Object)
    }

    /// A path item's query parameters by name, in order.
    static func queryParameters(of path: String, in document: Object) throws -> [(name: String, parameter: Object)] {
        let paths = try #require(document["paths"] as? Object)
        let item = try #require(paths[path] as? Object, "\(path) missing")
        let parameters = try #require(item["parameters"] as? [Any])
        return try parameters.map { try resolved($0, in: document) }
            .filter { $0["in"] as? String == "query" }
            .map { (name: try #require($0["name"] as? String), parameter: $0) }
    }

    /// The query parameters of an image URL that are not in the table, after its rows.
    static let requestParameters = ["preset", "expires", "sig"]

    @Test func isOpenAPI31WithTheServiceVersion() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        #expect((document["info"] as? Object)?["version"] as? String == pagedotsVersion)
    }

    @Test func imageParametersAreTheParserTable() throws {
        let document = try Self.document()
        let parameters = try Self.queryParameters(of: "/indicator", in: document)
        #expect(parameters.map(\.name) == Parameter.all.map(\.name.rawValue) + Self.requestParameters)
        let preset = try #require(parameters.first { $0.name == "preset" }?.parameter)
        #expect(preset["explode"] as? Bool == true && (preset["schema"] as? Object)?["type"] as? String == "array")
        for (row, (_, object)) in zip(Parameter.all, parameters) {
            let name = row.name.rawValue
            #expect(object["required"] as? Bool == (row.defaultValue == .required), "\(name) required")
            let schema = try #require(object["schema"] as? Object)
            switch row.kind {
            case .integer(let range):
                #expect(schema["type"] as? String == "integer", "\(name)")
                #expect(schema["minimum"] as? Int == range.lowerBound, "\(name)")
                #expect(schema["maximum"] as? Int == range.upperBound, "\(name)")
            case .multiple(let step, let range):
                #expect(schema["type"] as? String == "integer", "\(name)")
                #expect(schema["minimum"] as? Int == range.lowerBound && schema["maximum"] as? Int == range.upperBound, "\(name)")
                #expect(schema["multipleOf"] as? Int == step, "\(name)")
            case .decimal(let range):
                #expect(schema["type"] as? String == "number", "\(name)")
                #expect((schema["minimum"] as? NSNumber)?.doubleValue == range?.lowerBound ?? 0, "\(name)")
                #expect((schema["maximum"] as? NSNumber)?.doubleValue == range?.upperBound, "\(name)")
            case .choice(let words):
                #expect(schema["type"] as? String == "string", "\(name)")
                #expect(schema["enum"] as? [String] == words, "\(name)")
            case .color:
                #expect(schema["pattern"] as? String == Parameter.colorPattern, "\(name)")
            case .colorList(let count):
                #expect(schema["type"] as? String == "array", "\(name)")
                #expect(schema["minItems"] as? Int == count.lowerBound && schema["maxItems"] as? Int == count.upperBound, "\(name)")
                #expect(object["style"] as? String == "form" && object["explode"] as? Bool == false, "\(name)")
            case .textList:
                #expect(schema["type"] as? String == "array", "\(name)")
                #expect(object["style"] as? String == "form" && object["explode"] as? Bool == false, "\(name)")
            case .dateTime:
                #expect(schema["pattern"] as? String == Parameter.dateTimePattern, "\(name)")
            case .period, .timeZone, .dimensions, .byteCount:
                #expect(schema["type"] as? String == "string" && schema["pattern"] is String, "\(name)")
            }
            if case .value(let text) = row.defaultValue {
                let documented = try #require(schema["default"], "\(name) has no default")
                #expect("\(documented)" == text || (documented as? NSNumber)?.doubleValue == Double(text), "\(name) default")
            } else {
                #expect(schema["default"] == nil, "\(name) default")
            }
        }
    }

    /// Every value the schema's pattern allows for a color must at least be
    /// written the way the parser reads colors: these samples agree both ways.
    @Test(arguments: ["007AFF", "#0af", "%230af", "fff8", "00000080", "Red", "transparent", "0a", "#12345", "rgb(0,0,0)", ""])
    func colorPatternAgreesWithTheParserOnSamples(sample: String) throws {
        let decoded = sample.removingPercentEncoding ?? sample
        let matches = decoded.range(of: Parameter.colorPattern, options: .regularExpression) != nil
        let parses = (try? IndicatorQuery.parse(query: Substring("pages=2&color=\(sample)"))) != nil
        #expect(matches == parses)
    }

    /// The carousel paths: GET and HEAD of slide URLs, POST of files.
    static let carouselPaths = ["/carousel", "/carousel.gif", "/carousel.apng"]
    /// The formats of each carousel path's answer.
    static let carouselTypes = [["image/gif", "image/png"], ["image/gif"], ["image/png"]]

    @Test func everyEndpointHasGetAndHead() throws {
        let paths = try #require(try Self.document()["paths"] as? Object)
        let expected = [
            "/indicator", "/indicator.png", "/indicator.svg", "/indicator.gif", "/indicator.apng", "/indicator@{scale}x",
            "/indicator@{scale}x.png", "/indicator@{scale}x.svg", "/indicator@{scale}x.gif", "/indicator@{scale}x.apng",
            "/healthz", "/metrics", "/", "/openapi.json", "/presets.json",
        ]
        #expect(Set(paths.keys) == Set(expected + Self.carouselPaths))
        for path in expected + Self.carouselPaths {
            let item = try #require(paths[path] as? Object)
            #expect(item["get"] != nil && item["head"] != nil, "\(path)")
        }
    }

    @Test func imageAnswersDocumentTheirHeadersAndTypes() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        for (path, types) in [
            ("/indicator", ["image/png", "image/svg+xml", "image/gif"]), ("/indicator.png", ["image/png"]),
            ("/indicator.apng", ["image/png"]), ("/indicator@{scale}x.svg", ["image/svg+xml"]),
        ] {
            let get = try #require((paths[path] as? Object)?["get"] as? Object)
            let responses = try #require(get["responses"] as? Object)
            #expect(Set(responses.keys).isSuperset(of: ["200", "304", "400", "403", "429", "503"]), "\(path)")
            let ok = try Self.resolved(try #require(responses["200"]), in: document)
            #expect(Set(try #require(ok["content"] as? Object).keys) == Set(types), "\(path)")
            let headers = try #require(ok["headers"] as? Object)
            for name in ["ETag", "Cache-Control", "Content-Length"] {
                #expect(try Self.resolved(try #require(headers[name]), in: document)["required"] as? Bool == true, "\(path) \(name)")
            }
            let bad = try Self.resolved(try #require(responses["400"]), in: document)
            #expect((bad["content"] as? Object)?["text/plain"] != nil)
        }
    }

    @Test func aSuffixNarrowsTheFormatParameter() throws {
        let document = try Self.document()
        for format in ImageFormat.allCases {
            let parameters = try Self.queryParameters(of: "/indicator.\(format.rawValue)", in: document)
            let formatParameter = try #require(parameters.first { $0.name == "format" }?.parameter)
            #expect((formatParameter["schema"] as? Object)?["enum"] as? [String] == [format.rawValue])
            #expect(parameters.map(\.name) == Parameter.all.map(\.name.rawValue) + Self.requestParameters)
        }
    }

    /// A response's header, resolved.
    static func header(_ name: String, of response: Object, in document: Object) throws -> Object {
        try resolved(try #require((response["headers"] as? Object)?[name], "no \(name)"), in: document)
    }

    /// What every carousel answer says of itself: its size in points, always
    /// (a fraction allowed), and what a budget chose, when there is one.
    static func expectCarouselHeaders(of ok: Object, in document: Object) throws {
        let size = try header("X-Carousel-Size", of: ok, in: document)
        #expect(size["required"] as? Bool == true)
        let pattern = try #require((size["schema"] as? Object)?["pattern"] as? String)
        for (sample, valid) in [("600x450", true), ("400.5x300", true), ("600", false), ("600x", false), ("-1x2", false)] {
            #expect((sample.range(of: pattern, options: .regularExpression) != nil) == valid, "\(sample)")
        }
        let encoding = try header("X-Carousel-Encoding", of: ok, in: document)
        #expect(encoding["required"] as? Bool == false)
        #expect((encoding["description"] as? String)?.contains("scale=1.5; steps=3; colors=64; loss=20") == true)
        #expect(try header("ETag", of: ok, in: document)["required"] as? Bool == true)
    }

    /// The 405 of a carousel path: `Allow: GET, HEAD, POST`.
    static func expectMethodNotAllowed(in responses: Object, document: Object) throws {
        let notAllowed = try resolved(try #require(responses["405"]), in: document)
        let allow = try header("Allow", of: notAllowed, in: document)
        #expect((allow["description"] as? String)?.contains("GET, HEAD, POST") == true)
        #expect(allow["required"] as? Bool == true)
    }

    @Test("The carousel paths: a POST of a multipart form of slides or a carousel GIF, never cached, and every answer")
    func carouselPathsArePostsOfAForm() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        for (path, types) in zip(Self.carouselPaths, Self.carouselTypes) {
            let item = try #require(paths[path] as? Object, "\(path)")
            #expect(Set(item.keys) == ["summary", "get", "head", "post"], "\(path)")
            let post = try #require(item["post"] as? Object)
            let body = try #require(post["requestBody"] as? Object)
            #expect(body["required"] as? Bool == true)
            let form = try #require((body["content"] as? Object)?["multipart/form-data"] as? Object)
            let properties = try #require((form["schema"] as? Object)?["properties"] as? Object)
            let slide = try #require(properties["slide"] as? Object)
            #expect(slide["type"] as? String == "array" && slide["minItems"] as? Int == 2 && slide["maxItems"] as? Int == 20)
            #expect((slide["items"] as? Object)?["format"] as? String == "binary")
            #expect((properties["carousel"] as? Object)?["format"] as? String == "binary")
            // Every format the decoders read, from ImageKind.
            let slideTypes = try #require(((form["encoding"] as? Object)?["slide"] as? Object)?["contentType"] as? String)
            #expect(slideTypes == ImageKind.allCases.map(\.mediaType).joined(separator: ", "))
            let responses = try #require(post["responses"] as? Object)
            #expect(Set(responses.keys) == ["200", "400", "403", "405", "408", "413", "414", "415", "422", "429", "503"], "\(path)")
            let ok = try Self.resolved(try #require(responses["200"]), in: document)
            #expect(Set(try #require(ok["content"] as? Object).keys) == Set(types), "\(path)")
            let cacheControl = try Self.header("Cache-Control", of: ok, in: document)
            #expect((cacheControl["description"] as? String)?.contains("no-store") == true)
            try Self.expectCarouselHeaders(of: ok, in: document)
            try Self.expectMethodNotAllowed(in: responses, document: document)
            for status in ["400", "408", "413", "415", "422"] {
                let refusal = try Self.resolved(try #require(responses[status]), in: document)
                #expect((refusal["content"] as? Object)?["text/plain"] != nil, "\(path) \(status)")
            }
            let unsupported = try Self.resolved(try #require(responses["415"]), in: document)
            #expect((unsupported["description"] as? String)?.contains("not a \(ImageKind.allNames)") == true)
            // The table, the carousel's own parameters included, then those that say how to read it; pages is optional (the slides count).
            let names = try #require(post["parameters"] as? [Any]).map { try Self.resolved($0, in: document)["name"] as? String }
            #expect(names == Parameter.all.map(\.name.rawValue) + Self.requestParameters, "\(path)")
            let pages = try Self.resolved(try #require(post["parameters"] as? [Any])[0], in: document)
            #expect(pages["required"] as? Bool == false)
        }
    }

    @Test("The carousel paths: a GET and a HEAD of slide URLs (an array, exploded) or a carousel URL, cacheable, and every answer")
    func carouselPathsHaveAGetOfSlideURLs() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        for (path, types) in zip(Self.carouselPaths, Self.carouselTypes) {
            for method in ["get", "head"] {
                let operation = try #require((paths[path] as? Object)?[method] as? Object, "\(path) \(method)")
                #expect(operation["requestBody"] == nil)
                let parameters = try #require(operation["parameters"] as? [Any]).map { try Self.resolved($0, in: document) }
                let names = parameters.map { $0["name"] as? String }
                #expect(names == ["slide", "carousel"] + Parameter.all.map(\.name.rawValue) + Self.requestParameters + ["If-None-Match"], "\(path)")
                let slide = parameters[0]
                #expect(slide["in"] as? String == "query" && slide["style"] as? String == "form" && slide["explode"] as? Bool == true)
                let slides = try #require(slide["schema"] as? Object)
                #expect(slides["type"] as? String == "array" && slides["minItems"] as? Int == 2 && slides["maxItems"] as? Int == 20)
                #expect((slides["items"] as? Object)?["type"] as? String == "string")
                #expect((parameters[1]["schema"] as? Object)?["type"] as? String == "string")
                let responses = try #require(operation["responses"] as? Object)
                #expect(Set(responses.keys) == [
                    "200", "304", "400", "403", "404", "405", "413", "414", "415", "422", "429", "502", "503", "504",
                ], "\(path)")
                let ok = try Self.resolved(try #require(responses["200"]), in: document)
                #expect(Set(try #require(ok["content"] as? Object).keys) == Set(types), "\(path)")
                let cacheControl = try Self.header("Cache-Control", of: ok, in: document)
                #expect((cacheControl["description"] as? String)?.hasPrefix("`public, max-age=N`") == true)
                #expect(cacheControl["required"] as? Bool == true)
                try Self.expectCarouselHeaders(of: ok, in: document)
                try Self.expectMethodNotAllowed(in: responses, document: document)
                for status in ["403", "404", "413", "502", "504"] {
                    let refusal = try Self.resolved(try #require(responses[status]), in: document)
                    #expect((refusal["description"] as? String)?.contains("slide") == true, "\(path) \(status)")
                    #expect(try Self.header("Cache-Control", of: refusal, in: document)["description"] as? String == "`no-store`: refusals are never cached.")
                }
            }
        }
    }

    /// A carousel's `scale` is 1…4 in quarters: its schema and the parser agree on samples.
    @Test(arguments: ["1", "1.25", "1.5", "2", "3.75", "4", "0.75", "1.3", "4.25", "2.125", "0", "5"])
    func carouselScaleSchemaAgreesWithTheParser(sample: String) throws {
        let document = try Self.document()
        let post = try #require(((document["paths"] as? Object)?["/carousel.gif"] as? Object)?["post"] as? Object)
        let parameters = try #require(post["parameters"] as? [Any]).map { try Self.resolved($0, in: document) }
        let schema = try #require(parameters.first { $0["name"] as? String == "scale" }?["schema"] as? Object)
        #expect(schema["type"] as? String == "number" && schema["default"] as? Int == 2)
        let value = try #require(Double(sample))
        let minimum = try #require((schema["minimum"] as? NSNumber)?.doubleValue)
        let maximum = try #require((schema["maximum"] as? NSNumber)?.doubleValue)
        let step = try #require((schema["multipleOf"] as? NSNumber)?.doubleValue)
        let allowed = value >= minimum && value <= maximum && (value / step).rounded() == value / step
        let source = CarouselSource.slides(count: 3, width: 1200, height: 600)
        let parses = (try? CarouselQuery.parse(query: Substring("scale=\(sample)"), options: PathOptions(), source: source)) != nil
        #expect(allowed == parses)
    }

    /// Every budget the schema allows is written the way the parser reads one (and the carousel's slidesize).
    @Test(arguments: [("budget", "1M", true), ("budget", "750k", true), ("budget", "1.5M", true), ("budget", "1e6", false), ("budget", "1 M", false),
                      ("slidesize", "600", true), ("slidesize", "600x300", true), ("slidesize", "600X300", false), ("slidesize", "x300", false)])
    func carouselSchemasAgreeWithTheParser(name: String, sample: String, valid: Bool) throws {
        let document = try Self.document()
        let parameter = try Self.resolved(["$ref": "#/components/parameters/\(name)"] as Object, in: document)
        let pattern = try #require((parameter["schema"] as? Object)?["pattern"] as? String)
        #expect((sample.range(of: pattern, options: .regularExpression) != nil) == valid)
        let source = CarouselSource.slides(count: 3, width: 1200, height: 600)
        let query = "\(name)=\(sample.replacingOccurrences(of: " ", with: "%20"))"
        #expect(((try? CarouselQuery.parse(query: Substring(query), options: PathOptions(), source: source)) != nil) == valid)
    }

    @Test func jsonTextEscapesWhatHTMLAndJSONNeed() throws {
        let value: JSONValue = ["a\"b": "</script>&\n\u{1}", "n": .number(0.5), "i": 8, "list": [true, .number(2)]]
        #expect(value.serialized == #"{"a\"b":"\u003c/script\u003e\u0026\n\u0001","n":0.5,"i":8,"list":[true,2]}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(value.serialized.utf8)) is Object)
    }

    @Test func servedWithItsTypeAndForHead() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/openapi.json")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.text == OpenAPIDocument.json)
        client.request("/openapi.json", method: "HEAD")
        let head = try client.readResponse(bodyless: true)
        #expect(head.header("content-length") == String(response.body.count))
    }
}
