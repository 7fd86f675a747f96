/// A decoded APNG: the default image, how many times the animation plays,
/// and every frame as a viewer shows it (each frame composited onto the
/// canvas the frames before it left).
public struct DecodedAPNG: Hashable, Sendable {
    /// The file decoded as a still PNG: the default image (IDAT) and every chunk's type.
    public var image: DecodedPNG
    /// acTL's num_plays: 0 is forever.
    public var plays: Int
    /// Whether the default image is the first frame (its fcTL comes before IDAT).
    public var defaultImageIsFirstFrame: Bool
    public var frames: [DecodedFrame]
}

/// One APNG frame: its fcTL and the whole canvas after it is drawn.
public struct DecodedFrame: Hashable, Sendable {
    /// The frame's region.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var delayNumerator: Int
    /// As stored: 0 means 100.
    public var delayDenominator: Int
    /// 0 none, 1 background, 2 previous.
    public var dispose: UInt8
    /// 0 source, 1 over.
    public var blend: UInt8
    /// The canvas as shown after this frame: `width × height × 4` of the image, RGBA.
    public var rgba: [UInt8]

    /// How long the frame shows, in milliseconds.
    public var milliseconds: Double {
        Double(delayNumerator) * 1000 / Double(delayDenominator == 0 ? 100 : delayDenominator)
    }
}

extension PNGDecoder {
    /// Decodes an APNG file and composites its frames as the APNG
    /// specification says: checks everything `decode(_:)` checks, then that
    /// there is one acTL, before IDAT, whose frame count is the number of
    /// fcTLs; that fcTL and fdAT sequence numbers run 0, 1, 2… in file order;
    /// that at most one fcTL (the default image's, covering the whole canvas)
    /// comes before IDAT and every later fcTL is followed by its fdATs; that
    /// each region lies within the canvas and each operation is known. The
    /// canvas starts transparent black; before a frame is drawn, the one
    /// before is disposed of (PREVIOUS on the first frame meaning BACKGROUND);
    /// OVER composites with the PNG specification's alpha formula, exact when
    /// either alpha is 0 or 255 and rounded to the nearest otherwise (a fully
    /// transparent source pixel leaves the canvas pixel as it is, whatever
    /// its colour values, as browsers do).
    public static func decodeAnimation(_ bytes: [UInt8]) throws(PNGDecodingError) -> DecodedAPNG {
        let image = try decode(bytes)
        let chunks = try readChunks(bytes)
        let types = chunks.map(\.type)
        guard types.filter({ $0 == "acTL" }).count == 1, let actlIndex = types.firstIndex(of: "acTL") else {
            throw PNGDecodingError("not an APNG: no acTL, or more than one")
        }
        guard let firstData = types.firstIndex(of: "IDAT"), actlIndex < firstData else { throw PNGDecodingError("acTL after IDAT") }
        let actl = chunks[actlIndex].data
        guard actl.count == 8 else { throw PNGDecodingError("acTL has \(actl.count) bytes, not 8") }
        let frameCount = Int(bigEndian32(actl, at: 0)), plays = Int(bigEndian32(actl, at: 4))

        // Frames: each fcTL with the data that follows it (IDAT for one before IDAT).
        var controls: [(control: [UInt8], data: [UInt8])] = []
        var expectedSequence: UInt32 = 0
        var defaultImageIsFirstFrame = false
        for (index, chunk) in chunks.enumerated() {
            switch chunk.type {
            case "fcTL":
                guard chunk.data.count == 26 else { throw PNGDecodingError("fcTL has \(chunk.data.count) bytes, not 26") }
                try checkSequence(chunk.data, expected: &expectedSequence)
                if index < firstData {
                    guard controls.isEmpty else { throw PNGDecodingError("more than one fcTL before IDAT") }
                    defaultImageIsFirstFrame = true
                    controls.append((chunk.data, chunks.filter { $0.type == "IDAT" }.flatMap(\.data)))
                } else {
                    controls.append((chunk.data, []))
                }
            case "fdAT":
                guard index > firstData, let last = controls.indices.last, !(defaultImageIsFirstFrame && last == 0) else {
                    throw PNGDecodingError("fdAT without an fcTL after IDAT before it")
                }
                guard chunk.data.count >= 4 else { throw PNGDecodingError("fdAT shorter than its sequence number") }
                try checkSequence(chunk.data, expected: &expectedSequence)
                controls[last].data += chunk.data[4...]
            default:
                continue
            }
        }
        guard controls.count == frameCount, frameCount > 0 else {
            throw PNGDecodingError("acTL says \(frameCount) frames, the file has \(controls.count) fcTL")
        }

        let header = try Header(chunks[0].data)
        let palette = chunks.first { $0.type == "PLTE" }?.data ?? []
        let transparency = chunks.first { $0.type == "tRNS" }?.data ?? []
        var canvas = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var frames: [DecodedFrame] = []
        var previous: (frame: DecodedFrame, saved: [UInt8])?
        for (number, (control, data)) in controls.enumerated() {
            var frame = try frameControl(control, canvas: header)
            if number == 0 && defaultImageIsFirstFrame && (frame.x, frame.y, frame.width, frame.height) != (0, 0, header.width, header.height) {
                throw PNGDecodingError("the default image's fcTL does not cover the whole canvas")
            }
            guard !data.isEmpty else { throw PNGDecodingError("frame \(number) has no image data") }
            if let (before, saved) = previous {
                let dispose = number == 1 && before.dispose == 2 ? 1 : before.dispose
                if dispose == 1 {
                    paste([UInt8](repeating: 0, count: before.width * before.height * 4), into: &canvas, frame: before, canvasWidth: header.width)
                } else if dispose == 2 {
                    paste(saved, into: &canvas, frame: before, canvasWidth: header.width)
                }
            }
            let saved = region(of: canvas, frame: frame, canvasWidth: header.width)
            var frameHeader = header
            frameHeader.width = frame.width
            frameHeader.height = frame.height
            let rows = try unfilter(
                inflate(data, expectedCount: (1 + frameHeader.rowBytes) * frame.height),
                rowBytes: frameHeader.rowBytes, height: frame.height, stride: frameHeader.filterStride
            )
            var pixels = try frameHeader.expand(rows, palette: palette, transparency: transparency)
            if frame.blend == 1 {
                for offset in stride(from: 0, to: pixels.count, by: 4) {
                    let composite = over(Array(pixels[offset ..< offset + 4]), Array(saved[offset ..< offset + 4]))
                    pixels.replaceSubrange(offset ..< offset + 4, with: composite)
                }
            }
            paste(pixels, into: &canvas, frame: frame, canvasWidth: header.width)
            frame.rgba = canvas
            frames.append(frame)
            previous = (frame, saved)
        }
        return DecodedAPNG(image: image, plays: plays, defaultImageIsFirstFrame: defaultImageIsFirstFrame, frames: frames)
    }

