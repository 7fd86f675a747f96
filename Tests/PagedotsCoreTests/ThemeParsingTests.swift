import Testing
import PagedotsCore

/// `theme` and the dark colours (docs/parameters.md, "Themes").
@Suite struct ThemeParsingTests {
    static let darkBlue = RGBA(red: 0x0A, green: 0x84, blue: 0xFF)

    @Test func aDarkImageIsTheLightOneInTheDarkColours() throws {
        let dark = try parsedSpec("pages=3&theme=dark")
        #expect(dark == spec(pages: 3) { $0.color = Self.darkBlue; $0.inactive = Self.darkBlue.fading(to: 0.3) })
        #expect(dark.theme == .light)
        // The same image spelled with light colours is the same spec, so one cache entry.
        #expect(dark == (try parsedSpec("pages=3&color=0a84ff")))
    }

    @Test func darkDefaultsFollowTheLightColours() throws {
        let red = RGBA(red: 255, green: 0, blue: 0)
        #expect(try parsedSpec("pages=3&theme=dark&color=red").color == red)
        #expect(try parsedSpec("pages=3&theme=dark&color=red").inactive == red.fading(to: 0.3))
        // System blue becomes its dark shade, keeping its alpha.
        #expect(try parsedSpec("pages=3&theme=dark&color=007aff80").color == RGBA(red: 0x0A, green: 0x84, blue: 0xFF, alpha: 0x80))
        // A given inactive is the dark one too; bg likewise.
        #expect(try parsedSpec("pages=3&theme=dark&inactive=gray").inactive == RGBA(red: 128, green: 128, blue: 128))
        #expect(try parsedSpec("pages=3&theme=dark&bg=white").background == RGBA(red: 255, green: 255, blue: 255))
        // Given dark colours win.
        let given = try parsedSpec("pages=3&theme=dark&color=red&inactive=gray&bg=white&darkcolor=lime&darkinactive=green&darkbg=black")
        #expect(given.color == RGBA(red: 0, green: 255, blue: 0))
        #expect(given.inactive == RGBA(red: 0, green: 128, blue: 0))
        #expect(given.background == RGBA(red: 0, green: 0, blue: 0))
    }

    @Test func perPageColorsApplyInBothThemes() throws {
        #expect(try parsedSpec("pages=3&current=1&colors=red,007aff,lime&theme=dark").color == Self.darkBlue)
        #expect(try parsedSpec("pages=3&current=2&colors=red,007aff,lime&theme=dark").color == RGBA(red: 0, green: 255, blue: 0))
        #expect(refusal("pages=3&colors=red,lime&darkcolor=blue")
            == #"darkcolor: must not be given together with colors (the per-page colors apply in both themes); got "blue""#)
    }

    @Test func autoIsForSVGOnlyAndKeepsBothPalettes() throws {
        let auto = try parsedSpec("pages=3&theme=auto&format=svg&bg=white")
        #expect(auto.theme == .auto)
        #expect(auto.color == .systemBlue && auto.darkColor == Self.darkBlue)
        #expect(auto.background == RGBA(red: 255, green: 255, blue: 255) && auto.darkBackground == auto.background)
        #expect(try parsedSpec("pages=3&theme=auto", options: PathOptions(format: .svg)).theme == .auto)
        #expect(refusal("pages=3&theme=auto") == #"theme: must be light or dark for a png image (auto switches colours only inside an SVG: use format=svg, or a <picture> with one image per theme); got "auto""#)
        #expect(refusal("pages=3&format=gif&theme=auto") == #"theme: must be light or dark for a gif image (auto switches colours only inside an SVG, which does not animate: use a <picture> with a theme=light and a theme=dark image); got "auto""#)
        #expect(refusal("pages=3&theme=dusk") == #"theme: must be one of light, dark, auto; got "dusk""#)
    }

    @Test func darkColoursAreValidatedAndIgnoredInTheLightTheme() throws {
        #expect(try parsedSpec("pages=3&darkcolor=red&darkinactive=blue&darkbg=black") == IndicatorSpec(pages: 3))
        #expect(refusal("pages=3&darkbg=nope") == #"darkbg: must be \#(colorRule); got "nope""#)
    }
}
