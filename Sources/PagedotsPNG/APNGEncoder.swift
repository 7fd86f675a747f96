import PagedotsPixels

/// Writes an animation as a small APNG. Keeps a zlib stream and scratch
/// buffers between calls, so it is not `Sendable`: use one per thread.
///
/// The first frame is the file's default image (IDAT), the whole canvas,
/// so a viewer that does not animate shows it, and it decodes to the same
/// pixels as `PNGEncoder` would write for it. A first pass over the frames
/// merges identical consecutive frames, finds the rectangle each frame
/// changes, and surveys the colours; the colour type is then chosen once for
/// the whole animation, with one palette. Each later frame stores only a
/// rectangle, composed as whichever dispose and blend operations give the
/// smallest data; compositing the frames as the APNG specification says
/// gives back exactly the input frames. docs/png.md has the details.
public final class APNGEncoder {
    /// What the encoder keeps of repeated work: the changed regions of the
    /// first pass, so that the second pass need not ask for the frames again
    /// (`.images`, all of them or none, given back when the encoding ends:
    /// the default 1 MiB is at least twice what the pill, progress and
    /// fraction animations keep; one near the limits, 1.6 MiB at 4x, is
    /// drawn again at no measurable cost rather than hold its changes on top
    /// of a full cache: docs/performance.md, "Memory"), and the zlib streams
    /// of the regions compressed (`.streams`, until the budget is reset).
    private let budget: CacheBudget
    private let compressor: CandidateCompressor
    /// Whether the budget is the encoder's own, reset after each animation;
    /// else whoever gave it resets it.
    private let ownsBudget: Bool
    /// Whether the frames are photographs (a carousel's): see `init`.
    private let photographs: Bool

    /// An encoder whose caches of repeated work take their memory from
    /// `budget`; without one, from one of its own. For `photographs`, a
    /// frame's rows are filtered per row (unfiltered, a photograph's never
    /// came out smaller) and compressed with `Deflater.Effort.photographic`.
    public init(photographs: Bool = false, budget: CacheBudget? = nil) {
        self.budget = budget ?? CacheBudget()
        ownsBudget = budget == nil
        self.photographs = photographs
        compressor = CandidateCompressor(mode: .animation, budget: self.budget)
    }

    /// The APNG file of `frames`, whose frames never fail (an indicator's
    /// frames, or frames held already), as `encode(_:plays:into:)` writes it.
    public func encode(_ frames: some FrameSource<Never>, plays: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(frames, plays: plays, into: { bytes.append(contentsOf: $0) })
        return bytes
    }

