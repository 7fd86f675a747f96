@testable import PagedotsGIF
import PagedotsPixels
import Testing
import TestSupport

/// A photograph-like frame: smooth tones, texture and noise of thousands of
/// colours, as straight RGBA.
func photographRGBA(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 4)
    let phase = Double(seed % 7)
    for y in 0..<height {
        for x in 0..<width {
            let u = Double(x) / Double(width), v = Double(y) / Double(height)
            let noise = Double(random.next() % 17) - 8
            let tones = [
                150 + 90 * (u * 3 + phase).truncatingRemainder(dividingBy: 1) * v - 40 * v,
                60 + 150 * v + 20 * ((u * 17 + v * 5).truncatingRemainder(dividingBy: 1)),
                200 - 120 * u * v + 25 * (u * 40).truncatingRemainder(dividingBy: 1),
            ]
            pixels += tones.map { UInt8(max(0, min(255, ($0 + noise).rounded()))) } + [255]
        }
    }
    return pixels
}

/// Lossy LZW compression (`LZWCompressor.compressLossy`), read back with giflib.
@Suite("Lossy LZW: within the bound, protected and transparent pixels exact")
struct LossyCompressionTests {
    /// A photograph quantised to 64 colours, half-dithered, as a carousel's frames are.
    static func quantizedPhotograph(width: Int, height: Int, seed: UInt64) -> ColorQuantizer.Result {
        let rgba = photographRGBA(width: width, height: height, seed: seed)
        let pixels = stride(from: 0, to: rgba.count, by: 4).map {
            CanvasPixel.opaqueBits | UInt32(rgba[$0]) | UInt32(rgba[$0 + 1]) << 8 | UInt32(rgba[$0 + 2]) << 16
        }
        return ColorQuantizer.quantize(pixels, width: width, height: height, settings: .photographic)
    }

    /// One image of `indices` on a palette of its own, compressed lossily at
    /// `loss` with `exactPixels` kept: the file, and the indices written.
    static func compress(
        _ indices: [UInt8], width: Int, colors: [UInt32], transparentIndex: Int? = nil, loss: Int, exactPixels: [Bool]? = nil
    ) -> (gif: [UInt8], written: [UInt8]) {
        let file = GIFFileWriter(width: width, height: indices.count / width, globalColors: nil, globalSize: 0, backgroundIndex: 0, lzw: LZWCompressor())
        if let transparentIndex {
            file.appendGraphicControl(delayCentiseconds: 0, disposal: .keep, transparentIndex: transparentIndex)
        }
        let matching = LossyMatching(
            loss: loss, colors: colors, transparentIndex: transparentIndex,
            exactPixels: exactPixels ?? [Bool](repeating: false, count: indices.count)
        )
        var written = indices
        let tableSize = FrameWriter.tableSize(colors.count)
        file.appendImage(rect: PixelRect(x: 0, y: 0, width: width, height: indices.count / width), localColors: colors,
                         localSize: tableSize, codeBits: 0, indices: &written, lossy: matching)
        file.finish()
        var gif: [UInt8] = []
        file.flush { gif += $0 }
        return (gif, written)
    }

    /// The RGB of canvas pixel `pixel` (RGBA bytes).
    static func rgb(_ canvas: [UInt8], _ pixel: Int) -> UInt32 {
        UInt32(canvas[4 * pixel]) | UInt32(canvas[4 * pixel + 1]) << 8 | UInt32(canvas[4 * pixel + 2]) << 16
    }

    @Test("every pixel decodes to the index reported, within (7/3)·(√(10 × loss) + 1) of its own colour", arguments: [5, 20, 40, 80, 200, 1000])
    func withinBound(loss: Int) throws {
        let (width, height) = (160, 120)
        let photo = Self.quantizedPhotograph(width: width, height: height, seed: 3)
        let (gif, written) = Self.compress(photo.indices, width: width, colors: photo.colors, loss: loss)
        let canvas = try #require(try GIFReader(gif).frames.first).canvas
        var changed = 0, outside = 0
        for pixel in 0..<width * height {
            let decoded = Self.rgb(canvas, pixel)
            #expect(canvas[4 * pixel + 3] == 255 && decoded == photo.colors[Int(written[pixel])], "pixel \(pixel) is what was reported")
            if !LossyMatching.isWithinBound(photo.colors[Int(photo.indices[pixel])], decoded, threshold: 10 * loss) {
                outside += 1
            }
            if written[pixel] != photo.indices[pixel] {
                changed += 1
            }
        }
        #expect(outside == 0, "\(outside) pixels past the bound")
        // A loss of 5 accepts about 7 levels: few colours of the palette are that close to another.
        #expect(loss < 20 || changed > width * height / 20, "lossy compression changed \(changed) pixels")
    }

