import PagedotsDecode
import TestSupport
import Testing

/// Decodes fixture `name` (`atLeast` `minimum`) and compares it with `expected` within `tolerance`.
private func expectMatches(
    _ name: String, _ expected: DecodedImage, tolerance: Int, atLeast minimum: (width: Int, height: Int)? = nil,
    comparedPremultiplied: Bool = false
) throws {
    let image = try Fixtures.decode(name, atLeast: minimum)
    #expect(image.width == expected.width && image.height == expected.height, "\(name): \(image.width) × \(image.height)")
    let difference = comparedPremultiplied
        ? RGBADifference.between(
            expected: premultiplied(expected.pixels), actual: premultiplied(image.pixels), width: expected.width, height: expected.height,
            tolerance: tolerance
        )
        : RGBADifference.between(expected: expected.pixels, actual: image.pixels, width: expected.width, height: expected.height, tolerance: tolerance)
    #expect(difference == nil, "\(name): \(difference?.description ?? "")")
}

/// Pillow's (or pillow-heif's) reading of a fixture, from `name.expected.png`.
private func pillow(_ name: String) throws -> DecodedImage {
    let png = try Fixtures.expected(name)
    return DecodedImage(width: png.width, height: png.height, pixels: png.rgba)
}

@Suite("Image decoders: WebP")
struct WebPDecoderTests {
    @Test(
        "Lossy, lossless with alpha and lossy with alpha decode to Pillow's pixels exactly (libwebp 1.2.4 here, 1.6 in Pillow)",
        arguments: [("lossy.webp", "lossy-webp", 32, 24), ("lossless-alpha.webp", "lossless-alpha-webp", 20, 16), ("lossy-alpha.webp", "lossy-alpha-webp", 20, 16)]
    )
    func still(name: String, expected: String, width: Int, height: Int) throws {
        try expectMatches(name, pillow(expected), tolerance: 0)
        #expect(try Fixtures.probe(name) == ImageProbe(kind: .webp, width: width, height: height))
    }

    @Test("An animated WebP is its first frame on its canvas, the canvas's size probed")
    func animated() throws {
        try expectMatches("animated.webp", pillow("animated-webp"), tolerance: 0)
        #expect(try Fixtures.probe("animated.webp") == ImageProbe(kind: .webp, width: 24, height: 20))
    }

    @Test("An animation whose first frame covers part of its canvas: that frame in place on a transparent canvas, reduced after")
    func offsetFrame() throws {
        try expectMatches("offset-frame.webp", pillow("offset-frame-webp"), tolerance: 0)
        try expectMatches("offset-frame.webp", boxReduced(try Fixtures.decode("offset-frame.webp"), by: 3), tolerance: 0, atLeast: (8, 7))
    }

    @Test(
        "A lossless WebP decoded smaller by libwebp: the average of each cell, colours weighted by alpha (±1 premultiplied)",
        arguments: ["lossless-alpha.webp", "animated.webp"]
    )
    func scaledLossless(name: String) throws {
        let whole = try Fixtures.decode(name)
        try expectMatches(name, boxReduced(whole, by: 2), tolerance: 1, atLeast: (whole.width / 2, whole.height / 2), comparedPremultiplied: true)
    }

    @Test("A lossy WebP decoded smaller by libwebp, which averages in YUV: close to the average of each cell in RGB")
    func scaledLossy() throws {
        let image = try Fixtures.decode("lossy.webp", atLeast: (16, 12))
        let expected = boxReduced(try Fixtures.decode("lossy.webp"), by: 2)
        #expect((image.width, image.height) == (16, 12))
        // Its chroma is averaged at half resolution, so sharp coloured edges differ (up to 31 here), smooth parts by 1 or 2.
        let differences = zip(image.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 255 <= 32)
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) <= 3)
    }

    @Test("A lossy WebP with alpha is reduced after decoding, exactly as the box average says")
    func lossyAlphaReduced() throws {
        try expectMatches("lossy-alpha.webp", boxReduced(try Fixtures.decode("lossy-alpha.webp"), by: 3), tolerance: 0, atLeast: (7, 6))
    }
}

