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

    @Test func themeAutoDrawsTheLightImage() throws {
        // rsvg-convert follows no colour scheme: it draws the light colours,
        // which are the SVG's own attributes (Chromium's dark drawing is
        // checked by scripts/check-theme).
        for style in Style.allCases {
            let auto = spec(pages: 4) {
                $0.style = style; $0.current = 1; $0.scale = 2; $0.theme = .auto; $0.fill = style == .bar ? .solid : .outline
                $0.labels = style == .bar ? ["One", "Two", "Three", "Four"] : nil
                $0.background = RGBA(red: 255, green: 255, blue: 255); $0.darkBackground = RGBA(red: 0, green: 0, blue: 0)
            }
            try expectSVGMatchesPNG(auto, "theme=auto \(style)")
        }
    }

    /// How far Cairo's stroke of a ring's centre line may differ from its
    /// fill of the ring's two edges, per channel. Cairo flattens curves to
    /// within 0.1 pixel, the stroke along its centre line and the fill along
    /// each edge: an edge can land up to about 0.1 pixel apart between the
    /// two, which changes an antialiased edge pixel of an opaque colour by up
    /// to about 26 of 255 (the geometry itself is exact: `ringIsAStrokeCentredInsideTheOutline`).
    static let ringTolerance = 32

    /// The spec's SVG, rasterised by rsvg-convert at its scale, is within 2
    /// per channel of its PNG on average, and within 3 everywhere
    /// (`ringTolerance` where a ring is stroked).
    private func expectSVGMatchesPNG(_ spec: IndicatorSpec, _ name: String) throws {
        let drawing = IndicatorLayout.drawing(for: spec)
        let png = RasterRenderer().render(drawing, scale: spec.scale)
        let dark = spec.darkVariant.map(IndicatorLayout.drawing(for:))
        let rasterised = try Rasteriser.rsvg(SVGWriter().svg(for: drawing, dark: dark), zoom: spec.scale)
        let hasRings = drawing.items.contains { item in
            if case .fill(let path, _) = item, case .ring? = path.primitive { true } else { false }
        }
        let tolerance = hasRings ? Self.ringTolerance : 3
        let difference = TestImages.largestDifference(png, rasterised)
        #expect(difference.map { $0 <= tolerance } == true, "\(name): differs by \(difference.map(String.init) ?? "size")")
        let mean = TestImages.meanDifference(png, rasterised)
        #expect(mean.map { $0 <= 2 } == true, "\(name): differs by \(mean.map { String($0) } ?? "size") on average")
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
