import PagedotsPixels

/// Lays out an APNG file: IHDR, acTL, PLTE and tRNS (or an RGB colour key's
/// tRNS), then per frame its fcTL
/// and its data (IDAT for the first frame, which is also the default image;
/// fdAT for the others), then IEND. fcTL and fdAT share one sequence from 0.
///
/// A frame's dispose operation is decided with the next frame, so each
/// frame waits until then to be written.
struct AnimationFileWriter {
    private var chunks: PNGChunkWriter
    private var sequence: UInt32 = 0
    private var pending: (control: FrameControl, stream: [UInt8])?

    /// `colorKey`: an RGB colour that decodes as fully transparent.
    init(width: Int, height: Int, layout: PixelLayout, palette: Palette?, colorKey: PackedPixel?, frameCount: Int, plays: UInt32) {
        chunks = PNGChunkWriter(capacity: 1024)
        chunks.appendHeader(width: width, height: height, layout: layout)
        chunks.appendAnimationControl(frameCount: frameCount, plays: plays)
        palette.map { chunks.appendPalette($0) }
        colorKey.map { chunks.appendColorKey($0) }
    }

    /// Adds a frame (its zlib stream and its fcTL but for the dispose
    /// operation) and writes the one before it, which is left with `dispose`.
    mutating func add(rect: PixelRect, delay: FrameDelay, blend: BlendOp, stream: [UInt8], disposingPreviousWith dispose: DisposeOp) {
        writePending(dispose: dispose)
        pending = (FrameControl(rect: rect, delay: delay, dispose: .none, blend: blend), stream)
    }

    /// Hands the chunks written so far (all but the frame waiting for the
    /// next) to `write` and lets go of them.
    mutating func flush(to write: (UnsafeRawBufferPointer) -> Void) {
        chunks.flush(to: write)
    }

    /// Ends the file: the last frame is left as it is (dispose none), then
    /// IEND; `flush` then hands on the rest.
    mutating func finish() {
        writePending(dispose: .none)
        chunks.appendChunk("IEND") { _ in }
    }

    private mutating func writePending(dispose: DisposeOp) {
        guard let (undisposed, stream) = pending else { return }
        var control = undisposed
        control.dispose = dispose
        let isFirst = sequence == 0
        chunks.appendFrameControl(control, sequence: sequence)
        sequence += 1
        if isFirst {
            chunks.appendChunk("IDAT") { $0.append(contentsOf: stream) }
        } else {
            chunks.appendFrameData(stream, sequence: sequence)
            sequence += 1
        }
        pending = nil
    }
}