@Suite("Image decoders: HEIC and AVIF")
struct HEIFDecoderTests {
    @Test(
        "The primary image is turned and mirrored as irot and imir say, in the probe's size and in the pixels",
        arguments: [("orientation-5.heic", ImageKind.heic, "orientation-5-heic"), ("orientation-6.avif", .avif, "orientation-6-avif")]
    )
    func transformed(name: String, kind: ImageKind, expected: String) throws {
        // Stored 32 × 24, shown 24 × 32.
        #expect(try Fixtures.probe(name) == ImageProbe(kind: kind, width: 24, height: 32))
        // libheif 1.15 here, a later one in pillow-heif; libavif in Pillow: their colour conversions round differently.
        try expectMatches(name, pillow(expected), tolerance: 1)
    }

    @Test("Alpha is kept", arguments: [("alpha.heic", ImageKind.heic, "alpha-heic"), ("alpha.avif", .avif, "alpha-avif")])
    func alpha(name: String, kind: ImageKind, expected: String) throws {
        #expect(try Fixtures.probe(name) == ImageProbe(kind: kind, width: 20, height: 16))
        try expectMatches(name, pillow(expected), tolerance: 1)
        #expect(try Fixtures.decode(name).pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element < 10 })
    }

    @Test("A 10-bit HEIC is brought to 8 bits (within 2 of libheif's own rounding)")
    func tenBit() throws {
        #expect(try Fixtures.probe("10-bit.heic") == ImageProbe(kind: .heic, width: 32, height: 24))
        try expectMatches("10-bit.heic", pillow("10-bit-heic"), tolerance: 2)
    }

    @Test("An AVIF with 4:2:0 chroma: libheif 1.15 repeats each chroma sample where libavif interpolates, within 5 on a smooth picture")
    func chroma420() throws {
        #expect(try Fixtures.probe("gradient-420.avif") == ImageProbe(kind: .avif, width: 64, height: 48))
        try expectMatches("gradient-420.avif", pillow("gradient-420-avif"), tolerance: 5)
    }

    @Test(
        "A file whose boxes say 64 × 64 and whose HEVC or AV1 data holds 1500 × 1500 is refused before the codec allocates the frame",
        arguments: [("codec-bomb.heic", ImageKind.heic, 1504), ("codec-bomb.avif", .avif, 1500)]
    )
    func codecBomb(name: String, kind: ImageKind, codedSide: Int) throws {
        // 1500 is within libheif's own check of the coded size (a side, with room for padding: Debian's
        // 1.15.1-1+deb12u2 has it); 1500 × 1500 is over the pixels allowed, padding included.
        let limits = ImageSizeLimits(maxSide: 2048, maxPixels: 262_144)
        // The probe reads the boxes only.
        #expect(try Fixtures.probe(name, limits: limits) == ImageProbe(kind: kind, width: 64, height: 64))
        // The size the codec's header declares: x265 codes 1504 (whole 8-pixel blocks) and crops.
        #expect(throws: ImageDecodingError.tooLarge(width: codedSide, height: codedSide, limits: limits)) { try Fixtures.decode(name, limits: limits) }
        // Within larger limits it is decoded, and refused for not being the image its boxes describe.
        #expect(throws: ImageDecodingError.corrupt(kind, reason: "its decoded size differs from its header's")) { try Fixtures.decode(name) }
    }

    @Test("Reduced after decoding, exactly as the box average says", arguments: ["alpha.heic", "orientation-6.avif"])
    func reduced(name: String) throws {
        let whole = try Fixtures.decode(name)
        try expectMatches(name, boxReduced(whole, by: 3), tolerance: 0, atLeast: ((whole.width + 2) / 3, (whole.height + 2) / 3))
    }
}
