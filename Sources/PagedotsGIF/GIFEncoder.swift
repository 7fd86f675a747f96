import PagedotsPixels

/// Writes an animation as a small animated GIF. Keeps scratch buffers
/// between calls, so it is not `Sendable`: use one per thread.
///
/// Frames that look the same are merged; each frame stores only the
/// rectangle that changed, with the transparent index where that makes it
/// smaller; one global palette serves every frame when their colours fit,
/// otherwise each frame has its own (quantised when it alone has more than
/// 256 colours). The file is written here, LZW data and all
/// (`GIFFileWriter`, `LZWCompressor`), lossily when the settings say so.
/// docs/gif.md has the details.
public final class GIFEncoder {
    /// How many patch pixels (4 bytes each, and a byte of colour code for a
    /// frame that repeats none before it) the first pass may keep, for
    /// frames of a given pixel count, so that the frames need not be asked
    /// for twice: two frames' worth, or 2^17 (512 KiB) when that is more. Past
    /// it, a second pass makes them again (2^17 holds the patches of the
    /// pill, progress and fraction animations at 2x–3x; an animation near the
    /// limits is drawn again at no measurable cost, and its 1 MiB of patches
    /// would sit on top of a full cache: docs/performance.md, "Memory").
    /// (Tests lower it.)
    var storedPixelLimit: (_ framePixels: Int) -> Int = { max(2 * $0, 1 << 17) }
    /// What the first pass may keep to find frames that repeat an earlier
    /// one, which are then neither counted nor compressed again (docs/gif.md,
    /// "Repeated frames"): the patches (`.patches`) and the differ's recorded
    /// steps, which it replays for such frames (`.steps`), each given back
    /// when the encoding ends. (Tests allow 0, to compare with the files
    /// written without.)
    let budget: CacheBudget
    /// How a frame with more than 256 colours is quantised, and how lossy
    /// the images' LZW data may be.
    let quantizing: QuantizerSettings
    /// The LZW compressor of every image this encoder writes.
    private let lzw = LZWCompressor()

    /// An encoder whose frames of more than 256 colours are quantised as
    /// `quantizing` says (`.flat` for indicator art, `.photographic` for
    /// carousel slides), lossy too if it says so (`QuantizerSettings.lossy`,
    /// `protecting`, `limitingColors`), and whose caches of repeated work
    /// take their memory from `budget` (one of its own when none is given).
    public init(quantizing: QuantizerSettings = .flat, budget: CacheBudget = CacheBudget()) {
        self.quantizing = quantizing
        self.budget = budget
    }

    /// The GIF file of `frames`, whose frames never fail (an indicator's
    /// frames, or frames held already), as
    /// `encode(_:plays:matte:exactColors:into:)` writes it.
    public func encode(
        _ frames: some FrameSource<Never>, plays: Int, matte: (red: UInt8, green: UInt8, blue: UInt8), exactColors: [UInt32] = []
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(frames, plays: plays, matte: matte, exactColors: exactColors, into: { bytes.append(contentsOf: $0) })
        return bytes
    }

