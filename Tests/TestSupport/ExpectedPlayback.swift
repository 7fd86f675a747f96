/// What a browser should show for a GIF's input frames, worked out
/// independently of the encoder: each frame composited over the matte
/// (`c·a + m·(255−a)` rounded; alpha 0 becoming all zeros), consecutive
/// frames that then look the same merged with their delays added up.
/// (No imports: the fuzz harness under fuzz/gif compiles it too.)
public enum ExpectedPlayback {
    public typealias Matte = (red: UInt8, green: UInt8, blue: UInt8)

    public static func frames(_ frames: [(pixels: [UInt8], delayMilliseconds: Int)], matte: Matte) -> [(canvas: [UInt8], delayMilliseconds: Int)] {
        var expected: [(canvas: [UInt8], delayMilliseconds: Int)] = []
        for frame in frames {
            let canvas = composite(frame.pixels, over: matte)
            if let last = expected.last, last.canvas == canvas {
                expected[expected.count - 1].delayMilliseconds += frame.delayMilliseconds
            } else {
                expected.append((canvas, frame.delayMilliseconds))
            }
        }
        return expected
    }

    public static func composite(_ pixels: [UInt8], over matte: Matte) -> [UInt8] {
        var out = pixels
        for start in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Double(pixels[start + 3])
            if alpha == 0 {
                out.replaceSubrange(start..<start + 4, with: [0, 0, 0, 0])
                continue
            }
            func blend(_ channel: Int, _ background: UInt8) {
                let value = (Double(pixels[start + channel]) * alpha + Double(background) * (255 - alpha)) / 255
                out[start + channel] = UInt8(value.rounded())
            }
            blend(0, matte.red)
            blend(1, matte.green)
            blend(2, matte.blue)
            out[start + 3] = 255
        }
        return out
    }
}
