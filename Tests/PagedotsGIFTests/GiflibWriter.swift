import CGif

/// giflib's encoder (`EGif…`) writing into memory: the oracle that
/// `GIFFileWriter` and `LZWCompressor` are compared with, call for call.
final class GiflibWriter {
    /// Where giflib's output function appends.
    private let output = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
    private let file: UnsafeMutablePointer<GifFileType>

    /// Opens a GIF89a file and writes its screen descriptor, with a global
    /// palette of `globalColors` (24-bit RGB, a power-of-two count) or none.
    init(width: Int, height: Int, globalColors: [UInt32]?, backgroundIndex: Int = 0) throws {
        output.initialize(to: [])
        var error: Int32 = 0
        let opened = EGifOpen(output, { file, data, count in
            guard let file, let data, let userData = file.pointee.UserData else { return 0 }
            userData.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &error)
        guard let opened else { throw Failure.call("EGifOpen") }
        file = opened
        EGifSetGifVersion(file, true)
        let map = try globalColors.map(Self.map)
        defer { map.map { GifFreeMapObject($0) } }
        try Self.check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, Int32(backgroundIndex), map), "EGifPutScreenDesc")
    }

    deinit {
        output.deinitialize(count: 1)
        output.deallocate()
    }

    enum Failure: Error {
        case call(String)
    }

    /// The bytes written so far.
    var bytes: [UInt8] { output.pointee }

    /// The NETSCAPE2.0 extension with `repetitions`.
    func putLoop(repetitions: Int) throws {
        let identifier = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8 & 0xFF)]
        try Self.check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
        try Self.check(EGifPutExtensionBlock(file, Int32(identifier.count), identifier), "EGifPutExtensionBlock")
        try Self.check(EGifPutExtensionBlock(file, Int32(loop.count), loop), "EGifPutExtensionBlock")
        try Self.check(EGifPutExtensionTrailer(file), "EGifPutExtensionTrailer")
    }

    /// A graphic control extension; `clear` is disposal 2, otherwise 1.
    func putGraphicControl(delay: Int, clear: Bool, transparentIndex: Int?) throws {
        var block = GraphicsControlBlock(
            DisposalMode: clear ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay),
            TransparentColor: Int32(transparentIndex ?? Int(NO_TRANSPARENT_COLOR))
        )
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&block, &extensionBytes)
        try Self.check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "EGifPutExtension")
    }

    /// An image of `indices` at (`left`, `top`), with a palette of its own
    /// (`localColors`, a power-of-two count) or the global one.
    func putImage(left: Int, top: Int, width: Int, height: Int, localColors: [UInt32]?, indices: [UInt8]) throws {
        let local = try localColors.map(Self.map)
        defer { local.map { GifFreeMapObject($0) } }
        try Self.check(EGifPutImageDesc(file, Int32(left), Int32(top), Int32(width), Int32(height), false, local), "EGifPutImageDesc")
        var pixels = indices
        try Self.check(EGifPutLine(file, &pixels, Int32(pixels.count)), "EGifPutLine")
    }

    /// Writes the trailer and closes the file; returns every byte written.
    func close() throws -> [UInt8] {
        try Self.check(EGifCloseFile(file, nil), "EGifCloseFile")
        return bytes
    }

    private static func map(_ colors: [UInt32]) throws -> UnsafeMutablePointer<ColorMapObject> {
        let entries = colors.map { GifColorType(Red: UInt8(truncatingIfNeeded: $0), Green: UInt8(truncatingIfNeeded: $0 >> 8), Blue: UInt8(truncatingIfNeeded: $0 >> 16)) }
        guard let map = GifMakeMapObject(Int32(colors.count), entries) else { throw Failure.call("GifMakeMapObject") }
        return map
    }

    private static func check(_ status: Int32, _ call: String) throws {
        guard status == GIF_OK else { throw Failure.call(call) }
    }
}
