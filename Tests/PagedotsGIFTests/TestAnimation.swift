@testable import PagedotsGIF
import PagedotsPixels
import TestSupport

/// Frames to encode, as straight RGBA bytes with delays, and generators of
/// indicator-like animations.
struct TestAnimation {
    var width: Int
    var height: Int
    var frames: [(pixels: [UInt8], delayMilliseconds: Int)] = []

    typealias Matte = ExpectedPlayback.Matte

    /// A frame from a function of its pixels.
    mutating func append(delay: Int = 40, _ color: (_ x: Int, _ y: Int) -> [UInt8]) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let rgba = color(x, y), start = (y * width + x) * 4
                pixels[start] = rgba[0]
                pixels[start + 1] = rgba[1]
                pixels[start + 2] = rgba[2]
                pixels[start + 3] = rgba[3]
            }
        }
        frames.append((pixels, delay))
    }

    /// Encodes with `encoder`.
    func encode(plays: Int = 0, matte: Matte = (255, 255, 255), encoder: GIFEncoder = GIFEncoder()) -> [UInt8] {
        encoder.encode(FrameList(width: width, height: height, count: frames.count) { frames[$0] }, plays: plays, matte: matte)
    }

    /// The frames as a browser should show them (see `ExpectedPlayback`).
    func expectedFrames(matte: Matte = (255, 255, 255)) -> [(canvas: [UInt8], delayMilliseconds: Int)] {
        ExpectedPlayback.frames(frames, matte: matte)
    }

    static func composite(_ pixels: [UInt8], over matte: Matte) -> [UInt8] {
        ExpectedPlayback.composite(pixels, over: matte)
    }

    /// Coverage of a disc of `diameter` centred at (`cx`, `cy`) over pixel (x, y), 0…1.
    static func disc(_ x: Int, _ y: Int, cx: Double, cy: Double, diameter: Double) -> Double {
        let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
        return max(0, min(1, diameter / 2 - (dx * dx + dy * dy).squareRoot() + 0.5))
    }

    /// An indicator: `count` dots, the current one (opaque `color`) gliding
    /// from dot to dot over `steps` frames, the others `color` at 30 %,
    /// on a transparent canvas or `background`.
    static func slidingDot(
        count: Int = 5, diameter: Int = 8, steps: Int = 8, color: [UInt8] = [0, 122, 255],
        background: [UInt8]? = nil, dwell: Int = 1000
    ) -> TestAnimation {
        let pitch = diameter * 2
        var animation = TestAnimation(width: pitch * count, height: pitch)
        for page in 0..<count {
            for step in 0..<steps {
                let position = Double(page) + Double(step) / Double(steps)
                let current = position.truncatingRemainder(dividingBy: Double(count))
                animation.append(delay: step == 0 ? dwell : 40) { x, y in
                    // Dots do not overlap: only the nearest one covers the pixel.
                    let inactive = disc(x, y, cx: Double(x / pitch * pitch + diameter), cy: Double(diameter), diameter: Double(diameter))
                    let active = disc(x, y, cx: current * Double(pitch) + Double(diameter), cy: Double(diameter), diameter: Double(diameter))
                    // The current dot over the inactive ones, "over" in straight alpha.
                    let a = active + 0.3 * inactive * (1 - active)
                    if let background {
                        let mix = { (c: UInt8, b: UInt8) in UInt8((Double(c) * a + Double(b) * (1 - a)).rounded()) }
                        return [mix(color[0], background[0]), mix(color[1], background[1]), mix(color[2], background[2]), 255]
                    }
                    return color + [UInt8((a * 255).rounded())]
                }
            }
        }
        return animation
    }
}

