import Testing
import PagedotsCore
import PagedotsRender

/// The text layout: real glyphs in every script, shaping, bidirectional
/// order, ellipsis on the side where a title ends, measurement.
struct TextLayoutEngineTests {
    static let ink = RGBA(red: 0, green: 0, blue: 0)
    let engine = TextLayoutEngine()

    /// A line of `text` at 12 points centred in a box `width` points wide.
    func run(_ text: String, weight: FontWeight = .regular, width: Double = 1000) -> GlyphRun {
        engine.glyphRun(for: TextRun(
            text: text, box: Rect(x: 0, y: 0, width: width, height: 16), fontSize: 12, weight: weight, color: Self.ink
        ))
    }

    /// The key of the one glyph that `character` alone lays out as.
    func key(of character: String, weight: FontWeight = .regular) throws -> GlyphKey {
        let glyphs = run(character, weight: weight).glyphs
        try #require(glyphs.count == 1, "\(character) is one glyph")
        return glyphs[0].key
    }

    @Test(arguments: ScriptTitles.all)
    func everyScriptHasRealGlyphs(_ sample: ScriptTitles) {
        for title in sample.titles {
            for weight in [FontWeight.regular, .semibold] {
                let laidOut = run(title, weight: weight)
                #expect(laidOut.unknownGlyphCount == 0, "\(title), \(weight): characters without a glyph")
                #expect(!laidOut.glyphs.isEmpty && !laidOut.glyphs.contains { $0.key.glyph == 0 }, "\(title), \(weight)")
            }
        }
    }

    @Test func aCharacterNoFontHasIsCountedAndDrawnAsAMissingGlyph() {
        // U+0378 is unassigned in Unicode: no font maps it.
        let laidOut = run("A\u{378}B")
        #expect(laidOut.unknownGlyphCount == 1)
        #expect(laidOut.glyphs.map { $0.key.glyph == 0 } == [false, true, false])
    }

    @Test func titlesUseTheFamiliesInOrder() throws {
        // Latin from DejaVu Sans; Thai, Devanagari and Chinese from the
        // family named for them; a semibold title with a face that has only
        // a regular weight is emboldened.
        #expect(try key(of: "A").face.file.hasSuffix("/DejaVuSans.ttf"))
        #expect(try key(of: "A", weight: .semibold).face.file.hasSuffix("/DejaVuSans-Bold.ttf"))
        #expect(try key(of: "ก").face.file.hasSuffix("/NotoSansThaiUI-Regular.ttf"))
        #expect(try key(of: "क", weight: .semibold).face.file.hasSuffix("/NotoSansDevanagariUI-Bold.ttf"))
        let han = try key(of: "中"), boldHan = try key(of: "中", weight: .semibold)
        #expect(han.face.file.hasSuffix("/wqy-microhei.ttc") && !han.face.emboldened)
        #expect(boldHan.face.file == han.face.file && boldHan.face.emboldened)
        #expect(han.size == 12)
    }

    @Test func arabicLettersJoin() throws {
        // Beh, hah, theh: all three join, so each takes a narrower
        // connected form than it has alone.
        let word = "بحث"
        let joined = engine.advance(of: word, fontSize: 12, weight: .regular)
        let isolated = word.map { engine.advance(of: String($0), fontSize: 12, weight: .regular) }.reduce(0, +)
        #expect(joined < isolated - 1, "joined \(joined), isolated \(isolated)")
        let alone = try word.map { try key(of: String($0)) }
        let inWord = run(word).glyphs.map(\.key)
        #expect(inWord.count == 3 && Set(inWord).isDisjoint(with: alone), "joined forms, not the isolated ones")
    }

    @Test func hebrewReadsRightToLeft() throws {
        let laidOut = run("שלום")
        let lettersFromTheLeft = try ["ם", "ו", "ל", "ש"].map { try key(of: $0) }
        #expect(laidOut.glyphs.map(\.key) == lettersFromTheLeft)
        #expect(laidOut.glyphs.map(\.origin.x) == laidOut.glyphs.map(\.origin.x).sorted(), "glyphs in visual order, left to right")
    }

    @Test func aLongTitleIsCutWhereItEnds() throws {
        let ellipsis = try key(of: "…")
        // Right to left: the beginning ("חיפוש", its first letter rightmost) stays, the end goes, "…" on the left.
        let hebrew = run("חיפוש מתקדם בכל המסמכים והתיקיות", width: 64)
        #expect(hebrew.advance <= 64)
        #expect(hebrew.glyphs.first?.key == ellipsis && hebrew.glyphs.filter { $0.key == ellipsis }.count == 1)
        #expect(try hebrew.glyphs.last?.key == key(of: "ח"))
        // Left to right: "…" on the right; centred on what it shows (Pango
        // pads an ellipsis to the box's width: that padding is not counted).
        let latin = run("Specifications and dimensions", width: 64)
        #expect(latin.glyphs.last?.key == ellipsis)
        #expect(abs(latin.advance - engine.advance(of: "Specific…", fontSize: 12, weight: .regular)) < 0.001)
        #expect(try latin.glyphs.first?.key == key(of: "S"))
        // A title that fits keeps every letter.
        #expect(!run("Search", width: 64).glyphs.contains { $0.key == ellipsis })
    }

    @Test func aTitleIsCentredOnItsAdvanceOnTheBaselineOfItsBox() {
        let box = Rect(x: 10, y: 4, width: 64, height: 16)
        let laidOut = engine.glyphRun(for: TextRun(text: "Home", box: box, fontSize: 12, weight: .regular, color: Self.ink))
        // DejaVu Sans: ascent 0.928 em, descent 0.236 em (hhea), unhinted.
        let baseline = box.midY + (0.928 - 0.236) * 12 / 2
        #expect(laidOut.glyphs.allSatisfy { abs($0.origin.y - baseline) < 0.01 })
        #expect(abs((laidOut.glyphs.first?.origin.x ?? 0) - (box.midX - laidOut.advance / 2)) < 1e-9)
        #expect(laidOut.advance == engine.advance(of: "Home", fontSize: 12, weight: .regular))
    }

    @Test func advancesScaleWithTheFontSize() {
        // Laid out at one size and scaled: an advance per em (size 1) times
        // any size is the advance at that size, as a table of metrics needs.
        for text in ["3 / 7", "1\u{2009}/\u{2009}12", "Profile", "首页"] {
            for weight in [FontWeight.regular, .semibold] {
                let perEm = engine.advance(of: text, fontSize: 1, weight: weight)
                for size in [7.5, 12, 96] {
                    let advance = engine.advance(of: text, fontSize: size, weight: weight)
                    #expect(perEm > 0 && abs(advance - perEm * size) < 1e-9, "\(text), \(weight) at \(size): \(advance)")
                }
            }
        }
        #expect(engine.advance(of: "Home", fontSize: 0, weight: .regular) == 0)
        #expect(engine.advance(of: "Home", fontSize: .nan, weight: .regular) == 0)
    }
}
