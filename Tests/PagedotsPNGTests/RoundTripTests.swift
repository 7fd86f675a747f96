import PagedotsPNG
import Testing
import TestSupport

/// Encodes `image`, decodes the file strictly and expects the very same pixels.
@discardableResult
func expectRoundTrip(_ image: TestImage, encoder: PNGEncoder = PNGEncoder(), sourceLocation: SourceLocation = #_sourceLocation) throws -> DecodedPNG {
    let png = encoder.encode(rgba: image.rgba, width: image.width, height: image.height)
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.width == image.width && decoded.height == image.height, sourceLocation: sourceLocation)
    let difference = RGBADifference.between(expected: image.rgba, actual: decoded.rgba, width: image.width, height: image.height)
    #expect(difference == nil, "\(difference?.description ?? "")", sourceLocation: sourceLocation)
    return decoded
}

@Suite("Encode then decode gives back the same pixels")
struct RoundTripTests {
    @Test("random RGBA noise", arguments: [1, 2, 3])
    func randomNoise(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let image = TestImage(width: 37, height: 23) { _, _ in (0..<4).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        try expectRoundTrip(image)
    }

    @Test("few colours picked at random", arguments: [1, 2, 3, 5, 16, 17, 200, 256, 257])
    func fewColors(count: Int) throws {
        let colors = TestImage.distinctColors(count, seed: UInt64(count))
        try expectRoundTrip(.randomPick(width: 50, height: 30, from: colors, seed: 7))
    }

    @Test("greys, opaque and translucent", arguments: [false, true])
    func greys(opaque: Bool) throws {
        // Only 256 opaque greys exist.
        for count in [2, 4, 16, 40, opaque ? 256 : 300] {
            let colors = TestImage.distinctColors(count, seed: 9, grey: true, opaque: opaque)
            try expectRoundTrip(.randomPick(width: 64, height: 40, from: colors, seed: 3))
        }
    }

    @Test("one pixel", arguments: [[0, 0, 0, 0], [255, 255, 255, 255], [0, 122, 255, 77], [10, 20, 30, 255]] as [[UInt8]])
    func onePixel(color: [UInt8]) throws {
        try expectRoundTrip(TestImage(width: 1, height: 1) { _, _ in color })
    }

    @Test("wide, tall and odd-sized images at every index depth")
    func shapes() throws {
        for (width, height) in [(1000, 1), (1, 1000), (3, 7), (9, 2), (4097, 2)] {
            for count in [2, 3, 11, 100, 1000] {
                let colors = TestImage.distinctColors(count, seed: UInt64(width + count))
                try expectRoundTrip(.randomPick(width: width, height: height, from: colors, seed: 1))
            }
        }
    }

    @Test("smooth gradients take filtered rows; flat-colour art keeps filter type 0")
    func gradients() throws {
        var random = SplitMix64(seed: 5)
        let gradients = [
            TestImage(width: 120, height: 90) { x, y in [UInt8(x * 2), UInt8(y), UInt8((x + y) % 256), 255] },
            TestImage(width: 120, height: 90) { x, y in [UInt8(x), UInt8(x), UInt8(x), UInt8(y * 2)] },
            // A photo-like gradient: noise that a predictor from the neighbours mostly removes.
            TestImage(width: 300, height: 20) { x, y in
                [UInt8(x % 256), UInt8(y * 9), UInt8(x / 3 + y) &+ UInt8(random.next() % 4), UInt8(255 - x % 200)]
            },
        ]
        for image in gradients {
            let decoded = try expectRoundTrip(image)
            #expect(decoded.filterTypes.contains { $0 != 0 }, "filters: \(decoded.filterTypes)")
        }
        // Bands of 300 flat colours: RGB, and rows that repeat, so filters are not even tried.
        let colors = TestImage.distinctColors(300, seed: 3, opaque: true)
        let flat = try expectRoundTrip(TestImage(width: 900, height: 60) { x, y in colors[(x / 3 + y / 20 * 7) % 300] })
        #expect(flat.colorType == 2)
        #expect(flat.filterTypes.allSatisfy { $0 == 0 })
    }

    @Test("indicator-like images: transparent, and over an opaque background")
    func indicators() throws {
        for count in [1, 5, 20] {
            for diameter in [8, 16, 24] {
                let image = TestImage.dots(count: count, diameter: diameter)
                try expectRoundTrip(image)
                let white = TestImage(width: image.width, height: image.height) { x, y in
                    let i = (y * image.width + x) * 4, a = Int(image.rgba[i + 3])
                    return (0..<3).map { UInt8((Int(image.rgba[i + $0]) * a + 255 * (255 - a) + 127) / 255) } + [255]
                }
                try expectRoundTrip(white)
            }
        }
    }

    @Test("one encoder reused for many images gives each the same bytes as a fresh one")
    func reuse() throws {
        let shared = PNGEncoder()
        for seed in 1...12 as ClosedRange<UInt64> {
            let colors = TestImage.distinctColors(Int(seed * seed * 3), seed: seed, opaque: seed % 2 == 0)
            let image = TestImage.randomPick(width: Int(seed) * 13, height: 17, from: colors, seed: seed)
            let reused = shared.encode(rgba: image.rgba, width: image.width, height: image.height)
            let fresh = PNGEncoder().encode(rgba: image.rgba, width: image.width, height: image.height)
            #expect(reused == fresh)
            try expectRoundTrip(image, encoder: shared)
        }
    }
}
