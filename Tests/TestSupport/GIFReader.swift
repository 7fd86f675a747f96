import CGif

/// A GIF read back with giflib's decoder (`DGifSlurp`) and played the way a
/// browser plays it: each frame drawn over what the previous frame's disposal
/// left, its transparent index leaving pixels as they were.
public struct GIFReader {
    /// One frame of the file as stored, and the canvas after drawing it.
    public struct Frame {
        public var left: Int
        public var top: Int
        public var width: Int
        public var height: Int
        /// Centiseconds, nil without a graphic control extension.
        public var delay: Int?
        /// 0 unspecified, 1 keep, 2 restore to background, 3 restore to previous.
        public var disposal: Int
        public var transparentIndex: Int?
        /// Entries of the frame's own palette, nil when it uses the global one.
        public var localPaletteSize: Int?
        /// The canvas after this frame: RGBA, transparent pixels all 0.
        public var canvas: [UInt8]
    }

    public var width = 0
    public var height = 0
    /// Entries of the global palette, nil without one.
    public var globalPaletteSize: Int?
    /// The NETSCAPE2.0 repetition count, nil without the extension.
    public var loopRepetitions: Int?
    public var frames: [Frame] = []

    /// How many times a browser plays the cycle: 0 for forever.
    public var plays: Int {
        guard let loopRepetitions else { return 1 }
        return loopRepetitions == 0 ? 0 : loopRepetitions + 1
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where giflib's input function reads from.
    private final class Input {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    public init(_ bytes: [UInt8]) throws {
        let input = Input(bytes)
        var error: Int32 = 0
        let opened = withExtendedLifetime(input) {
            DGifOpen(Unmanaged.passUnretained(input).toOpaque(), { file, buffer, count in
                guard let file, let buffer, let userData = file.pointee.UserData else { return 0 }
                let input = Unmanaged<Input>.fromOpaque(userData).takeUnretainedValue()
                let taken = min(Int(count), input.bytes.count - input.offset)
                for index in 0..<taken {
                    buffer[index] = input.bytes[input.offset + index]
                }
                input.offset += taken
                return Int32(taken)
            }, &error)
        }
        guard let file = opened else { throw Failure(description: "DGifOpen failed with error \(error)") }
        defer { DGifCloseFile(file, nil) }
        guard withExtendedLifetime(input, { DGifSlurp(file) }) == GIF_OK else {
            throw Failure(description: "DGifSlurp failed with error \(file.pointee.Error)")
        }
        width = Int(file.pointee.SWidth)
        height = Int(file.pointee.SHeight)
        globalPaletteSize = file.pointee.SColorMap.map { Int($0.pointee.ColorCount) }
        try readFrames(file)
    }

    private mutating func readFrames(_ file: UnsafeMutablePointer<GifFileType>) throws {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var previous: Frame?
        var saved = canvas
        for number in 0..<Int(file.pointee.ImageCount) {
            let image = file.pointee.SavedImages[number]
            if number == 0 {
                loopRepetitions = Self.loopRepetitions(in: image)
            }
            var control = GraphicsControlBlock()
            let hasControl = DGifSavedExtensionToGCB(file, Int32(number), &control) == GIF_OK
            let description = image.ImageDesc
            guard let map = description.ColorMap ?? file.pointee.SColorMap else { throw Failure(description: "frame \(number) has no palette") }
            var frame = Frame(
                left: Int(description.Left), top: Int(description.Top), width: Int(description.Width), height: Int(description.Height),
                delay: hasControl ? Int(control.DelayTime) : nil, disposal: hasControl ? Int(control.DisposalMode) : 0,
                transparentIndex: hasControl && control.TransparentColor >= 0 ? Int(control.TransparentColor) : nil,
                localPaletteSize: description.ColorMap.map { Int($0.pointee.ColorCount) }, canvas: []
            )
            guard frame.left >= 0, frame.top >= 0, frame.left + frame.width <= width, frame.top + frame.height <= height else {
                throw Failure(description: "frame \(number) at \(frame.left),\(frame.top) \(frame.width)×\(frame.height) is off the \(width)×\(height) screen")
            }
            // The previous frame's disposal, then this frame.
            if let previous {
                switch previous.disposal {
                case 2: clear(&canvas, previous)
                case 3: canvas = saved
                default: break
                }
            }
            if frame.disposal == 3 {
                saved = canvas
            }
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let index = Int(image.RasterBits[y * frame.width + x])
                    if index == frame.transparentIndex { continue }
                    guard index < Int(map.pointee.ColorCount) else {
                        throw Failure(description: "frame \(number) uses index \(index) of a \(map.pointee.ColorCount)-colour palette")
                    }
                    let color = map.pointee.Colors[index]
                    let out = ((frame.top + y) * width + frame.left + x) * 4
                    canvas[out] = color.Red
                    canvas[out + 1] = color.Green
                    canvas[out + 2] = color.Blue
                    canvas[out + 3] = 255
                }
            }
            frame.canvas = canvas
            frames.append(frame)
            previous = frame
        }
    }

    /// Clears a frame's rectangle to transparent, as browsers do for "restore to background".
    private func clear(_ canvas: inout [UInt8], _ frame: Frame) {
        for y in frame.top..<frame.top + frame.height {
            let start = (y * width + frame.left) * 4
            canvas.replaceSubrange(start..<start + frame.width * 4, with: repeatElement(0, count: frame.width * 4))
        }
    }

    /// The repetition count of a NETSCAPE2.0 extension before the first image.
    private static func loopRepetitions(in image: SavedImage) -> Int? {
        let blocks = UnsafeBufferPointer(start: image.ExtensionBlocks, count: Int(image.ExtensionBlockCount))
        for (number, block) in blocks.enumerated() where block.Function == APPLICATION_EXT_FUNC_CODE && number + 1 < blocks.count {
            let identifier = UnsafeBufferPointer(start: block.Bytes, count: Int(block.ByteCount))
            let data = UnsafeBufferPointer(start: blocks[number + 1].Bytes, count: Int(blocks[number + 1].ByteCount))
            if Array(identifier) == Array("NETSCAPE2.0".utf8), data.count == 3, data[0] == 1 {
                return Int(data[1]) | Int(data[2]) << 8
            }
        }
        return nil
    }
}