    @Test("pixels marked exact, and the transparent index, are never changed; the others are")
    func exactAndTransparent() throws {
        let (width, height) = (120, 90)
        let photo = Self.quantizedPhotograph(width: width, height: height, seed: 4)
        // The transparent entry has the colour of entry 0, so that it would be the best match for it.
        let transparentIndex = photo.colors.count
        let colors = photo.colors + [photo.colors[0]]
        var indices = photo.indices
        let hole = PixelRect(x: 30, y: 20, width: 25, height: 30), protected = PixelRect(x: 70, y: 40, width: 40, height: 30)
        var exactPixels = [Bool](repeating: false, count: indices.count)
        for y in 0..<height {
            for x in 0..<width {
                if hole.contains(x: x, y: y) || (x + y) % 11 == 0 {
                    indices[y * width + x] = UInt8(transparentIndex)
                }
                exactPixels[y * width + x] = protected.contains(x: x, y: y)
            }
        }
        let (gif, written) = Self.compress(indices, width: width, colors: colors, transparentIndex: transparentIndex, loss: 200, exactPixels: exactPixels)
        let canvas = try #require(try GIFReader(gif).frames.first).canvas
        var changedOutside = 0
        for pixel in 0..<indices.count {
            let transparent = Int(indices[pixel]) == transparentIndex
            #expect(canvas[4 * pixel + 3] == (transparent ? 0 : 255), "pixel \(pixel): transparency kept")
            #expect((Int(written[pixel]) == transparentIndex) == transparent, "pixel \(pixel): the transparent index for it alone")
            if exactPixels[pixel] {
                #expect(written[pixel] == indices[pixel] && (transparent || Self.rgb(canvas, pixel) == colors[Int(indices[pixel])]), "protected pixel \(pixel)")
            } else if written[pixel] != indices[pixel] {
                changedOutside += 1
            }
        }
        #expect(changedOutside > 500, "lossy compression changed \(changedOutside) pixels elsewhere")
    }

    @Test("more loss, fewer bytes: a photograph at loss 0, 20, 40, 80, 120, 200")
    func fewerBytes() {
        let (width, height) = (200, 150)
        let photo = Self.quantizedPhotograph(width: width, height: height, seed: 5)
        let sizes = [0, 20, 40, 80, 120, 200].map { Self.compress(photo.indices, width: width, colors: photo.colors, loss: $0).gif.count }
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "sizes \(sizes)")
        #expect(sizes[2] * 10 < sizes[0] * 9 && sizes[5] * 2 < sizes[0], "sizes \(sizes)")
    }
}

/// The lossy levers in the encoder: the indicator's box stays as without
/// them, and with none pulled the bytes are the same.
@Suite("Lossy frames in the encoder")
struct LossyEncoderTests {
    /// A carousel in small: three photographs above a flat band whose dot
    /// moves between cuts. The band is `band`.
    static let band = PixelRect(x: 0, y: 48, width: 96, height: 16)

    static func carousel() -> TestAnimation {
        var animation = TestAnimation(width: 96, height: 64)
        let photos = (0..<3).map { photographRGBA(width: 96, height: 48, seed: UInt64($0 + 10)) }
        for slide in 0..<3 {
            for step in 0..<4 {
                let dot = Double(slide * 4 + step) * 7 + 10
                animation.append(delay: step == 0 ? 1000 : 40) { x, y in
                    guard y >= band.y else { return Array(photos[slide][(y * 96 + x) * 4..<(y * 96 + x) * 4 + 4]) }
                    let a = TestAnimation.disc(x, y, cx: dot, cy: 56, diameter: 9)
                    let mix = { (c: Double, b: Double) in UInt8((c * a + b * (1 - a)).rounded()) }
                    return [mix(30, 245), mix(90, 240), mix(220, 230), 255]
                }
            }
        }
        return animation
    }