    /// The sequence number at the start of an fcTL or fdAT must be the next one.
    static func checkSequence(_ data: [UInt8], expected: inout UInt32) throws(PNGDecodingError) {
        let sequence = bigEndian32(data, at: 0)
        guard sequence == expected else { throw PNGDecodingError("sequence number \(sequence), expected \(expected)") }
        expected += 1
    }

    /// An fcTL's fields, checked against the canvas; the pixels are filled in later.
    static func frameControl(_ data: [UInt8], canvas: Header) throws(PNGDecodingError) -> DecodedFrame {
        let field = { (offset: Int) in Int(bigEndian32(data, at: offset)) }
        let frame = DecodedFrame(
            x: field(12), y: field(16), width: field(4), height: field(8),
            delayNumerator: Int(data[20]) << 8 | Int(data[21]), delayDenominator: Int(data[22]) << 8 | Int(data[23]),
            dispose: data[24], blend: data[25], rgba: []
        )
        guard frame.width > 0, frame.height > 0, frame.x + frame.width <= canvas.width, frame.y + frame.height <= canvas.height else {
            throw PNGDecodingError("frame region \(frame.width)×\(frame.height) at (\(frame.x), \(frame.y)) is not within the \(canvas.width)×\(canvas.height) canvas")
        }
        guard frame.dispose <= 2, frame.blend <= 1 else {
            throw PNGDecodingError("fcTL dispose_op \(frame.dispose) or blend_op \(frame.blend) is unknown")
        }
        return frame
    }

    /// The canvas pixels under a frame's region.
    static func region(of canvas: [UInt8], frame: DecodedFrame, canvasWidth: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in frame.y ..< frame.y + frame.height {
            let start = (y * canvasWidth + frame.x) * 4
            pixels += canvas[start ..< start + frame.width * 4]
        }
        return pixels
    }

    /// Writes a frame region's pixels into the canvas.
    static func paste(_ pixels: [UInt8], into canvas: inout [UInt8], frame: DecodedFrame, canvasWidth: Int) {
        for row in 0 ..< frame.height {
            let start = ((frame.y + row) * canvasWidth + frame.x) * 4
            canvas.replaceSubrange(start ..< start + frame.width * 4, with: pixels[row * frame.width * 4 ..< (row + 1) * frame.width * 4])
        }
    }

    /// `source` OVER `destination`, straight alpha (PNG specification, "Alpha channel processing").
    public static func over(_ source: [UInt8], _ destination: [UInt8]) -> [UInt8] {
        let sourceAlpha = Int(source[3]), destinationAlpha = Int(destination[3])
        if sourceAlpha == 0 { return destination }
        if sourceAlpha == 255 || destinationAlpha == 0 { return source }
        // In units of 1/255²: alpha out = as + ad·(1 − as).
        let outAlpha = sourceAlpha * 255 + destinationAlpha * (255 - sourceAlpha)
        let colour = (0..<3).map { channel in
            let sum = Int(source[channel]) * sourceAlpha * 255 + Int(destination[channel]) * destinationAlpha * (255 - sourceAlpha)
            return UInt8((sum + outAlpha / 2) / outAlpha)
        }
        return colour + [UInt8((outAlpha + 127) / 255)]
    }
}