    /// The GIF file of `frames` (none: one transparent frame), handed to
    /// `write` in order a piece at a time as it is made (the header, then
    /// about a frame at a time), so that it is never held whole: a
    /// carousel's file can be larger than everything else its encoding
    /// holds together. Throws the first frame that could not be drawn; what
    /// was written until then is then to be thrown away.
    ///
    /// The encoder asks for the frames in increasing order, once each when
    /// the frames' changes fit in about two frames' worth of memory (or
    /// 1 MiB), otherwise twice (two passes, each in order), and looks for a
    /// frame's changes only inside its changed box, when the source knows
    /// one. Delays are rounded to hundredths of a second, at least 2.
    ///
    /// `plays`: how many times the cycle plays in all, 0 (or less) meaning
    /// forever. `matte`: the opaque colour that partly transparent pixels
    /// are blended onto (fully transparent pixels stay transparent).
    /// `exactColors`: colours (24-bit RGB, red in the low byte) that a
    /// quantised frame's palette holds exactly (`QuantizerSettings.keeping`).
    /// The same input always gives the same bytes.
    ///
    /// - Precondition: the canvas is 1…65535 pixels a side (the GIF
    ///   format's limit), and every frame has exactly `width × height × 4` bytes.
    public func encode<Frames: FrameSource>(
        _ frames: Frames, plays: Int, matte: (red: UInt8, green: UInt8, blue: UInt8), exactColors: [UInt32] = [],
        into write: (UnsafeRawBufferPointer) -> Void
    ) throws(Frames.Failure) {
        let (width, height) = (frames.width, frames.height)
        precondition((1...65535).contains(width) && (1...65535).contains(height), "a GIF is 1…65535 pixels a side, not \(width)×\(height)")
        let passes = PatchPasses(frames: frames)
        let matte = Matte(red: matte.red, green: matte.green, blue: matte.blue)
        // Without a second play, the last frame need not prepare the first.
        let loops = plays != 1

        // First pass: plan every frame, count colours, keep the patches (and
        // what they draw) while they fit.
        let storedPixelLimit = storedPixelLimit(width * height)
        var census = ColorCensus()
        var repeats = PatchRepeats(budget: budget)
        defer { repeats.forget() }
        var reader = PatchColorReader()
        var patches: [(patch: FramePatch, colors: PatchColors?)] = []
        var storedPixels = 0
        try passes.forEachPatch(matte: matte, loops: loops, budget: budget) { patch in
            // A repeat draws what its original draws, and is written as it was.
            let original = repeats.add(patch)
            let colors = original == nil ? reader.read(patch) : nil
            if let original {
                census.addRepeat(of: original)
            } else if let colors {
                census.add(colors)
            }
            storedPixels += patch.pixels.count
            if storedPixels <= storedPixelLimit {
                patches.append((patch, colors))
            } else if !patches.isEmpty {
                patches.removeAll()
            }
        }
        let keptAll = storedPixels <= storedPixelLimit

        let plan = census.plan()
        let palette = plan.global
        let frameTotal = census.frameCount
        let file = GIFFileWriter(
            width: width, height: height,
            // A transparent index that needs an entry of its own gets black.
            globalColors: palette.map { $0.colors.colors + repeatElement(0, count: $0.entryCount - $0.colors.count) },
            globalSize: FrameWriter.tableSize(palette?.entryCount ?? 0),
            backgroundIndex: 0,
            lzw: lzw
        )
        if frameTotal > 1 {
            Self.appendLoop(plays: plays, to: file)
        }
        let writer = FrameWriter(file: file, plan: plan, isStill: frameTotal == 1, repeats: repeats, quantizing: quantizing.keeping(exactly: exactColors))
        file.flush(to: write)
        if keptAll {
            for (patch, colors) in patches {
                writer.write(patch, colors: colors)
                file.flush(to: write)
            }
        } else {
            try passes.forEachPatch(matte: matte, loops: loops, budget: budget) {
                writer.write($0)
                file.flush(to: write)
            }
        }
        file.finish()
        file.flush(to: write)
    }

    /// The loop extension for `plays` plays in all. Its count is the number
    /// of times to play again after the first (0 = forever), as browsers read
    /// it: one play needs no extension, N plays a count of N − 1.
    static func appendLoop(plays: Int, to file: GIFFileWriter) {
        if plays <= 0 {
            file.appendLoop(repetitions: 0)
        } else if plays > 1 {
            file.appendLoop(repetitions: min(plays - 1, 65535))
        }
    }
}

/// An encoder's passes over its frames, each through a fresh `FrameDiffer`.
private struct PatchPasses<Frames: FrameSource> {
    let frames: Frames

    /// Hands every frame, as planned, to `body`, in order (each searched for
    /// changes inside its changed box, if the source knows one), the
    /// differ's recorded steps taking their memory from `budget` for the
    /// pass; throws the first frame that could not be drawn.
    func forEachPatch(matte: Matte, loops: Bool, budget: CacheBudget, _ body: (FramePatch) -> Void) throws(Frames.Failure) {
        let (width, height, count) = (frames.width, frames.height, frames.count)
        var differ = FrameDiffer(width: width, height: height, matte: matte, loops: loops, budget: budget)
        defer { differ.forgetSteps() }
        let byteCount = width * height * 4
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        if count <= 0 {
            // No frames: one transparent frame.
            _ = differ.add([UInt8](repeating: 0, count: byteCount), changedWithin: canvas, delayMilliseconds: 0)
        }
        // The frame's pixels are let go of before `body` takes its patch (a
        // quantised photograph needs much memory of its own).
        func patch(of index: Int) throws(Frames.Failure) -> FramePatch? {
            let frame = try frames.frame(at: index)
            precondition(frame.pixels.count == byteCount, "frame \(index) has \(frame.pixels.count) bytes, not \(width)×\(height)×4")
            let box = index > 0 ? frames.changedBox(at: index)?.intersection(canvas) : nil
            let delay = min(max(frame.delayMilliseconds, 0), FrameDiffer.maxDelayMilliseconds)
            return differ.add(frame.pixels, changedWithin: box ?? canvas, delayMilliseconds: delay)
        }
        for index in 0..<max(count, 0) {
            if let patch = try patch(of: index) {
                body(patch)
            }
        }
        if let patch = differ.finish() {
            body(patch)
        }
    }
}