    @Test("no lever pulled, or pulled to what it is: the same bytes, photographs and indicator art")
    func sameBytes() {
        let carousel = Self.carousel()
        let photographic = carousel.encode(encoder: GIFEncoder(quantizing: .photographic))
        for settings in [
            QuantizerSettings.photographic.lossy(0), .photographic.protecting([Self.band]), .photographic.limitingColors(to: 64),
            .photographic.lossy(0).protecting([Self.band]).limitingColors(to: 64),
        ] {
            #expect(carousel.encode(encoder: GIFEncoder(quantizing: settings)) == photographic)
        }
        let dots = TestAnimation.slidingDot(count: 4, diameter: 10, steps: 4)
        let flat = dots.encode()
        #expect(dots.encode(encoder: GIFEncoder(quantizing: .flat.lossy(0).limitingColors(to: 256).protecting([Self.band]))) == flat)
    }

    @Test("lossy photographs: the band decodes as without loss in every frame, the file is smaller", arguments: [40, 200])
    func protectedBand(loss: Int) throws {
        let carousel = Self.carousel()
        let exact = try GIFReader(carousel.encode(encoder: GIFEncoder(quantizing: .photographic)))
        let lossyBytes = carousel.encode(encoder: GIFEncoder(quantizing: .photographic.lossy(loss).protecting([Self.band])))
        let lossy = try GIFReader(lossyBytes)
        #expect(lossy.frames.count == exact.frames.count)
        var slideDifferences = 0
        for (number, (frame, reference)) in zip(lossy.frames, exact.frames).enumerated() {
            let bandBytes = Self.band.y * 96 * 4..<frame.canvas.count
            #expect(frame.canvas[bandBytes] == reference.canvas[bandBytes], "frame \(number): the band differs")
            slideDifferences += zip(frame.canvas[..<bandBytes.lowerBound], reference.canvas[..<bandBytes.lowerBound]).filter { $0 != $1 }.count
        }
        #expect(slideDifferences > 0, "the slides are lossy")
        #expect(lossyBytes.count < carousel.encode(encoder: GIFEncoder(quantizing: .photographic)).count)
    }

    @Test("indicator art, lossy but protected everywhere: the lossless bytes; unprotected: fewer, frames within the bound")
    func flatProtectedEverywhere() throws {
        let dots = TestAnimation.slidingDot(count: 4, diameter: 12, steps: 4, background: [250, 248, 240])
        let canvas = PixelRect(x: 0, y: 0, width: dots.width, height: dots.height)
        #expect(dots.encode(encoder: GIFEncoder(quantizing: .flat.lossy(200).protecting([canvas]))) == dots.encode())
        let lossyBytes = dots.encode(encoder: GIFEncoder(quantizing: .flat.lossy(200)))
        #expect(lossyBytes.count < dots.encode().count)
        let read = try GIFReader(lossyBytes)
        let expected = dots.expectedFrames()
        #expect(read.frames.count == expected.count)
        for (number, (frame, wanted)) in zip(read.frames, expected).enumerated() {
            let outside = (0..<dots.width * dots.height).filter {
                !LossyMatching.isWithinBound(LossyCompressionTests.rgb(wanted.canvas, $0), LossyCompressionTests.rgb(frame.canvas, $0), threshold: 2000)
            }
            #expect(outside.isEmpty, "frame \(number): \(outside.count) pixels past the bound")
        }
    }

    @Test("repeated frames with lossy compression: the same file as with nothing remembered; a move repeated where protected is exact there",
          arguments: [false, true])
    func rememberedImages(protectingRightHalf: Bool) throws {
        // Five dots: the moves from the second dot on repeat the first, the last ones in the right half.
        let dots = TestAnimation.slidingDot(count: 5, diameter: 10, steps: 4, background: [20, 20, 24])
        let rightHalf = PixelRect(x: dots.width / 2, y: 0, width: dots.width - dots.width / 2, height: dots.height)
        let settings = QuantizerSettings.flat.lossy(200).protecting(protectingRightHalf ? [rightHalf] : [])
        let remembering = dots.encode(encoder: GIFEncoder(quantizing: settings))
        let forgetful = GIFEncoder(quantizing: settings, budget: CacheBudget(allowances: [.patches: 0, .steps: 0]))
        #expect(remembering == dots.encode(encoder: forgetful))
        guard protectingRightHalf else { return }
        let read = try GIFReader(remembering)
        let expected = dots.expectedFrames()
        #expect(read.frames.count == expected.count)
        for (number, (frame, wanted)) in zip(read.frames, expected).enumerated() {
            var differing = 0
            for y in 0..<dots.height {
                let start = 4 * (y * dots.width + rightHalf.x), end = 4 * (y + 1) * dots.width
                differing += frame.canvas[start..<end] == wanted.canvas[start..<end] ? 0 : 1
            }
            #expect(differing == 0, "frame \(number): protected pixels differ in \(differing) rows")
        }
    }
}
