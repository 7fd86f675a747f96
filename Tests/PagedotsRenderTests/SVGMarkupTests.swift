import Testing
import PagedotsCore
@testable import PagedotsRender

/// The SVG's markup is what a person would write: basic shapes by name, each
/// paint set once where it can be inherited, short ids, and under
/// `theme=auto` one style sheet that switches the colours.
struct SVGMarkupTests {
    /// The document for `spec` (and its dark variant under `theme=auto`), as text.
    func svg(_ spec: IndicatorSpec) -> String {
        let dark = spec.darkVariant.map(IndicatorLayout.drawing(for:))
        return String(decoding: SVGWriter().svg(for: IndicatorLayout.drawing(for: spec), dark: dark), as: UTF8.self)
    }

    @Test func dotsAreCirclesThatInheritTheirPaint() {
        let text = svg(spec(pages: 3) { $0.current = 1; $0.scale = 3; $0.size = 7.5 })
        // Most dots are inactive: the root carries their paint, the current one changes only its opacity.
        #expect(text == """
            <svg xmlns="http://www.w3.org/2000/svg" width="46.5" height="15.5" viewBox="0 0 46.5 15.5" \
            fill="#007aff" fill-opacity=".302"><circle cx="7.75" cy="7.75" r="3.75"/>\
            <circle cx="23.25" cy="7.75" r="3.75" fill-opacity="1"/><circle cx="38.75" cy="7.75" r="3.75"/></svg>
            """)
    }

    @Test func squaresRoundedSquaresAndCapsulesAreRects() {
        let pill = svg(spec(pages: 2) { $0.style = .pill; $0.current = 0 })
        #expect(pill.contains(##"<rect x="4" y="4" width="16" height="8" rx="4"/>"##))
        let square = svg(spec(pages: 2) { $0.shape = .square })
        #expect(square.contains(##"<rect x="4" y="4" width="8" height="8"/>"##))
        let rounded = svg(spec(pages: 2) { $0.shape = .rounded })
        #expect(rounded.contains(##"<rect x="20" y="4" width="8" height="8" rx="2""##))
        let bar = svg(spec(pages: 2) { $0.style = .bar })
        #expect(bar.contains(##"<rect x="4" y="5" width="136" height="1" rx=".5""##))
        #expect(!pill.contains("<path") && !square.contains("<path") && !rounded.contains("<path") && !bar.contains("<path"))
    }

    @Test func ringIsAStrokeCentredInsideTheOutline() {
        // A ring 1.5 wide inside a circle of radius 6: a line 1.5 wide on the circle of radius 5.25.
        let dots = svg(spec(pages: 3) { $0.current = 0; $0.size = 12; $0.fill = .outline; $0.stroke = 1.5 })
        #expect(dots.contains(##"fill="none" stroke="#007aff" stroke-opacity=".302" stroke-width="1.5""##))
        #expect(dots.contains(##"<circle cx="30" cy="10" r="5.25"/>"##))
        #expect(dots.contains(##"<circle cx="10" cy="10" r="6" fill="#007aff" stroke="none"/>"##))
        // Rounded: corners of size/4 = 2 outside, so 1.5 on the centre line; square corners stay square (mitred).
        let rounded = svg(spec(pages: 2) { $0.current = 0; $0.shape = .rounded; $0.fill = .outline })
        #expect(rounded.contains(##"<rect x="20.5" y="4.5" width="7" height="7" rx="1.5" fill="none""##))
        let square = svg(spec(pages: 2) { $0.current = 0; $0.shape = .square; $0.fill = .outline; $0.stroke = 0.75 })
        #expect(square.contains(##"<rect x="20.375" y="4.375" width="7.25" height="7.25" fill="none""##))
        #expect(square.contains(##"stroke-width=".75""##))
        // A diamond's ring is no stroke: its inner outline is the filled path's second subpath.
        let diamond = svg(spec(pages: 2) { $0.current = 0; $0.shape = .diamond; $0.fill = .outline })
        #expect(!diamond.contains("stroke-width") && diamond.count(of: "z") == 3)
    }

    @Test func aStarsRingDefinesItsOutlineOnceForTheLineAndTheClip() {
        let stars = svg(spec(pages: 2) { $0.current = 0; $0.shape = .star; $0.fill = .outline; $0.size = 12 })
        #expect(stars.contains(##"<defs><clipPath id="b"><use href="#a"/></clipPath><path id="a" d="M30 4.29l1.85 3.76"##))
        #expect(stars.contains(##"<use href="#a" clip-path="url(#b)" fill="none""##) && stars.contains(##"stroke-width="2""##))
        #expect(stars.count(of: "M30 4.29") == 1)
    }

    @Test func neighboursOfOnePaintShareAGroup() {
        // Three blue squares take the root's paint; the two red ones before
        // them set theirs once, on a group around both.
        let squares = (0..<5).map { index in
            let box = Rect(x: Double(index) * 10, y: 0, width: 8, height: 8)
            return DrawItem.fill(Path([], primitive: .roundedRect(box, radius: 0)), RGBA(red: index < 2 ? 255 : 0, green: 0, blue: index < 2 ? 0 : 255))
        }
        let text = String(decoding: SVGWriter().svg(for: Drawing(size: Size(width: 48, height: 8), background: .transparent, items: squares)), as: UTF8.self)
        #expect(text == """
            <svg xmlns="http://www.w3.org/2000/svg" width="48" height="8" viewBox="0 0 48 8" fill="#00f">\
            <g fill="#f00"><rect width="8" height="8"/><rect x="10" width="8" height="8"/></g>\
            <rect x="20" width="8" height="8"/><rect x="30" width="8" height="8"/><rect x="40" width="8" height="8"/></svg>
            """)
    }

    @Test func textBecomesGlyphOutlines() {
        let bar = spec(pages: 2) { $0.style = .bar; $0.labels = ["Ab", "Cd"] }
        let text = svg(bar)
        #expect(!text.contains("<text") && !text.contains("Ab"))
        // The track and the line are rects; four glyphs defined and used once each.
        #expect(text.count(of: "<rect") == 2)
        #expect(text.count(of: "<path id=\"") == 4 && text.count(of: "<use ") == 4)
    }

    @Test func aGlyphUsedMoreThanOnceIsDefinedOnceWithTheShortestName() {
        // "aa" is the current title (semibold), "aba" regular: three distinct
        // glyphs (semibold a, regular a, regular b) in five places.
        let bar = spec(pages: 2) { $0.style = .bar; $0.current = 0; $0.labels = ["aa", "aba"] }
        let text = svg(bar)
        #expect(text.count(of: "<path id=\"") == 3)
        #expect(text.count(of: "<use ") == 5)
        let definitions = text.components(separatedBy: "</defs>")
        #expect(definitions.count == 2, "one <defs>, before the uses")
        #expect(definitions.first.map { $0.contains("<path id=\"c\"") && !$0.contains("<use") } == true)
        // Each of the two used twice is written three times (its definition and two uses), the other twice.
        #expect(text.count(of: "href=\"#a\"") == 2 && text.count(of: "href=\"#b\"") == 2 && text.count(of: "href=\"#c\"") == 1)
    }

    @Test func aTitleIsMovedToItsFirstGlyph() {
        let text = svg(spec(pages: 2) { $0.style = .bar; $0.labels = ["Home", "Profile"] })
        // One baseline: the group is moved there, and its uses need no y.
        #expect(text.count(of: "transform=\"translate(") == 2)
        #expect(text.count(of: "<use ") == 10, "H o m e, P r o fi l e (a ligature)")
        #expect(!text.components(separatedBy: "<use ").dropFirst().contains { $0.prefix { $0 != "/" }.contains(" y=") })
    }

    @Test func themeAutoSwitchesEveryColourInOneStyleSheet() {
        let auto = spec(pages: 3) {
            $0.current = 1; $0.style = .pill; $0.theme = .auto
            $0.background = RGBA(red: 255, green: 255, blue: 255); $0.darkBackground = RGBA(red: 0x1C, green: 0x1C, blue: 0x1E)
            $0.darkColor = .systemBlueDark; $0.darkInactive = RGBA.systemBlueDark.fading(to: 0.3)
        }
        let text = svg(auto)
        #expect(text.count(of: "<style>") == 1)
        #expect(text.contains("<style>@media (prefers-color-scheme:dark){"))
        // The light colours are attributes, the dark ones declarations.
        #expect(text.contains("fill=\"#007aff\"") && text.contains("fill=\"#fff\""))
        #expect(text.contains("fill:#0a84ff") && text.contains("fill:#1c1c1e"))
        #expect(!text.contains("fill=\"#0a84ff\""))
        // The light image has no style sheet at all.
        var light = auto
        light.theme = .light
        #expect(!svg(light).contains("<style"))
    }

    @Test func themeAutoSwitchesTitlesAndRings() {
        let bar = svg(spec(pages: 2) {
            $0.style = .bar; $0.current = 0; $0.labels = ["One", "Two"]; $0.theme = .auto
            $0.color = RGBA(red: 0, green: 0, blue: 0); $0.inactive = RGBA(red: 0, green: 0, blue: 0, alpha: 0x80)
            $0.darkColor = RGBA(red: 255, green: 255, blue: 255); $0.darkInactive = RGBA(red: 255, green: 255, blue: 255, alpha: 0x80)
        })
        // Black is SVG's initial fill: the light image sets none, the dark rule whitens everything.
        #expect(bar.contains("<style>@media (prefers-color-scheme:dark){svg{fill:#fff}}</style>"))
        #expect(!bar.contains("fill=\"#000\""))
        let rings = svg(spec(pages: 3) {
            $0.current = 0; $0.fill = .outline; $0.theme = .auto
            $0.darkColor = .systemBlueDark; $0.darkInactive = RGBA(red: 255, green: 255, blue: 255, alpha: 0x66)
        })
        #expect(rings.contains("stroke:#fff") && rings.contains("stroke-opacity:.4"))
        #expect(rings.contains("fill:#0a84ff"))
    }

    @Test func colorsAreShort() {
        #expect(SVGPaint.color(RGBA(red: 255, green: 255, blue: 255)) == "#fff")
        #expect(SVGPaint.color(RGBA(red: 0x11, green: 0x22, blue: 0x33, alpha: 0)) == "#123")
        #expect(SVGPaint.color(.systemBlue) == "#007aff")
        #expect(SVGPaint.opacity(RGBA(red: 0, green: 0, blue: 0, alpha: 77)) == ".302")
    }

    @Test func invisibleItemsAreLeftOut() {
        let text = svg(spec(pages: 3) { $0.current = 0; $0.inactive = .transparent })
        #expect(text.count(of: "<circle") == 1)
    }

    @Test(arguments: [
        (0, "a"), (25, "z"), (26, "A"), (51, "Z"), (52, "aa"), (53, "ab"), (52 + 61, "a9"), (52 + 62, "ba"), (52 + 52 * 62, "aaa"),
    ])
    func namesAreShortest(rank: Int, name: String) {
        #expect(SVGDocument.name(rank) == name)
    }

    @Test func theMostUsedGetTheShortestNames() {
        #expect(SVGDocument.names(byUses: [1, 3, 1, 2]) == ["c", "a", "d", "b"])
    }

    @Test(arguments: [
        (0.0, "0"), (12.0, "12"), (0.5, ".5"), (-0.25, "-.25"), (3.14159, "3.14"), (-7.0, "-7"),
        (2.999, "3"), (0.004, "0"), (-0.004, "0"), (100.1, "100.1"), (Double.nan, "0"),
    ])
    func numbersAreShort(value: Double, text: String) {
        #expect(SVGNumber.text(value) == text)
    }
}
