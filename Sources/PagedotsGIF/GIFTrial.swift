/// One picture as a lighter GIF would write it, quantised once and
/// compressed at several losses: what each weighs and what it decodes to,
/// without writing a file. A carousel's budget planner weighs its levers on
/// samples so (`QuantizerSettings` gives the palette's colours; every
/// pixel is drawn, opaque, as in a photograph's frame).
public enum GIFTrial {
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

    /// `rgba` (`width × height`, taken as opaque) quantised by `settings`,
    /// then compressed at each of `losses` (gifsicle's `--lossy` scale).
    public static func outcomes(of rgba: [UInt8], width: Int, height: Int, settings: QuantizerSettings, losses: [Int]) -> [Outcome] {
        let count = width * height
        guard count > 0, rgba.count == count * 4 else { return losses.map { _ in Outcome(bytes: framingBytes, rgba: rgba) } }
        let pixels = (0..<count).map { index -> PatchPixel in
            let offset = index * 4
            return UInt32(rgba[offset]) | UInt32(rgba[offset + 1]) << 8 | UInt32(rgba[offset + 2]) << 16 | CanvasPixel.opaqueBits
        }
        let quantized = ColorQuantizer.quantize(pixels, width: width, height: height, settings: settings)
        let tableSize = FrameWriter.tableSize(quantized.colors.count)
        let codeBits = tableSize.trailingZeroBitCount
        let compressor = LZWCompressor()
        let exact = [Bool](repeating: false, count: count)
        return losses.map { loss in
            var indices = quantized.indices
            var data: [UInt8] = []
            let matching = LossyMatching(loss: loss, colors: quantized.colors, transparentIndex: nil, exactPixels: exact)
            indices.withUnsafeMutableBufferPointer { _ = compressor.compressLossy($0, codeBits: codeBits, matching: matching, into: &data) }
            var decoded = [UInt8](repeating: 255, count: count * 4)
            for (index, entry) in indices.enumerated() {
                let color = Int(entry) < quantized.colors.count ? quantized.colors[Int(entry)] : 0
                decoded[index * 4] = UInt8(truncatingIfNeeded: color)
                decoded[index * 4 + 1] = UInt8(truncatingIfNeeded: color >> 8)
                decoded[index * 4 + 2] = UInt8(truncatingIfNeeded: color >> 16)
            }
            return Outcome(bytes: data.count + 3 * tableSize + framingBytes, rgba: decoded)
        }
    }
}
