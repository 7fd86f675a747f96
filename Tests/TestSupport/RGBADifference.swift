/// Where two RGBA images of the same size differ by more than a tolerance:
/// how many pixels, the first one and the largest channel difference.
/// `description` is one line for a test failure.
public struct RGBADifference: Hashable, Sendable, CustomStringConvertible {
    /// Pixels with a channel further apart than the tolerance.
    public var pixelCount: Int
    /// The first such pixel in row order, and both values there.
    public var firstX: Int
    public var firstY: Int
    public var expected: [UInt8]
    public var actual: [UInt8]
    /// The largest difference of any channel anywhere.
    public var maxChannelDifference: Int

    public var description: String {
        "\(pixelCount) pixel(s) differ by more than the tolerance (largest channel difference \(maxChannelDifference)); "
            + "first at (\(firstX), \(firstY)): expected RGBA \(expected), got \(actual)"
    }

    /// nil when every channel of `actual` is within `tolerance` of `expected`.
    /// Images of different sizes, or buffers that do not match `width ×
    /// height`, are a difference at (0, 0) of every pixel.
    public static func between(
        expected: [UInt8], actual: [UInt8], width: Int, height: Int, tolerance: Int = 0
    ) -> RGBADifference? {
        let pixels = width * height
        guard expected.count == pixels * 4, actual.count == pixels * 4 else {
            return RGBADifference(
                pixelCount: pixels, firstX: 0, firstY: 0,
                expected: Array(expected.prefix(4)), actual: Array(actual.prefix(4)), maxChannelDifference: 255
            )
        }
        var found: RGBADifference?
        var maxDifference = 0
        for index in 0..<pixels {
            let channels = index * 4 ..< index * 4 + 4
            let difference = channels.map { abs(Int(expected[$0]) - Int(actual[$0])) }.max() ?? 0
            maxDifference = max(maxDifference, difference)
            guard difference > tolerance else { continue }
            if found == nil {
                found = RGBADifference(
                    pixelCount: 0, firstX: index % width, firstY: index / width,
                    expected: Array(expected[channels]), actual: Array(actual[channels]), maxChannelDifference: 0
                )
            }
            found?.pixelCount += 1
        }
        found?.maxChannelDifference = maxDifference
        return found
    }
}
