import Foundation
import Glibc
import Testing
import TestSupport

/// A presets file in a folder of its own, removed with it.
final class PresetsFolder {
    let path: String

    init(_ json: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-presets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try write(json)
    }

    var file: String { path + "/presets.json" }

    func write(_ json: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// What `pagedots ARGUMENTS…` exits with and writes to standard error, for
/// commands that end by themselves.
func runPagedots(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, error: String, output: [UInt8]) {
    let process = Process()
    process.executableURL = ServerProcess.executable
    process.arguments = arguments
    process.environment = environment
    let errors = Pipe()
    let output = Pipe()
    process.standardError = errors
    process.standardOutput = output
    try process.run()
    let written = output.fileHandleForReading.readDataToEndOfFile()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text, Array(written))
}

/// Presets through the real binary (docs/operating.md, "Presets").
@Suite struct PresetsIntegrationTests {
    static let presets = #"{"brand": "style=pill&color=ff2d55&scale=2", "big": "size=12&spacing=10"}"#

    /// The answer to `target` on `client`.
    static func get(_ client: HTTPTestClient, _ target: String, headers: [String] = []) throws -> TestResponse {
        client.request(target, headers: headers)
        return try client.readResponse()
    }

    @Test("preset= stands for its parameters; the URL's own override; an unknown name is a 400")
    func expansion() throws {
        let folder = try PresetsFolder(Self.presets)
        let server = try ServerProcess(["--presets", folder.file])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let viaPreset = try Self.get(client, "/indicator?preset=brand&pages=5&current=2&utm_source=mail")
        #expect(viaPreset.status == 200 && viaPreset.header("x-ignored-parameters") == "utm_source")
        let written = try Self.get(client, "/indicator?pages=5&current=2&style=pill&color=ff2d55&scale=2")
        #expect(written.header("etag") == viaPreset.header("etag") && written.body == viaPreset.body)
        // One cache entry: the written URL was a hit.
        #expect(try MetricsSnapshot(client: client)["pagedots_render_duration_seconds_count"] == 1)
        let blue = try Self.get(client, "/indicator?preset=brand&pages=5&current=2&color=blue")
        #expect(blue.header("etag") == (try Self.get(client, "/indicator?pages=5&current=2&style=pill&color=blue&scale=2")).header("etag"))
        let both = try Self.get(client, "/indicator?preset=brand&preset=big&pages=5")
        #expect(both.header("etag") == (try Self.get(client, "/indicator?pages=5&style=pill&color=ff2d55&scale=2&size=12&spacing=10")).header("etag"))
        let unknown = try Self.get(client, "/indicator?preset=nope&pages=5")
        #expect(unknown.status == 400 && unknown.header("cache-control") == "no-store")
        #expect(unknown.text == "preset: must be the name of one of this service's presets (see /presets.json); got \"nope\"\n")
    }

    @Test("/presets.json lists the presets by name, as the other JSON answers: tagged and gzip-compressed when asked")
    func presetsDocument() throws {
        let folder = try PresetsFolder(Self.presets)
        let server = try ServerProcess(["--presets", folder.file])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let document = try Self.get(client, "/presets.json")
        #expect(document.status == 200 && document.header("content-type") == "application/json")
        #expect(document.header("cache-control") == "public, max-age=60" && document.header("vary") == "Accept-Encoding")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: String])
        #expect(parsed == ["brand": "style=pill&color=ff2d55&scale=2", "big": "size=12&spacing=10"])
        let tag = try #require(document.header("etag"))
        #expect(try Self.get(client, "/presets.json", headers: ["If-None-Match: \(tag)"]).status == 304)
        let compressed = try Self.get(client, "/presets.json", headers: ["Accept-Encoding: gzip"])
        #expect(compressed.header("content-encoding") == "gzip" && compressed.header("etag") == String(tag.dropLast()) + "-gz\"")
        #expect(gunzip(compressed.body) == document.body)
        let metrics = try MetricsSnapshot(client: client)
        #expect(metrics[#"pagedots_requests_total{route="presets",status="200"}"#] == 2)
        #expect(metrics[#"pagedots_requests_total{route="presets",status="304"}"#] == 1)

        let none = try ServerProcess()
        defer { none.stop() }
        let empty = try Self.get(try HTTPTestClient(port: none.port), "/presets.json")
        #expect(empty.status == 200 && empty.text == "{}")
        let refused = try Self.get(try HTTPTestClient(port: none.port), "/indicator?preset=brand&pages=3")
        #expect(refused.status == 400 && refused.text.hasPrefix("preset: must be the name of one of this service's presets"))
    }

