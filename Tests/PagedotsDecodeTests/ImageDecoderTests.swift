import PagedotsDecode
import TestSupport
import Testing

@Suite("Image decoders: probe and decode")
struct ImageDecoderTests {
    /// Decodes fixture `name` and compares it with Pillow's reading of `expected`.
    private func expectMatchesPillow(_ name: String, expected: String, tolerance: Int) throws {
        let image = try Fixtures.decode(name)
        let reference = try Fixtures.expected(expected)
        #expect(image.width == reference.width && image.height == reference.height, "\(name)")
        let difference = RGBADifference.between(
            expected: reference.rgba, actual: image.pixels, width: reference.width, height: reference.height, tolerance: tolerance
        )
        #expect(difference == nil, "\(name): \(difference?.description ?? "")")
    }

    @Test(
        "PNG: every colour type, 16-bit, Adam7 and palette transparency decode to Pillow's pixels",
        arguments: ["rgba", "rgb", "gray", "bilevel", "palette-transparent", "rgba16", "interlaced"]
    )
    func png(name: String) throws {
        // Exact but for libpng's rounding of 16-bit channels (Pillow truncates).
        try expectMatchesPillow(name + ".png", expected: name, tolerance: name == "rgba16" ? 1 : 0)
        #expect(try Fixtures.probe(name + ".png") == ImageProbe(kind: .png, width: 20, height: 16))
    }

    @Test(
        "JPEG: baseline, progressive, grey and Adobe CMYK decode to Pillow's pixels, within libjpeg versions' rounding",
        arguments: [("baseline.jpg", "baseline"), ("progressive.jpg", "progressive"), ("gray.jpg", "gray-jpeg"), ("cmyk.jpg", "cmyk")]
    )
    func jpeg(name: String, expected: String) throws {
        try expectMatchesPillow(name, expected: expected, tolerance: 3)
        #expect(try Fixtures.probe(name) == ImageProbe(kind: .jpeg, width: 32, height: 24))
    }

    @Test("JPEG: EXIF orientation 3, 6 and 8 are turned upright, in the probe's size and in the pixels", arguments: [3, 6, 8])
    func orientation(_ orientation: Int) throws {
        try expectMatchesPillow("orientation-\(orientation).jpg", expected: "orientation-\(orientation)", tolerance: 3)
        #expect(try Fixtures.probe("orientation-\(orientation).jpg") == ImageProbe(kind: .jpeg, width: 32, height: 24))
        // The upright picture is the baseline one: a white square at the top left.
        let image = try Fixtures.decode("orientation-\(orientation).jpg")
        #expect(image.pixel(x: 5, y: 4).prefix(3).allSatisfy { $0 > 230 })
    }

    @Test("JPEG: decoded at 1/2, 1/4 or 1/8 of its size when that is still at least as large as asked")
    func jpegReduced() throws {
        #expect(try Fixtures.decode("baseline.jpg", atLeast: (16, 12)).width == 16)
        #expect(try Fixtures.decode("baseline.jpg", atLeast: (9, 3)).width == 16)
        #expect(try Fixtures.decode("baseline.jpg", atLeast: (8, 6)).width == 8)
        #expect(try Fixtures.decode("baseline.jpg", atLeast: (1, 1)).width == 4)
        #expect(try Fixtures.decode("baseline.jpg", atLeast: (17, 1)).width == 32)
        // Orientation 6 turns the stored 24 × 32 upright: the reduction is judged on the shown size.
        let turned = try Fixtures.decode("orientation-6.jpg", atLeast: (16, 12))
        #expect((turned.width, turned.height) == (16, 12))
        // A GIF is decoded whole.
        #expect(try Fixtures.decode("still.gif", atLeast: (1, 1)).width == 20)
    }

    @Test("GIF: a still and an interlaced one decode to Pillow's pixels")
    func gif() throws {
        try expectMatchesPillow("still.gif", expected: "still", tolerance: 0)
        try expectMatchesPillow("interlaced.gif", expected: "interlaced-gif", tolerance: 0)
        #expect(try Fixtures.probe("interlaced.gif") == ImageProbe(kind: .gif, width: 20, height: 40))
    }

