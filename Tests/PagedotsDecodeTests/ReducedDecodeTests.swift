import Glibc
import PagedotsDecode
import Testing

@Suite("Image decoders: reduced while decoding, and camera-size images")
struct ReducedDecodeTests {
    @Test(
        "A PNG larger than needed is reduced as it streams: exactly the average of each cell of its whole decode, interlaced or not",
        arguments: ["rgba.png", "interlaced.png", "rgba16.png", "palette-transparent.png", "gray.png", "bilevel.png"], [2, 3, 7]
    )
    func png(name: String, factor: Int) throws {
        let whole = try Fixtures.decode(name)
        let reduced = try Fixtures.decode(name, atLeast: ((whole.width + factor - 1) / factor, (whole.height + factor - 1) / factor))
        #expect(reduced == boxReduced(whole, by: factor))
    }

    @Test("The factor is the largest whole one that keeps both sides at least as large as asked (a 20 × 16 PNG)")
    func factor() throws {
        func size(_ minimum: (Int, Int)) throws -> [Int] {
            let image = try Fixtures.decode("rgba.png", atLeast: minimum)
            return [image.width, image.height]
        }
        #expect(try size((10, 1)) == [10, 8])
        #expect(try size((11, 1)) == [20, 16])
        #expect(try size((1, 6)) == [7, 6])
        #expect(try size((7, 6)) == [7, 6])
        #expect(try size((1, 1)) == [1, 1])
        #expect(try size((40, 40)) == [20, 16])
        // No smaller than the image itself: the same pixels as a decode without a minimum.
        #expect(try Fixtures.decode("rgba.png", atLeast: (20, 16)) == Fixtures.decode("rgba.png"))
    }

    @Test("A 7000 × 7000 PNG under camera limits: reduced by 5 as it streams, every cell the average of the rectangles in it")
    func largePNG() throws {
        let image = try Fixtures.decode("flat-7000x7000.png", limits: cameraLimits, atLeast: (1400, 1400))
        #expect(image.width == 1400 && image.height == 1400)
        // make-fixtures.py's rectangles (half-open) over the background, none overlapping, and their RGBA.
        let background = [30, 90, 160, 255]
        let rectangles: [(x: Range<Int>, y: Range<Int>, color: [Int])] = [
            (0..<3333, 0..<2501, [220, 60, 40, 255]), (4999..<7000, 4003..<7000, [0, 255, 0, 0]), (0..<2223, 5001..<7000, [255, 255, 255, 128]),
        ]
        // A cell's expected pixel follows from how many of its columns and rows each rectangle covers;
        // rows of cells covered alike are alike, so each such row is computed once.
        func covered(_ range: Range<Int>, _ cell: Int) -> Int { range.clamped(to: (cell * 5)..<(cell * 5 + 5)).count }
        func expectedCell(pixelCounts counts: [Int]) -> [UInt8] {
            var sums = [0, 0, 0, 0]
            let colors: [[Int]] = rectangles.map(\.color) + [background]
            for (color, count) in zip(colors, counts + [25 - counts.reduce(0, +)]) {
                for channel in 0..<3 { sums[channel] += color[channel] * color[3] * count }
                sums[3] += color[3] * count
            }
            let alpha = sums[3]
            return (0..<3).map { UInt8(alpha == 0 ? 0 : (sums[$0] + alpha / 2) / alpha) } + [UInt8((alpha + 12) / 25)]
        }
        let columnsCovered = (0..<1400).map { cellX in rectangles.map { covered($0.x, cellX) } }
        var expectedRows: [[Int]: [UInt8]] = [:]
        var wrongRows: [Int] = []
        for cellY in 0..<1400 {
            let rowsCovered = rectangles.map { covered($0.y, cellY) }
            let expected = expectedRows[rowsCovered] ?? columnsCovered.flatMap { expectedCell(pixelCounts: zip($0, rowsCovered).map(*)) }
            expectedRows[rowsCovered] = expected
            let rowBytes = 1400 * 4
            let same = image.pixels.withUnsafeBytes { pixels in
                expected.withUnsafeBytes { expected in
                    guard let row = pixels.baseAddress?.advanced(by: cellY * rowBytes), let expectedRow = expected.baseAddress else { return false }
                    return memcmp(row, expectedRow, rowBytes) == 0
                }
            }
            if !same { wrongRows.append(cellY) }
        }
        #expect(wrongRows.isEmpty, "rows of cells that differ: \(wrongRows.prefix(10))")
        #expect(throws: ImageDecodingError.tooLarge(width: 7000, height: 7000, limits: ImageSizeLimits())) {
            try Fixtures.probe("flat-7000x7000.png")
        }
    }

    @Test("A 24-megapixel JPEG under camera limits: decoded at 1/4 and 1/8, its flat rectangles where they were")
    func cameraJPEG() throws {
        #expect(try Fixtures.probe("camera-6000x4000.jpg", limits: cameraLimits) == ImageProbe(kind: .jpeg, width: 6000, height: 4000))
        for (denominator, minimum) in [(4, (1500, 1000)), (8, (750, 500))] {
            let image = try Fixtures.decode("camera-6000x4000.jpg", limits: cameraLimits, atLeast: minimum)
            #expect((image.width, image.height) == minimum)
            let red = [220, 60, 40], blue = [30, 90, 160], white = [240, 240, 240]
            for (x, y, color) in [(100, 100, red), (5900, 100, blue), (100, 3900, blue), (5900, 3900, white), (2900, 1900, red), (3100, 2100, white)] {
                let pixel = image.pixel(x: x / denominator, y: y / denominator).map(Int.init)
                #expect(zip(pixel, color).allSatisfy { abs($0 - $1) <= 4 } && pixel[3] == 255, "1/\(denominator) at (\(x), \(y)): \(pixel)")
            }
        }
        #expect(throws: ImageDecodingError.tooLarge(width: 6000, height: 4000, limits: ImageSizeLimits())) {
            try Fixtures.probe("camera-6000x4000.jpg")
        }
    }

    @Test(
        "A header 9000 pixels wide is refused under camera limits in every format, from the header",
        arguments: [("wide-9000.png", 16), ("wide-9000.jpg", 24), ("wide-9000.webp", 24), ("wide-9000.heic", 16), ("wide-9000.avif", 16)]
    )
    func wide(name: String, height: Int) {
        let error = ImageDecodingError.tooLarge(width: 9000, height: height, limits: cameraLimits)
        #expect(throws: error) { try Fixtures.probe(name, limits: cameraLimits) }
        #expect(throws: error) { try Fixtures.decode(name, limits: cameraLimits, atLeast: (100, 100)) }
        #expect(error.description == "9000 × \(height) pixels is too large: at most 8192 a side and 50,000,000 in all; scale it down")
    }
}