    @Test("--only-presets: a URL names a preset and sets only what is allowed; anything else is a 403 naming it")
    func onlyPresets() throws {
        let folder = try PresetsFolder(Self.presets)
        let server = try ServerProcess(["--presets", folder.file, "--only-presets"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        #expect(try Self.get(client, "/indicator@3x.gif?preset=brand&pages=5&current=2&utm_source=x").status == 200)
        #expect(try Self.get(client, "/indicator?preset=brand&pages=5&start=2025-01-01&every=1d&tz=UTC").status == 200)
        for (target, parameter) in [
            ("/indicator?preset=brand&pages=5&color=red", "color"),
            ("/indicator?preset=brand&pages=5&size=20", "size"),
            ("/indicator?pages=5", "preset"),
        ] {
            let refused = try Self.get(client, target)
            #expect(refused.status == 403, "\(target)")
            #expect(refused.text.hasPrefix("\(parameter): "), "\(target)")
            #expect(refused.header("cache-control") == "no-store")
        }
        let environment = try ServerProcess(environment: ["PAGEDOTS_PRESETS": folder.file, "PAGEDOTS_ONLY_PRESETS": "1"])
        defer { environment.stop() }
        #expect(try Self.get(try HTTPTestClient(port: environment.port), "/indicator?pages=5&color=red").status == 403)
    }

    @Test("SIGHUP reads the file again; a bad file keeps the old presets and logs one line")
    func reload() throws {
        let folder = try PresetsFolder(Self.presets)
        let server = try ServerProcess(["--presets", folder.file])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        let target = "/indicator?preset=brand&pages=5&current=2"
        let before = try Self.get(client, target)
        try folder.write(#"{"brand": "style=pill&color=34c759&scale=2", "new-one": "style=bar"}"#)
        server.sendSignal(SIGHUP)
        #expect(server.readErrorLine()?.hasSuffix(" presets read again: 2 presets") == true)
        // The URL answered before is read again under the new presets.
        let after = try Self.get(client, target)
        #expect(after.status == 200 && after.header("etag") != before.header("etag"))
        #expect(after.header("etag") == (try Self.get(client, "/indicator?pages=5&current=2&style=pill&color=34c759&scale=2")).header("etag"))
        #expect(try Self.get(client, "/indicator?preset=new-one&pages=3").status == 200)
        #expect(try Self.get(client, "/presets.json").text.contains("new-one"))

        for (bad, problem) in [
            (#"{"brand": "style=round"}"#, #"preset "brand": style: must be one of"#),
            (#"{"brand": "style=pill""#, "not a JSON object of preset names to query strings"),
            (#"{"Brand!": "style=pill"}"#, #"preset "Brand!": a preset name is 1 to 32 of a-z, 0-9 and -"#),
        ] {
            try folder.write(bad)
            server.sendSignal(SIGHUP)
            let line = try #require(server.readErrorLine())
            #expect(line.contains(" presets not changed: --presets \(folder.file): \(problem)"), "\(line)")
            #expect(try Self.get(client, target).header("etag") == after.header("etag"))
        }
        try FileManager.default.removeItem(atPath: folder.file)
        server.sendSignal(SIGHUP)
        #expect(server.readErrorLine()?.contains("presets not changed: --presets \(folder.file): cannot read it: No such file or directory") == true)
        #expect(try Self.get(client, "/indicator?preset=new-one&pages=3").status == 200)
    }

    @Test("Without a presets file, SIGHUP changes nothing and says so")
    func reloadWithoutAFile() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        server.sendSignal(SIGHUP)
        #expect(server.readErrorLine()?.hasSuffix(" SIGHUP: no --presets file to read again") == true)
        #expect(try Self.get(try HTTPTestClient(port: server.port), "/healthz").status == 200)
    }

    @Test(arguments: [
        (#"{"brand": "color=pinkish"}"#, #"preset "brand": color: must be a color"#),
        (#"["style=pill"]"#, "not a JSON object of preset names to query strings: Expected to decode Dictionary"),
        (#"{"brand": 5}"#, #"not a JSON object of preset names to query strings: preset "brand": Expected to decode String"#),
        ("not json", "not a JSON object of preset names to query strings: The given data was not valid JSON."),
        (#"{"a_b": "style=pill"}"#, #"preset "a_b": a preset name is 1 to 32 of a-z, 0-9 and -"#),
        (#"{"brand": "style=pill&sig=x"}"#, #"preset "brand": "sig": not an image parameter"#),
    ])
    func aBadFileStopsTheStartWithOneLine(json: String, problem: String) throws {
        let folder = try PresetsFolder(json)
        let run = try runPagedots(["serve", "--port", "0", "--presets", folder.file])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("pagedots: --presets \(folder.file): \(problem)"), "\(run.error)")
        #expect(run.error.filter { $0 == "\n" }.count == 1)
    }

    @Test func anUnreadableFileStopsTheStart() throws {
        let run = try runPagedots(["serve", "--port", "0", "--presets", "/nonexistent/presets.json"])
        #expect(run.status == 1)
        #expect(run.error == "pagedots: --presets /nonexistent/presets.json: cannot read it: No such file or directory\n")
    }

    @Test("pagedots render takes presets too")
    func render() throws {
        let folder = try PresetsFolder(Self.presets)
        let viaPreset = try runPagedots(["render", "preset=brand&pages=5&current=2", "--presets", folder.file])
        let written = try runPagedots(["render", "pages=5&current=2&style=pill&color=ff2d55&scale=2"])
        #expect(viaPreset.status == 0 && viaPreset.output == written.output && !written.output.isEmpty)
        let calendar = try runPagedots(["render", "pages=7&start=2025-03-01&every=1d", "--now", "2025-03-03T12:00Z"])
        let third = try runPagedots(["render", "pages=7&current=2"])
        #expect(calendar.status == 0 && calendar.output == third.output)
    }
}
