import Testing
import PagedotsCore
@testable import PagedotsRender

/// Translucent pixels are written in the drawing's own colours where their
/// premultiplied channels allow (`Inks`; docs/styles.md, "Colours of
/// translucent pixels"), and always within a premultiplied level of what
/// Cairo drew.
struct InksTests {
    static let blue: UInt32 = 0xFF_7A_00  // #007AFF as 0x00BBGGRR
    static let red: UInt32 = 0x30_3B_FF  // #FF3B30

    /// `round(c·a/255)` of each channel of a `0x00BBGGRR` colour.
    static func premultiplied(_ color: UInt32, alpha: UInt32) -> (UInt32, UInt32, UInt32) {
        func channel(_ shift: UInt32) -> UInt32 { (((color >> shift) & 0xFF) * alpha + 127) / 255 }
        return (channel(0), channel(8), channel(16))
    }

    static func inks(_ colors: [RGBA], background: RGBA = .transparent) -> Inks {
        let items = colors.map { DrawItem.fill(Path([.move(Point(x: 0, y: 0))]), $0) }
        return Inks(of: Drawing(size: Size(width: 1, height: 1), background: background, items: items))
    }

    static let blueAndRed = inks([.systemBlue, RGBA(red: 0xFF, green: 0x3B, blue: 0x30, alpha: 0xFF)])

    @Test func anInkPremultipliedAtAnyAlphaComesBackAsItself() {
        for alpha: UInt32 in 1...254 {
            for ink in [Self.blue, Self.red] {
                let (r, g, b) = Self.premultiplied(ink, alpha: alpha)
                #expect(Self.blueAndRed.straightColor(red: r, green: g, blue: b, alpha: alpha) == ink, "alpha \(alpha)")
            }
        }
    }

    @Test func everyPixelComesBackWithinAPremultipliedLevel() {
        // Every premultiplied value of green at every alpha, the other channels at the blue ink's and off it.
        for alpha: UInt32 in 1...254 {
            for green in 0...alpha {
                for (red, blue) in [(0, alpha), (alpha / 2, alpha), (alpha, 0)] {
                    let straight = Self.blueAndRed.straightColor(red: red, green: green, blue: blue, alpha: alpha)
                    let (r, g, b) = Self.premultiplied(straight, alpha: alpha)
                    #expect(max(r, red) - min(r, red) <= 1 && max(g, green) - min(g, green) <= 1 && max(b, blue) - min(b, blue) <= 1,
                            "alpha \(alpha), premultiplied (\(red), \(green), \(blue)) came back as (\(r), \(g), \(b))")
                }
            }
        }
    }

    @Test func aPixelNoInkPaintsIsDividedByItsAlpha() {
        // Half red, half blue at alpha 200: no ink is within a level.
        let straight = Self.blueAndRed.straightColor(red: 100, green: 84, blue: 123, alpha: 200)
        #expect(straight == (100 * 255 + 100) / 200 | ((84 * 255 + 100) / 200) << 8 | ((123 * 255 + 100) / 200) << 16)
        // No inks at all: every pixel is divided, as Cairo's PNG writer does (green 37 at alpha 77 reads back as 123).
        #expect(Self.inks([]).straightColor(red: 0, green: 37, blue: 77, alpha: 77) == 0xFF_7B_00)
    }

    @Test func theNearestInkWins() {
        let near = RGBA(red: 0, green: 0x7C, blue: 0xFF, alpha: 0xFF)
        let inks = Self.inks([.systemBlue, near])
        let (r, g, b) = Self.premultiplied(0xFF_7C_00, alpha: 200)
        #expect(inks.straightColor(red: r, green: g, blue: b, alpha: 200) == 0xFF_7C_00)
        let (r2, g2, b2) = Self.premultiplied(Self.blue, alpha: 200)
        #expect(inks.straightColor(red: r2, green: g2, blue: b2, alpha: 200) == Self.blue)
    }

    @Test func inksAreEveryColourOfTheDrawingUpToTheLimit() {
        let clipped = DrawItem.clipped(Path(), [.fill(Path(), RGBA(red: 1, green: 2, blue: 3, alpha: 255))])
        let text = DrawItem.text(TextRun(text: "1", box: Rect(x: 0, y: 0, width: 1, height: 1), fontSize: 1, weight: .regular,
                                         color: RGBA(red: 4, green: 5, blue: 6, alpha: 10)))
        let drawing = Drawing(size: Size(width: 1, height: 1), background: RGBA(red: 7, green: 8, blue: 9, alpha: 1), items: [
            clipped, text, .stroke(Path(), lineWidth: 1, .systemBlue), .fill(Path(), RGBA.systemBlue.fading(to: 0.3)), .fill(Path(), .transparent),
        ])
        // Alpha aside, each colour once, ascending; a clear colour paints nothing.
        #expect(Inks(of: drawing).colors == [0x03_02_01, 0x06_05_04, 0x09_08_07, Self.blue].sorted())
        let eight = (0..<UInt8(Inks.limit)).map { RGBA(red: $0, green: 0, blue: 0, alpha: 255) }
        #expect(Self.inks(eight).colors.count == Inks.limit)
        #expect(Self.inks(eight + [RGBA(red: 200, green: 0, blue: 0, alpha: 255)]).colors.isEmpty, "more than the limit: none")
    }

    @Test(arguments: [1, 2, 3])
    func aDotsEdgesKeepItsColour(scale: Int) {
        let image = RasterRenderer().render(IndicatorLayout.drawing(for: spec(pages: 3) { $0.shape = .star }), scale: scale)
        var translucent = 0
        for pixel in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[pixel + 3] > 0 {
            #expect(Array(image.pixels[pixel ..< pixel + 3]) == [0x00, 0x7A, 0xFF])
            translucent += image.pixels[pixel + 3] < 255 ? 1 : 0
        }
        #expect(translucent > 0)
    }

    @Test func theDefaultPillsAnimationFitsAPalette() throws {
        let spec = try IndicatorQuery.parse(query: "pages=5&style=pill&scale=2&format=apng"[...]).spec
        let frames = AnimationFrames(spec: spec, renderer: RasterRenderer())
        var colors = Set<[UInt8]>()
        for index in 0 ..< frames.count {
            let pixels = frames.frame(at: index).pixels
            for pixel in stride(from: 0, to: pixels.count, by: 4) {
                colors.insert(Array(pixels[pixel ..< pixel + 4]))
            }
        }
        // Divided by their alphas, the same frames had 295.
        #expect(colors.count <= 256)
    }
}
