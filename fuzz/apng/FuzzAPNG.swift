// libFuzzer harness for the APNG writer: compiled together with
// Sources/PagedotsPNG/*.swift and the test decoder (Tests/TestSupport/PNGDecoder*.swift)
// as one module (see scripts/fuzz).
//
// Input: a canvas size, a play count, up to 8 colours, and a frame script:
// per frame a delay and rectangles painted over the frame before (none: the
// same frame again, which the encoder merges), or noise of many colours.
// The harness encodes the frames, decodes the file strictly, composites its
// frames and checks that they are the input frames (consecutive equal ones
// merged, their delays added), with the delays and play count asked for,
// and that the default image is the first frame.

import PagedotsPixels

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let width = Int(input.byte() % 40) + 1, height = Int(input.byte() % 24) + 1
    let plays = Int(input.byte() % 4)
    let colors = (0 ..< Int(input.byte() % 8) + 1).map { _ in [input.byte(), input.byte(), input.byte(), input.alpha()] }
    var frames: [(pixels: [UInt8], delayMilliseconds: Int)] = []
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for index in 0 ..< width * height {
        pixels.replaceSubrange(index * 4 ..< index * 4 + 4, with: colors[0])
    }
    while !input.isEmpty && frames.count < 24 {
        let command = input.byte()
        let milliseconds = command & 0x80 != 0 ? Int(input.byte()) * 256_990 : (Int(command & 0x0F) + 2) * 10
        if command & 0x40 != 0 {
            // Noise: up to width × height colours, often more than a palette holds.
            for index in 0 ..< width * height {
                let value = input.byte()
                pixels.replaceSubrange(index * 4 ..< index * 4 + 4, with: [value, value &* 7, value &* 13, input.alpha()])
            }
        }
        for _ in 0 ..< Int(command >> 4 & 0x3) {
            let x = Int(input.byte()) % width, y = Int(input.byte()) % height
            let w = Int(input.byte()) % (width - x) + 1, h = Int(input.byte()) % (height - y) + 1
            let color = colors[Int(input.byte()) % colors.count]
            for row in y ..< y + h {
                for column in x ..< x + w {
                    pixels.replaceSubrange((row * width + column) * 4 ..< (row * width + column) * 4 + 4, with: color)
                }
            }
        }
        frames.append((pixels, milliseconds))
    }
    let file = APNGEncoder().encode(FrameList(width: width, height: height, count: frames.count) { frames[$0] }, plays: plays)
    guard !frames.isEmpty else {
        let still = try? PNGDecoder.decode(file)
        precondition(still?.rgba == [UInt8](repeating: 0, count: width * height * 4), "no frames: not a transparent still")
        return 0
    }
    let decoded: DecodedAPNG
    do {
        decoded = try PNGDecoder.decodeAnimation(file)
    } catch {
        preconditionFailure("the file does not decode: \(error)")
    }
    precondition(decoded.plays == plays, "plays \(decoded.plays), expected \(plays)")
    precondition(decoded.defaultImageIsFirstFrame && decoded.image.rgba == frames[0].pixels, "the default image is not the first frame")
    // Merge runs of equal frames; a decoded frame that repeats the one before carries on its delay.
    var expected: [(pixels: [UInt8], milliseconds: Int)] = []
    for frame in frames {
        if expected.last?.pixels == frame.pixels {
            expected[expected.count - 1].milliseconds += frame.delayMilliseconds
        } else {
            expected.append((frame.pixels, frame.delayMilliseconds))
        }
    }
    var shown: [(pixels: [UInt8], milliseconds: Double)] = []
    for frame in decoded.frames {
        if shown.last?.pixels == frame.rgba {
            shown[shown.count - 1].milliseconds += frame.milliseconds
        } else {
            shown.append((frame.rgba, frame.milliseconds))
        }
    }
    precondition(shown.count == expected.count, "\(shown.count) frames shown, expected \(expected.count)")
    for (number, (got, want)) in zip(shown, expected).enumerated() {
        precondition(got.pixels == want.pixels, "frame \(number) composites to other pixels")
        precondition(got.milliseconds == Double(want.milliseconds), "frame \(number) shows \(got.milliseconds) ms, expected \(want.milliseconds)")
    }
    let again = APNGEncoder().encode(FrameList(width: width, height: height, count: frames.count) { frames[$0] }, plays: plays)
    precondition(again == file, "the same frames gave other bytes")
    return 0
}

/// Reads the fuzzer's bytes front to back; zeros once they run out.
struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    /// An alpha value, biased to the ones that matter most: 0, 255, or any.
    mutating func alpha() -> UInt8 {
        let value = byte()
        return value < 85 ? 0 : value < 170 ? 255 : value
    }
}