    @Test("An animated GIF used as a still is its first frame, with its transparent pixels transparent")
    func gifFirstFrame() throws {
        let image = try Fixtures.decode("animated.gif")
        let reader = try GIFReader(Fixtures.bytes("animated.gif"))
        #expect(image.pixels == reader.frames[0].canvas)
        #expect(image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }
}

@Suite("Image decoders: refusals")
struct ImageDecoderRefusalTests {
    @Test("Bytes of no known format are refused as such (a 415 for the service)", arguments: ["not-an-image.txt"])
    func unrecognized(name: String) {
        #expect(throws: ImageDecodingError.unrecognized) { try Fixtures.probe(name) }
        #expect(throws: ImageDecodingError.unrecognized) { try Fixtures.decode(name) }
        #expect(ImageDecodingError.unrecognized.isUnsupportedFormat)
    }

    @Test(
        "A side over the limit is refused from the header, with the size, before any pixel is decoded",
        arguments: [
            ("wide.png", 5000, 16), ("large.jpg", 5000, 5000), ("wide-screen.gif", 5000, 10), ("huge-canvas.webp", 20000, 20000),
            ("huge.heic", 100_000, 100_000), ("huge.avif", 100_000, 100_000),
        ]
    )
    func tooLarge(name: String, width: Int, height: Int) {
        let limits = ImageSizeLimits()
        let error = ImageDecodingError.tooLarge(width: width, height: height, limits: limits)
        #expect(throws: error) { try Fixtures.probe(name) }
        #expect(throws: error) { try Fixtures.decode(name) }
        #expect(!error.isUnsupportedFormat)
        #expect(error.description == "\(width) × \(height) pixels is too large: at most 4096 a side and 16,777,216 in all; scale it down")
    }

    @Test(
        "Each limit applies on its own, in every format, and the limits themselves are allowed",
        arguments: [
            ("rgb.png", 20, 16), ("baseline.jpg", 32, 24), ("still.gif", 20, 16), ("lossy.webp", 32, 24), ("alpha.heic", 20, 16),
            ("alpha.avif", 20, 16),
        ]
    )
    func exactLimits(name: String, width: Int, height: Int) throws {
        let exact = ImageSizeLimits(maxSide: max(width, height), maxPixels: width * height)
        #expect(try Fixtures.decode(name, limits: exact).pixels.count == width * height * 4)
        for limits in [ImageSizeLimits(maxSide: max(width, height) - 1), ImageSizeLimits(maxPixels: width * height - 1)] {
            #expect(throws: ImageDecodingError.tooLarge(width: width, height: height, limits: limits)) { try Fixtures.probe(name, limits: limits) }
            #expect(throws: ImageDecodingError.tooLarge(width: width, height: height, limits: limits)) { try Fixtures.decode(name, limits: limits) }
        }
    }

    @Test(
        "Corrupt and truncated files are refused with the library's reason, never a crash",
        arguments: [
            ("truncated.png", ImageKind.png), ("bad-crc.png", .png), ("signature-only.png", .png),
            ("truncated.jpg", .jpeg), ("truncated.gif", .gif), ("truncated.webp", .webp), ("truncated.heic", .heic),
            ("truncated.avif", .avif), ("empty-item.avif", .avif),
        ]
    )
    func corrupt(name: String, kind: ImageKind) {
        do {
            _ = try Fixtures.decode(name)
            Issue.record("\(name) decoded")
        } catch {
            guard let error = error as? ImageDecodingError, case .corrupt(let reported, let reason) = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(reported == kind)
            #expect(!reason.isEmpty)
            #expect(error.description.hasPrefix("corrupt, truncated or unsupported \(kind.name) ("))
        }
    }

    @Test("Every prefix of every good file is refused or decoded, whole or reduced, never a crash; only a cut GIF may decode")
    func everyPrefix() {
        let names = [
            "rgba.png", "interlaced.png", "baseline.jpg", "progressive.jpg", "animated.gif", "interlaced.gif", "lossy.webp",
            "lossy-alpha.webp", "animated.webp", "offset-frame.webp", "alpha.heic", "orientation-6.avif",
        ]
        for name in names {
            let bytes = Fixtures.bytes(name)
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
                let cut = Array(bytes[..<length])
                for minimum in [nil, (width: 1, height: 1)] {
                    let decoded = try? cut.withUnsafeBytes { cut in try ImageDecoder.decode(cut, atLeast: minimum) }
                    // A GIF cut after its first frame still shows that frame, as in a browser.
                    if !name.hasSuffix(".gif") { #expect(decoded == nil, "\(name) cut to \(length) bytes decoded") }
                }
            }
        }
    }
}
