import CGif

/// How a GIF frame leaves the canvas for the next one (GIF89a §23).
public enum GIFDisposal: Int, Equatable, Sendable {
    /// Left as drawn (0 "no disposal specified", and the reserved values 4–7, are read as this too).
    case keep = 1
    /// Its rectangle cleared to transparent (browsers ignore the background colour).
    case background = 2
    /// The canvas put back as it was before the frame.
    case previous = 3
}

/// One frame as the file describes it.
public struct GIFFrameInfo: Equatable, Sendable {
    /// The frame's rectangle on the screen, as stored (drawn clipped to the screen).
    public var left: Int
    public var top: Int
    public var width: Int
    public var height: Int
    /// Centiseconds, as stored; 0 without a graphic control extension.
    public var delay: Int
    public var disposal: GIFDisposal
    /// The colour index drawn as "leave the pixel as it is", if any.
    public var transparentIndex: Int?
    var interlaced: Bool

    /// The delay as browsers play it, in milliseconds: Chromium, Firefox and
    /// Safari show a delay of 0 or 1 centisecond as 10 (100 ms).
    public var playedMilliseconds: Int { (delay <= 1 ? 10 : delay) * 10 }
}

/// A GIF read with giflib's record-level decoder from bytes in memory: one
/// image at a time, so that an animation is never held whole.
final class GIFStream {
    /// Where giflib's input function reads from.
    private final class Source {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }
    }

    private let source: Source
    private let file: UnsafeMutablePointer<GifFileType>
    let limits: ImageSizeLimits
    let width: Int
    let height: Int
    /// The NETSCAPE2.0 (or ANIMEXTS1.0) repetition count, once read: nil
    /// without one (played once), 0 for forever.
    private(set) var loopCount: Int?
    private(set) var frameCount = 0
    private var framePixels = 0
    /// One row of colour indexes.
    private var row: [UInt8] = []

    /// Opens the GIF in `bytes` (which must stay valid while the stream is
    /// used) and checks its screen against `limits`.
    init(_ bytes: UnsafeRawBufferPointer, limits: ImageSizeLimits) throws(ImageDecodingError) {
        source = Source(bytes)
        self.limits = limits
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { file, buffer, count in
            guard let file, let buffer, let userData = file.pointee.UserData, count > 0 else { return 0 }
            let source = Unmanaged<Source>.fromOpaque(userData).takeUnretainedValue()
            let taken = min(Int(count), source.bytes.count - source.offset)
            guard taken > 0, let base = source.bytes.baseAddress else { return 0 }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: taken)
            source.offset += taken
            return Int32(taken)
        }, &error)
        guard let opened else { throw .corrupt(.gif, reason: Self.message(error)) }
        file = opened
        width = Int(opened.pointee.SWidth)
        height = Int(opened.pointee.SHeight)
        guard width > 0, height > 0 else { throw .corrupt(.gif, reason: "its screen is \(width) × \(height) pixels") }
        try limits.check(width: width, height: height)
    }

    deinit {
        DGifCloseFile(file, nil)
    }

    /// Reads up to the next image's descriptor and returns it (with the
    /// graphic control extension that came before it); nil after the last
    /// image. Then either `skipImage` or `readRows` must follow.
    func nextImage() throws(ImageDecodingError) -> GIFFrameInfo? {
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else {
                // A file that stops after a whole image without its trailer byte is played as browsers play it.
                if frameCount > 0, source.offset == source.bytes.count { return nil }
                throw failure()
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(file) == GIF_OK else { throw failure() }
                return try describeImage(control)
            case EXTENSION_RECORD_TYPE:
                try readExtension(&control)
            case TERMINATE_RECORD_TYPE:
                guard frameCount > 0 else { throw .corrupt(.gif, reason: "it holds no image") }
                return nil
            default:
                throw .corrupt(.gif, reason: "unknown record")
            }
        }
    }

    private func describeImage(_ control: GraphicsControlBlock) throws(ImageDecodingError) -> GIFFrameInfo {
        let image = file.pointee.Image
        let info = GIFFrameInfo(
            left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
            delay: Int(control.DelayTime), disposal: GIFDisposal(rawValue: Int(control.DisposalMode)) ?? .keep,
            transparentIndex: control.TransparentColor >= 0 ? Int(control.TransparentColor) : nil,
            interlaced: image.Interlace
        )
        frameCount += 1
        guard frameCount <= limits.maxFrames else { throw .tooManyFrames(limit: limits.maxFrames) }
        try limits.check(width: info.width, height: info.height)
        framePixels += info.width * info.height
        guard framePixels <= limits.maxAnimationPixels else { throw .tooManyAnimationPixels(limit: limits.maxAnimationPixels) }
        return info
    }

    /// Reads an extension's blocks: a graphic control extension into
    /// `control`, a loop count into `loopCount`; others are skipped.
    private func readExtension(_ control: inout GraphicsControlBlock) throws(ImageDecodingError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &code, &block) == GIF_OK else { throw failure() }
        var index = 0
        var isLoopExtension = false
        while let current = block {
            let data = UnsafeBufferPointer(start: current + 1, count: Int(current[0]))
            switch (code, index) {
            case (GRAPHICS_EXT_FUNC_CODE, 0):
                // A malformed one is ignored, as browsers ignore it.
                var parsed = GraphicsControlBlock()
                if DGifExtensionToGCB(data.count, data.baseAddress, &parsed) == GIF_OK { control = parsed }
            case (APPLICATION_EXT_FUNC_CODE, 0):
                isLoopExtension = data.elementsEqual("NETSCAPE2.0".utf8) || data.elementsEqual("ANIMEXTS1.0".utf8)
            case (APPLICATION_EXT_FUNC_CODE, _) where isLoopExtension && data.count >= 3 && data[0] == 1:
                if loopCount == nil { loopCount = Int(data[1]) | Int(data[2]) << 8 }
            default:
                break
            }
            index += 1
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw failure() }
        }
    }

    /// Skips the data of the image `nextImage` returned.
    func skipImage() throws(ImageDecodingError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(file, &codeSize, &block) == GIF_OK else { throw failure() }
        while block != nil {
            guard DGifGetCodeNext(file, &block) == GIF_OK else { throw failure() }
        }
    }

    /// Decodes the image `nextImage` returned, handing each row's colour
    /// indexes to `body` with its row number in the image (in the file's
    /// order: interlaced rows come pass by pass), and its colour table.
    func readRows(
        _ info: GIFFrameInfo, _ body: (Int, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<GifColorType>) -> Void
    ) throws(ImageDecodingError) {
        guard info.width > 0, info.height > 0 else { return try skipImage() }
        guard let map = file.pointee.Image.ColorMap ?? file.pointee.SColorMap else {
            throw .corrupt(.gif, reason: "frame \(frameCount) has no colour table")
        }
        let colors = UnsafeBufferPointer(start: map.pointee.Colors, count: Int(map.pointee.ColorCount))
        if row.count < info.width { row = [UInt8](repeating: 0, count: info.width) }
        let passes = info.interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for (start, step) in passes {
            for y in stride(from: start, to: info.height, by: step) {
                let status = row.withUnsafeMutableBufferPointer { DGifGetLine(file, $0.baseAddress, Int32(info.width)) }
                guard status == GIF_OK else { throw failure() }
                row.withUnsafeBufferPointer { body(y, UnsafeBufferPointer(rebasing: $0[..<info.width]), colors) }
            }
        }
    }

    private func failure() -> ImageDecodingError {
        .corrupt(.gif, reason: Self.message(file.pointee.Error))
    }

    private static func message(_ code: Int32) -> String {
        if code == D_GIF_ERR_READ_FAILED { return "the file ends early" }
        return GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}
