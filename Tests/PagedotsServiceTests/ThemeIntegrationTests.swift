import Testing
import TestSupport

/// Every promise of docs/parameters.md's "Themes", asked of the running
/// service. (What a browser shows under each colour scheme is checked by
/// `scripts/check-theme`.)
@Suite struct ThemeIntegrationTests {
    /// The answers to `targets`, from one server.
    func answers(_ targets: [String]) throws -> [TestResponse] {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        return try targets.map { target in
            client.request(target)
            return try client.readResponse()
        }
    }

    /// The RGBA of a PNG's pixel.
    func pixel(_ response: TestResponse, _ x: Int, _ y: Int) throws -> [UInt8] {
        let image = try PNGDecoder.decode(response.body)
        let offset = (y * image.width + x) * 4
        return Array(image.rgba[offset..<offset + 4])
    }

    static let darkBlue: [UInt8] = [0x0A, 0x84, 0xFF, 0xFF]

    @Test func darkDrawsTheDarkColoursInEveryFormat() throws {
        let replies = try answers([
            "/indicator?pages=3&current=1&theme=dark",
            "/indicator?pages=3&current=1&color=0a84ff",
            "/indicator.svg?pages=3&current=1&theme=dark",
            "/indicator.svg?pages=3&current=1&color=0a84ff",
            "/indicator?pages=3&current=1&theme=dark&bg=white&darkbg=black&darkcolor=orange",
        ])
        #expect(replies.allSatisfy { $0.status == 200 })
        // The current dot's centre is iOS's dark-mode blue; the two spellings are one image.
        #expect(try pixel(replies[0], 24, 8) == Self.darkBlue)
        #expect(replies[0].body == replies[1].body && replies[0].header("etag") == replies[1].header("etag"))
        #expect(replies[2].text.contains("fill=\"#0a84ff\"") && !replies[2].text.contains("<style"))
        #expect(replies[2].body == replies[3].body)
        #expect(try pixel(replies[4], 0, 0) == [0, 0, 0, 255])
        #expect(try pixel(replies[4], 24, 8) == [0xFF, 0xA5, 0, 0xFF])
    }

    @Test func autoSwitchesInsideTheSVG() throws {
        let replies = try answers([
            "/indicator.svg?pages=3&current=1&theme=auto&bg=white&darkbg=1c1c1e",
            "/indicator?pages=3&current=1&theme=auto",
        ])
        #expect(replies[0].status == 200 && replies[0].header("content-type") == "image/svg+xml")
        let svg = replies[0].text
        #expect(svg.contains("<style>@media (prefers-color-scheme:dark){"))
        #expect(svg.contains("fill=\"#007aff\"") && svg.contains("fill:#0a84ff"))
        #expect(svg.contains("fill=\"#fff\"") && svg.contains("fill:#1c1c1e"))
        // A raster image cannot switch: the 400 says what to use instead.
        #expect(replies[1].status == 400)
        #expect(replies[1].text.hasPrefix("theme: must be light or dark for a png image (auto switches colours only inside an SVG"))
    }

    @Test func autoWithAnAnimationIsA400ThatSaysToUseAPicture() throws {
        let replies = try answers([
            "/indicator.gif?pages=3&current=1&theme=auto",
            "/indicator@2x?pages=3&format=apng&theme=auto",
            "/indicator.apng?pages=3&theme=auto&dwell=1000&effect=fade",
        ])
        for (reply, format) in zip(replies, ["gif", "apng", "apng"]) {
            #expect(reply.status == 400)
            #expect(reply.header("cache-control") == "no-store")
            // An SVG cannot animate, so the way out is one image per theme, not format=svg.
            #expect(reply.text == "theme: must be light or dark for a \(format) image (auto switches colours only inside an SVG, "
                + "which does not animate: use a <picture> with a theme=light and a theme=dark image); got \"auto\"\n")
        }
    }

    @Test func perPageColoursApplyInBothThemes() throws {
        let replies = try answers([
            "/indicator?pages=3&current=2&colors=ff3b30,007aff,34c759&theme=dark",
            "/indicator?pages=3&current=1&colors=ff3b30,007aff,34c759&theme=dark",
            "/indicator.svg?pages=3&current=2&colors=ff3b30,007aff,34c759&theme=auto",
            "/indicator.svg?pages=3&current=1&colors=ff3b30,007aff,34c759&theme=auto",
            "/indicator?pages=3&colors=ff3b30,34c759&darkcolor=white",
        ])
        // A page's colour is the same in the dark (only system blue has a dark shade).
        #expect(try pixel(replies[0], 40, 8) == [0x34, 0xC7, 0x59, 0xFF])
        #expect(try pixel(replies[1], 24, 8) == Self.darkBlue)
        #expect(replies[2].text.contains("#34c759") && !replies[2].text.contains("<style"))
        #expect(replies[3].text.contains("fill:#0a84ff"))
        #expect(replies[4].status == 400 && replies[4].text.hasPrefix("darkcolor: must not be given together with colors"))
    }

    @Test func darkParametersAreValidatedAndIgnoredInTheLightTheme() throws {
        let replies = try answers([
            "/indicator?pages=3&darkcolor=red&darkinactive=blue&darkbg=black",
            "/indicator?pages=3",
            "/indicator?pages=3&darkbg=nope",
        ])
        #expect(replies[0].status == 200 && replies[0].header("etag") == replies[1].header("etag"))
        #expect(replies[2].status == 400)
    }
}
