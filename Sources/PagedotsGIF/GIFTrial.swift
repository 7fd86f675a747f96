/// One picture as a lighter GIF would write it, quantised once and then
/// compressed at any loss asked: what each weighs and what it decodes to,
/// without writing a file. A carousel's budget planner weighs its levers on
/// samples so (`QuantizerSettings` gives the palette's colours; every
/// pixel is drawn, opaque, as in a photograph's frame). Not `Sendable`: one
/// thread's.
public final class GIFTrial {
    /// One loss's outcome.
    public struct Outcome {
        /// The bytes of a one-frame GIF of the picture: its image data, its
        /// palette, and the headers around them.
        public var bytes: Int
        /// The pixels a decoder shows, straight RGBA (opaque).
        public var rgba: [UInt8]
    }

    /// The bytes of a GIF's header, screen, graphic control, image
    /// descriptor and trailer around one image.
    static let framingBytes = 13 + 8 + 10 + 1

    private let quantized: ColorQuantizer.Result
    private let count: Int
    private let compressor = LZWCompressor()

    /// `rgba` (`width × height`, taken as opaque) quantised by `settings`.
    public init(rgba: [UInt8], width: Int, height: Int, settings: QuantizerSettings) {
        count = min(width * height, rgba.count / 4)
        let pixels = (0..<count).map { index -> PatchPixel in
            let offset = index * 4
            return UInt32(rgba[offset]) | UInt32(rgba[offset + 1]) << 8 | UInt32(rgba[offset + 2]) << 16 | CanvasPixel.opaqueBits
        }
        quantized = count > 0
            ? ColorQuantizer.quantize(pixels, width: width, height: count / max(width, 1), settings: settings)
            : ColorQuantizer.Result(colors: [0], indices: [], transparentIndex: nil)
    }

    /// The picture compressed at `loss` (gifsicle's `--lossy` scale).
    public func outcome(loss: Int) -> Outcome {
        let tableSize = FrameWriter.tableSize(quantized.colors.count)
        var indices = quantized.indices
        var data: [UInt8] = []
        let matching = LossyMatching(loss: loss, colors: quantized.colors, transparentIndex: nil, exactPixels: [Bool](repeating: false, count: count))
        indices.withUnsafeMutableBufferPointer { _ = compressor.compressLossy($0, codeBits: tableSize.trailingZeroBitCount, matching: matching, into: &data) }
        var decoded = [UInt8](repeating: 255, count: count * 4)
        for (index, entry) in indices.enumerated() {
            let color = Int(entry) < quantized.colors.count ? quantized.colors[Int(entry)] : 0
            decoded[index * 4] = UInt8(truncatingIfNeeded: color)
            decoded[index * 4 + 1] = UInt8(truncatingIfNeeded: color >> 8)
            decoded[index * 4 + 2] = UInt8(truncatingIfNeeded: color >> 16)
        }
        return Outcome(bytes: data.count + 3 * tableSize + Self.framingBytes, rgba: decoded)
    }
}
