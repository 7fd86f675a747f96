import Testing
@testable import PagedotsCore

/// Colours as docs/parameters.md allows them: hex with or without `#`, CSS names, `transparent`.
@Suite struct ColorParsingTests {
    private func parse(_ text: String) -> RGBA? {
        RGBA(parsing: Array(text.utf8)[...])
    }

    @Test(arguments: [
        ("fff", RGBA(red: 255, green: 255, blue: 255)),
        ("f80", RGBA(red: 0xFF, green: 0x88, blue: 0x00)),
        ("F808", RGBA(red: 0xFF, green: 0x88, blue: 0x00, alpha: 0x88)),
        ("007AFF", RGBA(red: 0x00, green: 0x7A, blue: 0xFF)),
        ("007aff", RGBA(red: 0x00, green: 0x7A, blue: 0xFF)),
        ("12345678", RGBA(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78)),
        ("#abc", RGBA(red: 0xAA, green: 0xBB, blue: 0xCC)),
        ("#aBcDeF00", RGBA(red: 0xAB, green: 0xCD, blue: 0xEF, alpha: 0)),
        ("transparent", RGBA(red: 0, green: 0, blue: 0, alpha: 0)),
        ("Transparent", RGBA(red: 0, green: 0, blue: 0, alpha: 0)),
        ("red", RGBA(red: 255, green: 0, blue: 0)),
        ("RED", RGBA(red: 255, green: 0, blue: 0)),
        ("RebeccaPurple", RGBA(red: 0x66, green: 0x33, blue: 0x99)),
        ("lightgoldenrodyellow", RGBA(red: 0xFA, green: 0xFA, blue: 0xD2)),
        ("green", RGBA(red: 0x00, green: 0x80, blue: 0x00)),
        ("grey", RGBA(red: 0x80, green: 0x80, blue: 0x80)),
        ("gray", RGBA(red: 0x80, green: 0x80, blue: 0x80)),
        ("darkslategrey", RGBA(red: 0x2F, green: 0x4F, blue: 0x4F)),
        ("aliceblue", RGBA(red: 0xF0, green: 0xF8, blue: 0xFF)),
        ("yellowgreen", RGBA(red: 0x9A, green: 0xCD, blue: 0x32)),
        ("maroon", RGBA(red: 0x80, green: 0x00, blue: 0x00)),
        ("cyan", RGBA(red: 0x00, green: 0xFF, blue: 0xFF)),
    ])
    func validColors(text: String, color: RGBA) {
        #expect(parse(text) == color)
    }

    @Test(arguments: [
        "", "#", "##fff", "ff", "fffff", "fffffff", "fffffffff", "ggg", "#ggg", "0x123", "red ", " red", "re d",
        "transparent2", "blu", "rëd", "#red", "lightgoldenrodyellowish", "currentcolor", "rgb(0,0,0)",
    ])
    func invalidColors(text: String) {
        #expect(parse(text) == nil)
    }

    @Test func allCSSNamedColoursAndTransparentAreKnown() {
        #expect(RGBA.named.count == 148 + 1)
        #expect(RGBA.named.filter { $0.key != "transparent" }.allSatisfy { $0.value.alpha == 255 })
        #expect(RGBA.named.keys.allSatisfy { $0 == $0.lowercased() })
    }

    @Test func everyNameParsesInAnyCase() {
        for (name, color) in RGBA.named {
            #expect(parse(name.uppercased()) == color, "\(name)")
        }
    }

    @Test func colorInAQueryMayBePercentEncoded() throws {
        #expect(try parsedSpec("pages=1&color=%23ABCDEF").color == RGBA(red: 0xAB, green: 0xCD, blue: 0xEF))
        #expect(try parsedSpec("pages=1&bg=%57hite").background == RGBA(red: 255, green: 255, blue: 255))
    }
}
