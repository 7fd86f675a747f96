import Testing
import PagedotsCore
import PagedotsRender

/// Every style, a few parameter sets, scales 1–3 and all directions, compared
/// with the PNGs under `Goldens/` within ±2 per channel. To accept a change
/// on purpose: `PAGEDOTS_UPDATE_GOLDENS=1 swift test --filter PagedotsRenderTests`,
/// then look at the images before committing them.
struct GoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let spec: IndicatorSpec
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "dots-1x", spec: spec(pages: 5) { $0.current = 2 }),
        Case(name: "dots-2x", spec: spec(pages: 5) { $0.current = 2; $0.scale = 2 }),
        Case(name: "dots-3x", spec: spec(pages: 5) { $0.current = 2; $0.scale = 3 }),
        Case(name: "dots-rtl-2x", spec: spec(pages: 4) { $0.current = 1; $0.direction = .rtl; $0.scale = 2 }),
        Case(name: "dots-ttb-1x", spec: spec(pages: 4) { $0.current = 1; $0.direction = .ttb }),
        Case(name: "dots-btt-3x", spec: spec(pages: 4) { $0.current = 1; $0.direction = .btt; $0.scale = 3 }),
        Case(name: "dots-colors-bg-2x", spec: spec(pages: 4) {
            $0.current = 3; $0.color = RGBA(red: 0xFF, green: 0x3B, blue: 0x30)
            $0.inactive = RGBA(red: 0x8E, green: 0x8E, blue: 0x93); $0.background = RGBA(red: 0x1C, green: 0x1C, blue: 0x1E)
            $0.scale = 2
        }),
        Case(name: "dots-canvas-1x", spec: spec(pages: 3) { $0.current = 0; $0.width = 61; $0.height = 20 }),
        Case(name: "pill-1x", spec: spec(pages: 5) { $0.current = 2; $0.style = .pill }),
        Case(name: "pill-2x", spec: spec(pages: 5) { $0.current = 2; $0.style = .pill; $0.scale = 2 }),
        Case(name: "pill-3x", spec: spec(pages: 5) { $0.current = 0; $0.style = .pill; $0.scale = 3 }),
        Case(name: "pill-rtl-1x", spec: spec(pages: 5) { $0.current = 1; $0.style = .pill; $0.direction = .rtl }),
        Case(name: "pill-ttb-2x", spec: spec(pages: 5) { $0.current = 4; $0.style = .pill; $0.direction = .ttb; $0.scale = 2 }),
        Case(name: "pill-outline-1x", spec: spec(pages: 5) {
            $0.current = 1; $0.style = .pill; $0.size = 7; $0.spacing = 5; $0.fill = .outline
        }),
        Case(name: "pill-outline-3x", spec: spec(pages: 5) {
            $0.current = 1; $0.style = .pill; $0.size = 7; $0.spacing = 5; $0.fill = .outline; $0.scale = 3
        }),
        Case(name: "shape-square-1x", spec: spec(pages: 4) { $0.current = 1; $0.shape = .square; $0.style = .pill }),
        Case(name: "shape-rounded-2x", spec: spec(pages: 4) { $0.current = 1; $0.shape = .rounded; $0.style = .pill; $0.scale = 2 }),
        Case(name: "shape-diamond-2x", spec: spec(pages: 4) { $0.current = 1; $0.shape = .diamond; $0.style = .pill; $0.scale = 2 }),
        Case(name: "shape-star-3x", spec: spec(pages: 4) { $0.current = 1; $0.shape = .star; $0.size = 12; $0.scale = 3 }),
        Case(name: "shape-heart-3x", spec: spec(pages: 4) { $0.current = 1; $0.shape = .heart; $0.size = 12; $0.scale = 3 }),
        Case(name: "shape-star-outline-ttb-2x", spec: spec(pages: 4) {
            $0.current = 2; $0.shape = .star; $0.size = 12; $0.fill = .outline; $0.stroke = 1.5; $0.direction = .ttb; $0.scale = 2
        }),
        Case(name: "shape-heart-outline-pill-2x", spec: spec(pages: 4) {
            $0.current = 0; $0.shape = .heart; $0.size = 12; $0.fill = .outline; $0.style = .pill; $0.scale = 2
        }),
        Case(name: "scroll-middle-2x", spec: spec(pages: 20) { $0.current = 10; $0.style = .scroll; $0.scale = 2 }),
        Case(name: "scroll-start-1x", spec: spec(pages: 20) { $0.current = 0; $0.style = .scroll }),
        Case(name: "scroll-end-btt-2x", spec: spec(pages: 20) { $0.current = 19; $0.style = .scroll; $0.direction = .btt; $0.scale = 2 }),
        Case(name: "scroll-visible5-outline-3x", spec: spec(pages: 9) {
            $0.current = 4; $0.style = .scroll; $0.visible = 5; $0.fill = .outline; $0.scale = 3
        }),
        Case(name: "progress-2x", spec: spec(pages: 5) { $0.current = 2; $0.style = .progress; $0.progress = 0.3; $0.scale = 2 }),
        Case(name: "progress-rtl-1x", spec: spec(pages: 4) { $0.current = 1; $0.style = .progress; $0.progress = 0.7; $0.direction = .rtl }),
        Case(name: "progress-btt-3x", spec: spec(pages: 3) { $0.current = 1; $0.style = .progress; $0.direction = .btt; $0.scale = 3 }),
        Case(name: "progress-outline-rounded-2x", spec: spec(pages: 4) {
            $0.current = 0; $0.style = .progress; $0.fill = .outline; $0.shape = .rounded; $0.progress = 0.6; $0.scale = 2
        }),
        Case(name: "bar-1x", spec: spec(pages: 4) { $0.current = 1; $0.style = .bar }),
        Case(name: "bar-labels-1x", spec: spec(pages: 3) { $0.current = 0; $0.style = .bar; $0.labels = ["Home", "Search", "Profile"] }),
        Case(name: "bar-labels-2x", spec: spec(pages: 3) { $0.current = 1; $0.style = .bar; $0.labels = ["Home", "Search", "Profile"]; $0.scale = 2 }),
        Case(name: "bar-labels-long-rtl-2x", spec: spec(pages: 3) {
            $0.current = 2; $0.style = .bar; $0.direction = .rtl; $0.scale = 2
            $0.labels = ["Overview", "Specifications and dimensions", "Reviews"]
        }),
        Case(name: "bar-labels-ttb-dark-2x", spec: spec(pages: 3) {
            $0.current = 1; $0.style = .bar; $0.direction = .ttb; $0.scale = 2; $0.labels = ["Inbox", "Drafts", "Sent"]
            $0.color = RGBA(red: 255, green: 255, blue: 255); $0.inactive = RGBA(red: 0x8E, green: 0x8E, blue: 0x93)
            $0.background = RGBA(red: 0, green: 0, blue: 0)
        }),
        Case(name: "bar-btt-3x", spec: spec(pages: 3) { $0.current = 0; $0.style = .bar; $0.direction = .btt; $0.scale = 3 }),
    ] + scriptCases

    /// A bar with titles in each script but Latin (that one is `bar-labels-2x`), the second current.
    static let scriptCases = ScriptTitles.all.filter { $0.script != "latin" }.map { sample in
        Case(name: "bar-labels-\(sample.script)-2x", spec: spec(pages: 3) {
            $0.current = 1; $0.style = .bar; $0.scale = 2; $0.labels = sample.titles.map { Label($0) }
        })
    }

    @Test(arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let image = RasterRenderer().render(IndicatorLayout.drawing(for: golden.spec), scale: golden.spec.scale)
        let path = "\(TestImages.goldenDirectory)/\(golden.name).png"
        if TestImages.updatingGoldens {
            #expect(TestImages.writePNG(image, to: path), "could not write \(path)")
            return
        }
        let expected = try #require(
            TestImages.readPNG(path), "no golden \(path): run with PAGEDOTS_UPDATE_GOLDENS=1 and look at it"
        )
        let difference = TestImages.largestDifference(image, expected)
        if difference.map({ $0 > 2 }) ?? true {
            let actualPath = "\(TestImages.failureDirectory)/\(golden.name).png"
            TestImages.writePNG(image, to: actualPath)
            Issue.record("""
                \(golden.name): \(image.width)×\(image.height) differs from the golden \(expected.width)×\(expected.height) \
                by up to \(difference.map(String.init) ?? "size"); the new image is at \(actualPath)
                """)
        }
    }
}
