import Testing
import TestSupport

extension HandMadePNG {
    /// fcTL data: sequence, region, delay, dispose and blend operations.
    static func frameControl(
        sequence: Int, width: Int, height: Int, x: Int = 0, y: Int = 0,
        delay: (Int, Int) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
    ) -> [UInt8] {
        [sequence, width, height, x, y].flatMap(bigEndian)
            + [UInt8(delay.0 >> 8), UInt8(delay.0 & 0xFF), UInt8(delay.1 >> 8), UInt8(delay.1 & 0xFF), dispose, blend]
    }

    /// fdAT data: a sequence number and indexed rows, unfiltered and compressed.
    static func frameData(sequence: Int, rows: [[UInt8]]) -> [UInt8] {
        bigEndian(sequence) + imageData(rows: rows, types: rows.map { _ in 0 }, stride: 1)
    }

    /// A valid 2×2 indexed APNG (half-transparent red, opaque blue) of three
    /// frames, played twice: the default image, disposed PREVIOUS (which on
    /// the first frame means BACKGROUND); a blue pixel blended OVER at (1, 1);
    /// then red and blue OVER the top row.
    static var animated: HandMadePNG {
        HandMadePNG(chunks: [
            ("IHDR", header(width: 2, height: 2, bitDepth: 8, colorType: 3)),
            ("acTL", bigEndian(3) + bigEndian(2)),
            ("PLTE", [255, 0, 0, 0, 0, 255]),
            ("tRNS", [128]),
            ("fcTL", frameControl(sequence: 0, width: 2, height: 2, dispose: 2)),
            ("IDAT", imageData(rows: [[0, 1], [1, 0]], types: [0, 0], stride: 1)),
            ("fcTL", frameControl(sequence: 1, width: 1, height: 1, x: 1, y: 1, delay: (0, 0), blend: 1)),
            ("fdAT", frameData(sequence: 2, rows: [[1]])),
            ("fcTL", frameControl(sequence: 3, width: 2, height: 1, delay: (3, 1000), blend: 1)),
            ("fdAT", frameData(sequence: 4, rows: [[0, 1]])),
            ("IEND", []),
        ])
    }
}

@Suite("The test decoder composites APNG frames and is strict about APNG's rules")
struct APNGDecoderTests {
    static let red: [UInt8] = [255, 0, 0, 128], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]

    @Test("a hand-made APNG: dispose, blend, delays and play count as the specification says")
    func animated() throws {
        let decoded = try PNGDecoder.decodeAnimation(HandMadePNG.animated.bytes)
        #expect(decoded.plays == 2)
        #expect(decoded.defaultImageIsFirstFrame)
        #expect(decoded.image.rgba == Self.red + Self.blue + Self.blue + Self.red)
        #expect(decoded.frames.map(\.rgba) == [
            Self.red + Self.blue + Self.blue + Self.red,
            Self.clear + Self.clear + Self.clear + Self.blue,
            Self.red + Self.blue + Self.clear + Self.blue,
        ])
        #expect(decoded.frames.map(\.milliseconds) == [100, 0, 3])
    }

    @Test("a default image that is not a frame: the frames come from fdAT alone")
    func defaultImageApart() throws {
        var png = HandMadePNG.animated
        png.chunks.remove(at: 4)  // the first fcTL
        png.chunks[1].data = HandMadePNG.bigEndian(2) + HandMadePNG.bigEndian(0)
        png.chunks[5].data = HandMadePNG.frameControl(sequence: 0, width: 1, height: 1, x: 1, y: 1, blend: 1)
        png.chunks[6].data = HandMadePNG.frameData(sequence: 1, rows: [[1]])
        png.chunks[7].data = HandMadePNG.frameControl(sequence: 2, width: 2, height: 1, blend: 1)
        png.chunks[8].data = HandMadePNG.frameData(sequence: 3, rows: [[0, 1]])
        let decoded = try PNGDecoder.decodeAnimation(png.bytes)
        #expect(!decoded.defaultImageIsFirstFrame)
        #expect(decoded.frames.map(\.rgba) == [Self.clear + Self.clear + Self.clear + Self.blue, Self.red + Self.blue + Self.clear + Self.blue])
    }

    @Test("OVER follows the PNG specification's formula")
    func overFormula() {
        #expect(PNGDecoder.over([10, 20, 30, 0], [1, 2, 3, 4]) == [1, 2, 3, 4])
        #expect(PNGDecoder.over([10, 20, 30, 255], [1, 2, 3, 4]) == [10, 20, 30, 255])
        #expect(PNGDecoder.over([10, 20, 30, 40], [1, 2, 3, 0]) == [10, 20, 30, 40])
        // Half over half: alpha 0.75, colour (255·0.5 + 0·0.25) / 0.75.
        #expect(PNGDecoder.over([255, 0, 0, 128], [0, 0, 255, 128]) == [170, 0, 85, 192])
    }

    /// A broken variant of the animated file: what is wrong, words the error
    /// must contain, and the change that breaks it.
    static let broken: [(String, String, @Sendable (inout HandMadePNG) -> Void)] = [
        ("no acTL", "no acTL", { $0.chunks.remove(at: 1) }),
        ("acTL after IDAT", "acTL after IDAT", { $0.chunks.insert($0.chunks.remove(at: 1), at: 5) }),
        ("acTL counts another number of frames", "acTL says 4", { $0.chunks[1].data = HandMadePNG.bigEndian(4) + HandMadePNG.bigEndian(0) }),
        ("a gap in the sequence", "sequence number 3, expected 2", { $0.chunks[7].data.replaceSubrange(0 ..< 4, with: HandMadePNG.bigEndian(3)) }),
        ("a region beyond the canvas", "not within", {
            $0.chunks[6].data = HandMadePNG.frameControl(sequence: 1, width: 1, height: 1, x: 2, y: 1)
        }),
        ("an empty region", "not within", { $0.chunks[6].data = HandMadePNG.frameControl(sequence: 1, width: 0, height: 1) }),
        ("an unknown dispose operation", "dispose_op 3", { $0.chunks[6].data = HandMadePNG.frameControl(sequence: 1, width: 1, height: 1, dispose: 3) }),
        ("a default image frame smaller than the canvas", "whole canvas", {
            $0.chunks[4].data = HandMadePNG.frameControl(sequence: 0, width: 1, height: 2)
        }),
        ("two fcTL before IDAT", "more than one fcTL before IDAT", {
            $0.chunks.insert(("fcTL", HandMadePNG.frameControl(sequence: 1, width: 2, height: 2)), at: 5)
        }),
        ("fdAT before IDAT", "fdAT without an fcTL", { $0.chunks.insert($0.chunks.remove(at: 7), at: 5) }),
        ("an fcTL without data", "no image data", { $0.chunks.remove(at: 9); $0.chunks[1].data = HandMadePNG.bigEndian(3) + HandMadePNG.bigEndian(0) }),
        ("fdAT that inflates to too little", "inflate", { $0.chunks[9].data = HandMadePNG.frameData(sequence: 4, rows: [[0]]) }),
    ]

    @Test("broken APNGs are refused", arguments: broken.indices)
    func refused(index: Int) {
        expectRefused(Self.broken[index], breaking: .animated) { _ = try PNGDecoder.decodeAnimation($0) }
    }

    @Test("a still PNG still decodes as before, and is not an APNG")
    func still() throws {
        #expect(try PNGDecoder.decode(HandMadePNG.valid.bytes).width == 2)
        #expect(throws: PNGDecodingError.self) { try PNGDecoder.decodeAnimation(HandMadePNG.valid.bytes) }
    }
}