    /// The APNG file of `frames`, handed to `write` in order a piece at a
    /// time as it is made (about a frame at a time), so that it is never
    /// held whole: a carousel's APNG can be larger than everything else its
    /// encoding holds together. Throws the first frame that could not be
    /// drawn; what was written until then is then to be thrown away.
    ///
    /// Delays are written exactly (a multiple of 10 ms, at least 20, is
    /// usual; any other up to 65535 s is written exactly too, below 0 counts
    /// as 0, above as 65535 s). The encoder may ask for a frame more than
    /// once (several passes, each in increasing order), so that it never
    /// holds more than a couple of frames' pixels at once; a frame's changes
    /// are looked for only inside its changed box, when the source knows
    /// one (a renderer that draws each frame over the one before knows it).
    /// `plays`: how many times the cycle plays in all, 0 = forever (acTL
    /// num_plays; below 0 counts as 0). The same input always gives the
    /// same bytes. Without frames the answer is a still PNG of a fully
    /// transparent canvas.
    ///
    /// - Precondition: the canvas is at least 1×1, every frame holds exactly
    ///   `width × height × 4` bytes, and every box given holds every byte in
    ///   which its frame differs from the one before.
    public func encode<Frames: FrameSource>(
        _ frames: Frames, plays: Int, into write: (UnsafeRawBufferPointer) -> Void
    ) throws(Frames.Failure) {
        let (width, height) = (frames.width, frames.height)
        precondition(width > 0 && height > 0, "an animation needs a canvas of at least 1×1, not \(width)×\(height)")
        defer { if ownsBudget { budget.reset() } }
        var survey = try AnimationSurvey(frames, budget: budget)
        defer { survey.forgetChanges() }
        guard let first = survey.takeFirst() else {
            return PNGEncoder().encode(rgba: RGBACanvas(width: width, height: height).pixels, width: width, height: height).withUnsafeBytes(write)
        }
        let layout = PixelLayout.smallest(for: survey.colors)
        // A palette with no transparent colour gets one, and RGB a colour
        // key that no pixel uses, so that frames can be blended OVER.
        let indexed = layout.isIndexed ? survey.colors.palette(reservingTransparent: true) : nil
        let colorKey = layout == .rgb ? survey.colorKey : nil
        let delays = survey.frames.map { FrameDelay.split(milliseconds: $0.milliseconds) }
        var file = AnimationFileWriter(
            width: width, height: height, layout: layout, palette: indexed?.palette, colorKey: colorKey,
            frameCount: delays.map(\.count).reduce(0, +), plays: UInt32(clamping: max(0, plays))
        )
        var composer = FrameComposer(
            first: first, layout: layout, colors: indexed?.indices,
            transparent: Self.transparentPixel(in: layout, palette: indexed?.palette, colorKey: colorKey)
        )
        // The first frame: the whole canvas, drawn onto transparent black.
        addCandidates(first.pixels, rect: first.bounds, composer: composer, tag: 0)
        _ = compressor.compressSmallest()
        file.add(rect: first.bounds, delay: delays[0][0], blend: .source, stream: compressor.smallest, disposingPreviousWith: .none)

        var next = first
        for (number, frame) in survey.frames.enumerated() {
            if number > 0 {
                if let changed = frame.changedPixels {
                    next.paste(changed, in: frame.change)
                } else {
                    next = RGBACanvas(width: width, height: height, pixels: try frames.frame(at: frame.source).pixels)
                }
            }
            // A delay too long for one fcTL goes on over frames that change nothing.
            for (part, delay) in delays[number].enumerated() where number > 0 || part > 0 {
                let composed = composeFrame(next, change: part == 0 ? frame.change : .empty, composer: &composer)
                file.add(rect: composed.rect, delay: delay, blend: composed.blend, stream: compressor.smallest, disposingPreviousWith: composed.dispose)
                file.flush(to: write)
            }
        }
        file.finish()
        file.flush(to: write)
    }

    /// Chooses how the frame before is disposed of and how `next` is drawn
    /// (its rectangle and blend operation), by compressing the ways worth
    /// trying and keeping the smallest, whose zlib stream is then in
    /// `compressor.smallest`.
    private func composeFrame(_ next: RGBACanvas, change: PixelRect, composer: inout FrameComposer) -> FrameComposer.Way {
        let ways = composer.ways(to: next, change: change)
        for (tag, way) in ways.enumerated() {
            addCandidates(way.pixels, rect: way.rect, composer: composer, tag: tag)
        }
        let chosen = ways[compressor.compressSmallest()]
        composer.advance(to: next, change: change, by: chosen)
        return chosen
    }

    private func addCandidates(_ pixels: [UInt8], rect: PixelRect, composer: FrameComposer, tag: Int) {
        let rows = pixels.withUnsafeBytes {
            Scanlines(rgba: $0, width: rect.width, height: rect.height, layout: composer.layout, colors: composer.colors)
        }
        let trials = PNGEncoder.trials(for: composer.layout)
        if photographs, let filtered = trials.last {
            compressor.add(rows, trials: [filtered], extraBytes: 0, tag: tag, thoroughEffort: .photographic)
        } else {
            compressor.add(rows, trials: trials, extraBytes: 0, tag: tag)
        }
    }

    /// A fully transparent pixel value the layout can store, which a frame
    /// blended OVER uses for pixels it leaves as they are; nil when none.
    static func transparentPixel(in layout: PixelLayout, palette: Palette?, colorKey: PackedPixel?) -> PackedPixel? {
        switch layout {
        case .indexed: palette?.colors.first { $0.alpha == 0 }
        case .greyAlpha, .rgba: 0
        case .rgb: colorKey
        case .grey: nil
        }
    }
}
