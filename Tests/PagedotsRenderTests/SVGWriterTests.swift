import Glibc
import Testing
import PagedotsCore
@testable import PagedotsRender

/// The SVG draws what the PNG draws: checked by rasterising it with an
/// independent renderer, `rsvg-convert` (Debian package `librsvg2-bin`),
/// which also rejects a document that is not well-formed XML.
struct SVGWriterTests {
    static let cases = GoldenTests.cases.filter { golden in
        ["dots-2x", "dots-colors-bg-2x", "pill-outline-3x", "shape-star-outline-ttb-2x", "shape-heart-3x",
         "scroll-middle-2x", "progress-outline-rounded-2x", "progress-rtl-1x", "bar-labels-2x",
         "bar-labels-long-rtl-2x", "bar-labels-ttb-dark-2x"].contains(golden.name)
    } + GoldenTests.scriptCases

    @Test(arguments: cases)
    func rasterisedSVGMatchesThePNG(_ golden: GoldenTests.Case) throws {
        try expectSVGMatchesPNG(golden.spec, golden.name)
    }

    @Test func translucentTitlesMatchThePNG() throws {
        // Joined Arabic letters overlap: the title's alpha applies to its
        // glyphs as a group in both, so the overlaps are not darker.
        try expectSVGMatchesPNG(spec(pages: 2) {
            $0.style = .bar; $0.current = 0; $0.scale = 3; $0.labels = ["بحث", "Search"]
            $0.color = RGBA(red: 0, green: 0x7A, blue: 0xFF, alpha: 0x80)
        }, "translucent Arabic title")
    }

    /// The spec's SVG, rasterised by rsvg-convert at its scale, is within 3 per channel of its PNG.
    private func expectSVGMatchesPNG(_ spec: IndicatorSpec, _ name: String) throws {
        let drawing = IndicatorLayout.drawing(for: spec)
        let png = RasterRenderer().render(drawing, scale: spec.scale)
        let rasterised = try Rasteriser.rsvg(SVGWriter().svg(for: drawing), zoom: spec.scale)
        let difference = TestImages.largestDifference(png, rasterised)
        #expect(difference.map { $0 <= 3 } == true, "\(name): differs by \(difference.map(String.init) ?? "size")")
    }

    @Test func rsvgRejectsMalformedXML() {
        let failure = #expect(throws: Rasteriser.Failure.self) {
            try Rasteriser.rsvg(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\"><path d=\"M0 0\"></svg>".utf8), zoom: 1)
        }
        // rsvg-convert's complaint is in the failure, not on the test run's output.
        #expect(failure?.description.contains("It said: Error reading SVG") == true, "\(failure.map(String.init(describing:)) ?? "no failure")")
    }

    @Test func sameDrawingGivesTheSameBytes() {
        for golden in Self.cases {
            let drawing = IndicatorLayout.drawing(for: golden.spec)
            let writer = SVGWriter()
            let first = writer.svg(for: drawing)
            #expect(writer.svg(for: drawing) == first)
            #expect(SVGWriter().svg(for: drawing) == first)
        }
    }

    @Test func documentIsSizedInPointsWithCompactNumbers() {
        var dots = spec(pages: 3) { $0.current = 1; $0.scale = 3; $0.size = 7.5 }
        dots.inactive = RGBA(red: 0, green: 0x7A, blue: 0xFF, alpha: 77)
        let text = String(decoding: SVGWriter().svg(for: IndicatorLayout.drawing(for: dots)), as: UTF8.self)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"46.5\" height=\"15.5\" viewBox=\"0 0 46.5 15.5\">"))
        #expect(text.hasSuffix("</svg>"))
        #expect(text.contains("fill=\"#007aff\" fill-opacity=\".302\""))
        #expect(text.contains("<path d=\"M11.5 7.75C11.5 9.82"))
        #expect(!text.contains("<rect"), "a transparent background is not drawn")
    }

    @Test func textBecomesGlyphOutlines() {
        let bar = spec(pages: 2) { $0.style = .bar; $0.labels = ["Ab", "Cd"] }
        let text = String(decoding: SVGWriter().svg(for: IndicatorLayout.drawing(for: bar)), as: UTF8.self)
        #expect(!text.contains("<text") && !text.contains("Ab"))
        // The track, the line, and four glyphs defined and used once each.
        #expect(text.count(of: "<path") == 6)
        #expect(text.count(of: "<path id=\"g") == 4 && text.count(of: "<use ") == 4)
    }

    @Test func aGlyphUsedMoreThanOnceIsDefinedOnce() {
        // "aa" is the current title (semibold), "aba" regular: three distinct
        // glyphs (semibold a, regular a, regular b) in five places.
        let bar = spec(pages: 2) { $0.style = .bar; $0.current = 0; $0.labels = ["aa", "aba"] }
        let text = String(decoding: SVGWriter().svg(for: IndicatorLayout.drawing(for: bar)), as: UTF8.self)
        #expect(text.count(of: "<path id=\"g") == 3)
        #expect(text.count(of: "<use ") == 5)
        let definitions = text.components(separatedBy: "</defs>")
        #expect(definitions.count == 2, "one <defs>, before the uses")
        #expect(definitions.first.map { $0.contains("<path id=\"g3\"") && !$0.contains("<use") } == true)
        #expect(text.count(of: "href=\"#g1\"") == 2 && text.count(of: "href=\"#g2\"") == 2 && text.count(of: "href=\"#g3\"") == 1)
    }

    @Test(arguments: [
        (0.0, "0"), (12.0, "12"), (0.5, ".5"), (-0.25, "-.25"), (3.14159, "3.14"), (-7.0, "-7"),
        (2.999, "3"), (0.004, "0"), (-0.004, "0"), (100.1, "100.1"), (Double.nan, "0"),
    ])
    func numbersAreShort(value: Double, text: String) {
        #expect(SVGDocument.number(value) == text)
    }
}

extension String {
    /// How many times `piece` occurs, not overlapping.
    func count(of piece: String) -> Int {
        components(separatedBy: piece).count - 1
    }

    /// The pieces between occurrences of `separator` (no Foundation here).
    func components(separatedBy separator: String) -> [Substring] {
        var pieces: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            pieces.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        pieces.append(rest)
        return pieces
    }
}

/// Runs `rsvg-convert` on an SVG document.
enum Rasteriser {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The document rasterised at `zoom` pixels per point, as straight RGBA.
    static func rsvg(_ svg: [UInt8], zoom: Int) throws -> RGBAImage {
        var template = Array("/tmp/pagedots-svg-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw Failure(description: "cannot make a temporary directory")
        }
        let input = directory + "/in.svg", output = directory + "/out.png", errors = directory + "/stderr.txt"
        defer {
            unlink(input)
            unlink(output)
            unlink(errors)
            rmdir(directory)
        }
        guard let file = fopen(input, "wb") else { throw Failure(description: "cannot write \(input)") }
        fwrite(svg, 1, svg.count, file)
        fclose(file)
        let arguments = ["rsvg-convert", "--zoom=\(zoom)", "--output=\(output)", input]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Its standard error goes to a file, and from there into the failure's description.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "rsvg-convert", &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot run rsvg-convert (\(String(cString: strerror(spawned)))): install the Debian package librsvg2-bin")
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0, let image = TestImages.readPNG(output) else {
            let said = String(decoding: TestImages.readFile(errors) ?? [], as: UTF8.self)
            throw Failure(description: "rsvg-convert failed (wait status \(status)) on:\n\(String(decoding: svg, as: UTF8.self))\nIt said: \(said)")
        }
        return image
    }
}
