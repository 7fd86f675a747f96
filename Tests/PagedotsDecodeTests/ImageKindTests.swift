import PagedotsDecode
import Testing

@Suite("Image kinds: told by their first bytes")
struct ImageKindTests {
    private func sniff(_ bytes: [UInt8]) -> ImageKind? {
        bytes.withUnsafeBytes { ImageKind(sniffing: $0) }
    }

    /// An ISO base media file's `ftyp` box with these brands (its size as given, else its own).
    private func ftyp(_ major: String, _ compatible: [String], declaredSize: Int? = nil) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = declaredSize ?? body.count + 8
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("ftyp".utf8) + body
    }

    @Test(
        "Every fixture is told by its bytes",
        arguments: [
            ("rgba.png", ImageKind.png), ("baseline.jpg", .jpeg), ("animated.gif", .gif), ("lossy.webp", .webp),
            ("lossless-alpha.webp", .webp), ("animated.webp", .webp), ("orientation-5.heic", .heic), ("alpha.avif", .avif),
        ]
    )
    func fixtures(name: String, kind: ImageKind) {
        #expect(sniff(Fixtures.bytes(name)) == kind)
    }

    @Test(
        "HEIF files are HEIC or AVIF by their major brand, else by the first compatible brand that names one",
        arguments: [
            (["heic"], ImageKind.heic), (["heix"], .heic), (["hevc"], .heic), (["hevx"], .heic), (["heim"], .heic), (["heis"], .heic),
            (["avif"], .avif), (["avis"], .avif), (["mif1", "mif1", "heic"], .heic), (["msf1", "msf1", "hevc"], .heic),
            (["mif1", "mif1", "miaf", "avif"], .avif), (["avif", "mif1", "heic"], .avif), (["mif1", "MA1B", "avif", "heic"], .avif),
        ]
    )
    func brands(brands: [String], kind: ImageKind) {
        #expect(sniff(ftyp(brands[0], Array(brands.dropFirst())) + [0, 0, 0, 8]) == kind)
    }

    @Test("An ISO file of another kind, a generic HEIF and brands beyond the box's end are not images")
    func otherBrands() {
        #expect(sniff(ftyp("isom", ["isom", "mp41"])) == nil)
        #expect(sniff(ftyp("mif1", ["mif1", "miaf"])) == nil)
        // The box ends after "mif1": the "heic" after it is the next box's business.
        #expect(sniff(ftyp("mif1", ["mif1", "heic"], declaredSize: 20)) == nil)
        // A box that claims more than there is is read as far as the bytes go.
        #expect(sniff(ftyp("mif1", ["mif1", "heic"], declaredSize: 4000)) == .heic)
        #expect(sniff(Array(ftyp("heic", [])[..<11])) == nil)
        #expect(sniff(ftyp("heic", [], declaredSize: 0)) == nil)
    }

    @Test("WebP is a RIFF file of form WEBP; other RIFF forms and cut headers are not images")
    func riff() {
        let header = Array("RIFF".utf8) + [4, 0, 0, 0]
        #expect(sniff(header + Array("WEBP".utf8)) == .webp)
        #expect(sniff(header + Array("WAVE".utf8)) == nil)
        #expect(sniff(header + Array("WEB".utf8)) == nil)
        #expect(sniff([]) == nil)
    }

    @Test("Names, as messages write them, the list of them all, and media types")
    func names() {
        #expect(ImageKind.allCases.map(\.name) == ["PNG", "JPEG", "GIF", "WebP", "HEIC", "AVIF"])
        #expect(ImageKind.allCases.map(\.mediaType) == ["image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "image/avif"])
        #expect(ImageKind.allNames == "PNG, JPEG, GIF, WebP, HEIC or AVIF")
        #expect(ImageDecodingError.unrecognized.description == "not a PNG, JPEG, GIF, WebP, HEIC or AVIF")
    }
}
