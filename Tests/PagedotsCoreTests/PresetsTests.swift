import Testing
@testable import PagedotsCore

/// Presets: checking a file's queries, and expanding `preset=` in a URL.
@Suite struct PresetsTests {
    static let presets: Presets = {
        do {
            return try Presets([
                "brand": "style=pill&color=ff2d55&scale=2",
                "big": "size=12&spacing=10",
                "advent": "pages=24&start=2025-12-01&every=1d&tz=Europe/Berlin",
            ], zones: SystemZones())
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    static func expanded(_ query: String) throws -> String {
        String(try presets.expand(QueryDirectives(query[...])))
    }

    @Test func presetsComeFirstAndLaterOnesOverride() throws {
        #expect(try Self.expanded("pages=5") == "pages=5")
        #expect(try Self.expanded("preset=brand&pages=5&current=2") == "style=pill&color=ff2d55&scale=2&pages=5&current=2")
        // The URL's own parameters override the preset's.
        #expect(try Self.expanded("preset=brand&pages=5&color=blue") == "style=pill&scale=2&pages=5&color=blue")
        // A later preset overrides an earlier one.
        let both = try Self.expanded("pages=5&preset=brand&preset=big")
        #expect(both == "style=pill&color=ff2d55&scale=2&size=12&spacing=10&pages=5")
        let overriding = try Presets(["a": "style=pill&size=10", "b": "size=12"], zones: SystemZones())
        #expect(String(try overriding.expand(QueryDirectives("pages=3&preset=a&preset=b"))) == "style=pill&size=12&pages=3")
        #expect(String(try overriding.expand(QueryDirectives("pages=3&preset=b&preset=a"))) == "style=pill&size=10&pages=3")
    }

    @Test func theImageIsThatOfTheExpandedParameters() throws {
        let viaPreset = try IndicatorQuery.parse(query: Self.presets.expand(QueryDirectives("preset=brand&pages=5&current=2&utm_source=x")))
        let written = try IndicatorQuery.parse(query: "pages=5&current=2&style=pill&color=FF2D55&scale=2")
        #expect(viaPreset.spec == written.spec)
        #expect(viaPreset.ignoredParameters == ["utm_source"])
        // A URL's own parameter given twice is still an error.
        #expect(throws: ParameterError.givenTwice(.pages)) { try IndicatorQuery.parse(query: Self.presets.expand(QueryDirectives("preset=big&pages=5&pages=5"))) }
    }

    @Test func unknownNamesAndBadDirectives() throws {
        #expect(throws: ParameterError(parameter: "preset", description: #"preset: must be the name of one of this service's presets (see /presets.json); got "nope""#)) {
            try Self.expanded("preset=nope&pages=5")
        }
        #expect(throws: ParameterError(parameter: "preset", description: #"preset: must be the name of one of this service's presets (see /presets.json); got "Brand""#)) {
            try Self.expanded("preset=Brand&pages=5")
        }
        #expect(try Self.expanded("preset=%62rand&pages=5") == "style=pill&color=ff2d55&scale=2&pages=5")
        #expect(throws: ParameterError(parameter: "expires", description: "expires: given more than once")) {
            try QueryDirectives("pages=5&expires=1&expires=2")
        }
        #expect(throws: ParameterError(parameter: "expires", description: #"expires: must be an integer from 0 to 253402300799 (seconds since 1970, UTC); got "-1""#)) {
            try QueryDirectives("pages=5&expires=-1")
        }
        #expect(throws: ParameterError.self) { try QueryDirectives("pages=5&expires=253402300800") }
        let directives = try QueryDirectives("pages=5&expires=1767225600&preset=a&preset=b&utm_source=x")
        #expect(directives.expires == 1_767_225_600 && directives.presetNames == ["a", "b"])
        #expect(directives.rest == "pages=5&utm_source=x" && directives.ownNames == ["pages", "utm_source"])
    }

    @Test func onlyPresets() throws {
        #expect(throws: Never.self) { try Presets.checkOnlyPresets(QueryDirectives("preset=brand&pages=5&current=2&format=gif&scale=3&labels=a&utm_source=x&expires=9")) }
        #expect(throws: Never.self) { try Presets.checkOnlyPresets(QueryDirectives("preset=brand&pages=5&start=2025-01-01&every=1d&tz=UTC")) }
        let notAllowed = "not allowed here: this service draws only its presets (see /presets.json); a URL may set preset, pages, current, start, every, tz, scale, format, labels, expires and sig"
        #expect(throws: ParameterError(parameter: "color", description: "color: " + notAllowed)) {
            try Presets.checkOnlyPresets(QueryDirectives("preset=brand&pages=5&color=red"))
        }
        #expect(throws: ParameterError(parameter: "preset", description: "preset: required: this service draws only its presets (see /presets.json)")) {
            try Presets.checkOnlyPresets(QueryDirectives("pages=5"))
        }
    }

    @Test(arguments: [
        (["Brand": "style=pill"], #"preset "Brand": a preset name is 1 to 32 of a-z, 0-9 and -"#),
        (["": "style=pill"], #"preset "": a preset name is 1 to 32 of a-z, 0-9 and -"#),
        ([String(repeating: "a", count: 33): "style=pill"], #"preset "\#(String(repeating: "a", count: 33))": a preset name is 1 to 32 of a-z, 0-9 and -"#),
        (["brand": "style=round"], #"preset "brand": style: must be one of dots, pill, bar, scroll, progress, fraction; got "round""#),
        (["brand": "colour=red"], #"preset "brand": "colour": not an image parameter (see docs/parameters.md)"#),
        (["brand": "preset=other"], #"preset "brand": "preset": not an image parameter (see docs/parameters.md)"#),
        (["brand": "size=10&size=12"], "preset \"brand\": size: given more than once"),
        (["brand": "tz=Mars/Olympus"], #"preset "brand": tz: must be an IANA time zone name, like Europe/Berlin or America/New_York; got "Mars/Olympus""#),
        (["brand": "pages=3&current=5"], #"preset "brand": current: must be an integer from 0 to 2 (pages=3); got "5""#),
        (["brand": "labels=a,b%0A"], #"preset "brand": labels: item 2 must be text without control characters; got "b%0A""#),
    ])
    func badPresets(queries: [String: String], message: String) {
        #expect(throws: PresetError.self) { try Presets(queries, zones: SystemZones()) }
        do {
            _ = try Presets(queries, zones: SystemZones())
        } catch {
            #expect(error.description == message)
        }
    }
}
