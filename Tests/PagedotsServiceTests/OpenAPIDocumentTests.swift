import Foundation
import PagedotsCore
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

    /// The carousel paths: POST only.
    static let carouselPaths = ["/carousel", "/carousel.gif", "/carousel.apng"]

    @Test func everyEndpointHasGetAndHead() throws {
        let paths = try #require(try Self.document()["paths"] as? Object)
        let expected = [
            "/indicator", "/indicator.png", "/indicator.svg", "/indicator.gif", "/indicator.apng", "/indicator@{scale}x",
            "/indicator@{scale}x.png", "/indicator@{scale}x.svg", "/indicator@{scale}x.gif", "/indicator@{scale}x.apng",
            "/healthz", "/metrics", "/", "/openapi.json", "/presets.json",
        ]
        #expect(Set(paths.keys) == Set(expected + Self.carouselPaths))
        for path in expected {
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

    @Test("The carousel paths: a POST of a multipart form of slides or a carousel GIF, and every answer")
    func carouselPathsArePostsOfAForm() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        for (path, types) in zip(Self.carouselPaths, [["image/gif", "image/png"], ["image/gif"], ["image/png"]]) {
            let item = try #require(paths[path] as? Object, "\(path)")
            #expect(Set(item.keys) == ["summary", "post"], "\(path)")
            let post = try #require(item["post"] as? Object)
            let body = try #require(post["requestBody"] as? Object)
            #expect(body["required"] as? Bool == true)
            let form = try #require((body["content"] as? Object)?["multipart/form-data"] as? Object)
            let properties = try #require((form["schema"] as? Object)?["properties"] as? Object)
            let slide = try #require(properties["slide"] as? Object)
            #expect(slide["type"] as? String == "array" && slide["minItems"] as? Int == 2 && slide["maxItems"] as? Int == 20)
            #expect((slide["items"] as? Object)?["format"] as? String == "binary")
            #expect((properties["carousel"] as? Object)?["format"] as? String == "binary")
            let responses = try #require(post["responses"] as? Object)
            #expect(Set(responses.keys) == ["200", "400", "403", "405", "408", "413", "414", "415", "429", "503"], "\(path)")
            let ok = try Self.resolved(try #require(responses["200"]), in: document)
            #expect(Set(try #require(ok["content"] as? Object).keys) == Set(types), "\(path)")
            let cacheControl = try Self.resolved(try #require((ok["headers"] as? Object)?["Cache-Control"]), in: document)
            #expect((cacheControl["description"] as? String)?.contains("no-store") == true)
            let notAllowed = try Self.resolved(try #require(responses["405"]), in: document)
            #expect((notAllowed["headers"] as? Object)?["Allow"] != nil)
            for status in ["400", "408", "413", "415"] {
                let refusal = try Self.resolved(try #require(responses[status]), in: document)
                #expect((refusal["content"] as? Object)?["text/plain"] != nil, "\(path) \(status)")
            }
            // The table, the carousel's own parameters included; pages is optional (the slides count).
            let names = try #require(post["parameters"] as? [Any]).map { try Self.resolved($0, in: document)["name"] as? String }
            #expect(names == Parameter.all.map(\.name.rawValue), "\(path)")
            #expect(["change", "place", "inset", "backdrop", "fit"].allSatisfy(names.contains), "\(path)")
            let pages = try Self.resolved(try #require(post["parameters"] as? [Any])[0], in: document)
            #expect(pages["required"] as? Bool == false)
        }
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
