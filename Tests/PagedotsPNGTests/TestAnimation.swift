import PagedotsPNG
import PagedotsPixels
import Testing
import TestSupport

/// An animation for tests: frames of straight RGBA and how long each shows.
struct TestAnimation {
    var width: Int
    var height: Int
    var frames: [[UInt8]]
    var delays: [Int]

    /// A rectangle painted one colour: columns `x ..< x + width`, rows `y ..< y + height`.
    struct Paint {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var color: [UInt8]
    }

    /// Frames that each paint some rectangles over the frame before, starting
    /// from `first`; every frame shows `delay` ms.
    static func painted(_ first: TestImage, steps: [[Paint]], delay: Int = 40) -> TestAnimation {
        var frames = [first.rgba]
        for paints in steps {
            var pixels = frames[frames.count - 1]
            for paint in paints {
                for y in paint.y ..< paint.y + paint.height {
                    for x in paint.x ..< paint.x + paint.width {
                        pixels.replaceSubrange((y * first.width + x) * 4 ..< (y * first.width + x) * 4 + 4, with: paint.color)
                    }
                }
            }
            frames.append(pixels)
        }
        return TestAnimation(width: first.width, height: first.height, frames: frames, delays: Array(repeating: delay, count: frames.count))
    }

    /// Something like an animated indicator: `count` antialiased dots, the
    /// current one moving from the first place to the last over `steps`
    /// frames per place, over a transparent or an opaque background.
    static func movingDot(count: Int, diameter: Int, steps: Int, background: [UInt8] = [0, 0, 0, 0]) -> TestAnimation {
        let step = diameter * 2, width = step * count, height = diameter * 2
        var frames: [[UInt8]] = []
        for frame in 0 ... (count - 1) * steps {
            let place = Double(frame) / Double(steps)
            frames.append(TestImage(width: width, height: height) { x, y in
                func coverage(atPlace center: Double) -> Double {
                    let cx = Double(x) + 0.5 - (center + 0.5) * Double(step), cy = Double(y) + 0.5 - Double(diameter)
                    return max(0, min(1, Double(diameter) / 2 - (cx * cx + cy * cy).squareRoot() + 0.5))
                }
                let inactive = coverage(atPlace: Double(x / step)) * 77 / 255, current = coverage(atPlace: place)
                let alpha = current + inactive * (1 - current)
                return blend([0, 122, 255, UInt8((alpha * 255).rounded())], over: background)
            }.rgba)
        }
        return TestAnimation(width: width, height: height, frames: frames, delays: frames.indices.map { $0 % steps == 0 ? 2680 : 40 })
    }

    /// A straight-alpha colour over an opaque or a fully transparent background.
    static func blend(_ color: [UInt8], over background: [UInt8]) -> [UInt8] {
        guard background[3] == 255 else { return color[3] == 0 ? [0, 0, 0, 0] : color }
        let alpha = Int(color[3])
        return (0 ..< 3).map { UInt8((Int(color[$0]) * alpha + Int(background[$0]) * (255 - alpha) + 127) / 255) } + [255]
    }

    func encode(plays: Int = 0, encoder: APNGEncoder = APNGEncoder()) -> [UInt8] {
        encoder.encode(FrameList(width: width, height: height, count: frames.count) { (frames[$0], delays[$0]) }, plays: plays)
    }

    /// The frames as a viewer shows them: runs of equal frames are one, shown as long as the run.
    var shown: [(rgba: [UInt8], milliseconds: Double)] {
        Self.merged(zip(frames, delays.map { Double(max(0, $0)) }).map { ($0, $1) })
    }

    static func merged(_ frames: [(rgba: [UInt8], milliseconds: Double)]) -> [(rgba: [UInt8], milliseconds: Double)] {
        var runs: [(rgba: [UInt8], milliseconds: Double)] = []
        for frame in frames {
            if runs.last?.rgba == frame.rgba {
                runs[runs.count - 1].milliseconds += frame.milliseconds
            } else {
                runs.append(frame)
            }
        }
        return runs
    }
}

/// Encodes `animation`, decodes the file strictly and expects the default
/// image to be the first frame, the play count asked for, and the frames
/// composited as the APNG specification says to be the input frames exactly,
/// each shown as long as asked (runs of equal frames counted as one).
@discardableResult
func expectAnimationRoundTrip(
    _ animation: TestAnimation, plays: Int = 0, encoder: APNGEncoder = APNGEncoder(),
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> DecodedAPNG {
    let decoded = try PNGDecoder.decodeAnimation(animation.encode(plays: plays, encoder: encoder))
    #expect(decoded.plays == max(0, plays), sourceLocation: sourceLocation)
    #expect(decoded.defaultImageIsFirstFrame, sourceLocation: sourceLocation)
    #expect(decoded.image.rgba == animation.frames[0], "the default image is not the first frame", sourceLocation: sourceLocation)
    // Pillow restores a frame blended OVER itself when it is disposed of to PREVIOUS.
    for (number, frame) in decoded.frames.enumerated() where frame.dispose == 2 && frame.blend == 1 {
        Issue.record("frame \(number) is blended OVER and disposed of to PREVIOUS", sourceLocation: sourceLocation)
    }
    let shown = TestAnimation.merged(decoded.frames.map { ($0.rgba, $0.milliseconds) }), expected = animation.shown
    #expect(shown.count == expected.count, "\(shown.count) frames shown, expected \(expected.count)", sourceLocation: sourceLocation)
    for (number, (got, want)) in zip(shown, expected).enumerated() {
        let difference = RGBADifference.between(expected: want.rgba, actual: got.rgba, width: animation.width, height: animation.height)
        #expect(difference == nil, "frame \(number): \(difference?.description ?? "")", sourceLocation: sourceLocation)
        #expect(got.milliseconds == want.milliseconds, "frame \(number) shows \(got.milliseconds) ms", sourceLocation: sourceLocation)
    }
    return decoded
}
