#if canImport(Glibc)
import Glibc
#endif
import PagedotsPixels

/// Turns the input frames, one at a time, into the frames of the GIF: each
/// one only the rectangle that changed since what the decoder shows, input
/// frames that look the same merged into one, and "restore to background"
/// disposal where pixels must become transparent again (a GIF frame cannot
/// make a pixel transparent; only a disposal can).
///
/// A frame's disposal depends on the frame after it, so each frame is handed
/// out when the next different one arrives (or at `finish`). The differ keeps
/// two canvases (the target image, what the decoder shows), the previous
/// input (unless it is the target's very bytes: see `inputIsTarget`), and
/// which pixels of the first frame are clear (a bit each), and its work per
/// frame is proportional to the rows that changed and the rectangles it writes. A frame that starts
/// from the same pixels as an earlier one, elsewhere, does what that one did
/// by copies (`Step`).
struct FrameDiffer {
    let width: Int
    let height: Int
    private let matte: Matte
    /// Whether the animation plays more than once: then the last frame also
    /// clears what must be transparent when the first frame comes back.
    private let loops: Bool
    /// What recorded steps may hold (`CacheBudget.Cache.steps`).
    private let budget: CacheBudget

    /// The last input frame's bytes (shared with the caller's first frame,
    /// then a copy of our own), unless `inputIsTarget`.
    private var previousInput: [UInt8] = []
    /// Whether every input pixel so far was opaque or all zero bytes: then
    /// the target (the previous input composited) holds the previous input's
    /// very bytes, and `previousInput` is not kept (a carousel's frames,
    /// 9 MiB each at the limits, are all opaque).
    private var inputIsTarget = false
    /// The image the pending frame must show (every pixel composited).
    private var target: [CanvasPixel]
    /// What the decoder shows before the pending frame is drawn.
    private var display: [CanvasPixel]
    /// When the animation loops: one bit per pixel (row after row, 64 to a
    /// word), set where the first frame is clear (a canvas pixel is either
    /// clear or opaque), so that the last frame can clear what it must.
    private var clearInFirstFrame: [UInt64] = []
    /// The frame not yet handed out: where it differs from `display`, and its delay.
    private var pending: (changed: PixelRect, delayMilliseconds: Int)?
    /// How many patches were handed out.
    private var handedOut = 0
    /// The steps recorded, while their pixels fit the budget.
    private var steps: [Step] = []
    /// Per shape, the last step recorded of it.
    private var lastSteps: [Step.Shape: Int] = [:]
    /// The bytes that `steps` took from the budget.
    private var recordedBytes = 0

    /// What a frame that changed the picture did (a step), kept so that a
    /// later frame that starts from the same pixels elsewhere does it again
    /// by copies: each move between two neighbouring pages is the same
    /// frames, only elsewhere.
    ///
    /// A step reads and writes only the pixels of its reach: the frame's
    /// changed box and the pending frame's rectangle. It composites the
    /// input over the box (where the target is the previous input
    /// composited), hands out the pending frame (its rectangle grown to the
    /// pixels of the box that turn transparent, its pixels the target's and
    /// the display's), updates the display there and the target over the box,
    /// and finds where they now differ among the pixels it changed. So what
    /// it does depends on the box's size, the pending rectangle's place from
    /// the box, the previous input over the reach, the input over the box and
    /// the display over the pending rectangle (outside it, the display is the
    /// target: they differ only inside it), and on nothing else; where the
    /// box lies only moves it. A step with no pending rectangle hands out a
    /// pixel at the canvas's corner, which does not move: it is neither
    /// recorded nor replayed.
    private struct Step {
        /// The frame's changed box, and the pending frame's rectangle.
        var box: PixelRect
        var pending: PixelRect
        /// The previous input over `reach`, the input over `box`, the display
        /// over `pending` and the new target over `box`, one after the other.
        var pixels: [UInt32]
        /// The patch handed out (a replay gives it its own delay), and its number.
        var patch: FramePatch
        var patchNumber: Int
        /// The new pending rectangle.
        var nextPending: PixelRect
        /// The step recorded before it with the same shape.
        var previousOfShape: Int? = nil

        var reach: PixelRect { box.union(pending) }

        /// The box's size and the pending rectangle's place from it: a step
        /// of the same shape is this one moved.
        struct Shape: Hashable {
            var boxWidth: Int
            var boxHeight: Int
            var pending: PixelRect

            init(box: PixelRect, pending: PixelRect) {
                boxWidth = box.width
                boxHeight = box.height
                self.pending = pending.moved(by: -box.x, -box.y)
            }
        }
    }

    /// Steps recorded to be replayed take their memory from `budget`
    /// (`.steps`), until `forgetSteps()`.
    init(width: Int, height: Int, matte: Matte, loops: Bool, budget: CacheBudget) {
        self.width = width
        self.height = height
        self.matte = matte
        self.loops = loops
        self.budget = budget
        target = [CanvasPixel](repeating: .clear, count: width * height)
        display = target
    }

    /// Takes the next input frame (`width × height` RGBA pixels), whose bytes
    /// outside `bounds` (inside the canvas) are the previous frame's. Returns
    /// the previous frame once it is complete, nil when this frame was merged
    /// into it or is the first.
    mutating func add(_ input: [UInt8], changedWithin bounds: PixelRect, delayMilliseconds delay: Int) -> FramePatch? {
        guard let pending else {
            start(with: input, delay: delay)
            previousInput = inputIsTarget ? [] : input
            return nil
        }
        func changed(within bounds: PixelRect) -> PixelRect {
            withPreviousInput { previous in input.withUnsafeBytes { PixelRect.changed(from: previous, to: $0, width: width, within: bounds) } }
        }
        let box = changed(within: bounds)
        assert(box == changed(within: PixelRect(x: 0, y: 0, width: width, height: height)), "the frame changed outside \(bounds)")
        guard !box.isEmpty else {
            self.pending = (pending.changed, Self.addDelays(pending.delayMilliseconds, delay))
            return nil
        }
        // The previous input becomes this one where it differs. Kept as a
        // copy of our own, not a reference to the caller's array: a caller
        // that draws the next frame into the same array (as `ImageMaker`
        // does) then need not copy all of it first.
        defer { remember(input, over: box) }
        if !pending.changed.isEmpty, let (step, dx, dy) = recordedStep(startingFrom: input, box: box, pending: pending.changed) {
            return replay(step, movedBy: dx, dy, pendingDelay: pending.delayMilliseconds, delay: delay)
        }
        // Made for this frame and let go of with it: the caller may need much
        // memory for the patch (a quantised photograph) before the next one.
        let (composited, changed, cleared) = composite(input, over: box)
        guard !changed.isEmpty else {
            // Different bytes, the same picture (e.g. another colour at alpha 0).
            self.pending = (pending.changed, Self.addDelays(pending.delayMilliseconds, delay))
            return nil
        }
        // (The first frame's step is not recorded: hardly a later step starts
        // from a whole canvas pending over a clear display.)
        let start = handedOut > 0 && !pending.changed.isEmpty
            ? startingPixels(input, composited: composited, box: box, pending: pending.changed) : nil
        let patch = complete(clearing: cleared)
        composited.withUnsafeBytes { composited in
            target.withUnsafeMutableBytes { Self.copy(box, width: width, from: composited.baseAddress!, packed: true, to: $0.baseAddress!) }
        }
        // The new target differs from the display only where it changed, and
        // where the frame just handed out clears its rectangle.
        var differences = PixelBounds()
        addDifferences(in: changed, to: &differences)
        if patch.disposal == .clear {
            addDifferences(in: patch.rect, to: &differences)
        }
        self.pending = (differences.rect, delay)
        if let start {
            record(Step(box: box, pending: pending.changed, pixels: start, patch: patch, patchNumber: handedOut - 1, nextPending: differences.rect))
        }
        return patch
    }

    /// The pixels that the step of `input` (changed inside `box`, the
    /// pending frame's rectangle `pending`) starts from and makes, as a
    /// `Step` holds them, given it `composited` over `box`; nil when the step
    /// and its patch (at most its reach) would not fit the budget.
    private func startingPixels(_ input: [UInt8], composited: [CanvasPixel], box: PixelRect, pending: PixelRect) -> [UInt32]? {
        let reach = box.union(pending)
        let count = reach.area + 2 * box.area + pending.area
        guard budget.fits(4 * (count + reach.area), for: .steps) else { return nil }
        return [UInt32](unsafeUninitializedCapacity: count) { pixels, initialized in
            var next = UnsafeMutableRawPointer(pixels.baseAddress!)
            func take(_ canvas: UnsafeRawBufferPointer, over rect: PixelRect, packed: Bool = false) {
                Self.copy(rect, width: width, from: canvas.baseAddress!, packed: packed, to: next, packed: true)
                next += 4 * rect.area
            }
            withPreviousInput { take($0, over: reach) }
            input.withUnsafeBytes { take($0, over: box) }
            display.withUnsafeBytes { take($0, over: pending) }
            composited.withUnsafeBytes { take($0, over: box, packed: true) }
            initialized = count
        }
    }

    private mutating func record(_ step: Step) {
        var step = step
        let shape = Step.Shape(box: step.box, pending: step.pending)
        step.previousOfShape = lastSteps[shape]
        lastSteps[shape] = steps.count
        let bytes = 4 * (step.pixels.count + step.patch.pixels.count)
        // Fits: `startingPixels` counted the patch as its reach, at least its size.
        guard budget.take(bytes, for: .steps) else { return }
        recordedBytes += bytes
        steps.append(step)
    }

    /// Drops the steps recorded and gives their memory back (the differ
    /// goes on without recording more if it is used again).
    mutating func forgetSteps() {
        budget.giveBack(recordedBytes, for: .steps)
        recordedBytes = 0
        steps = []
        lastSteps = [:]
    }

    /// A recorded step that started from the pixels that the step of `input`
    /// (changed inside `box`, the pending frame's rectangle `pending`) starts
    /// from, elsewhere, and how far to move it here.
    private func recordedStep(startingFrom input: [UInt8], box: PixelRect, pending: PixelRect) -> (Step, dx: Int, dy: Int)? {
        var next = lastSteps[Step.Shape(box: box, pending: pending)]
        let reach = box.union(pending)
        while let index = next {
            let step = steps[index]
            next = step.previousOfShape
            let same = step.pixels.withUnsafeBytes { stored in
                input.withUnsafeBytes { input in
                    withPreviousInput { previous in
                        display.withUnsafeBytes { display in
                            // The input first: it tells steps apart most often.
                            Self.equal(box, width: width, in: input.baseAddress!, packed: stored.baseAddress! + 4 * reach.area)
                                && Self.equal(reach, width: width, in: previous.baseAddress!, packed: stored.baseAddress!)
                                && Self.equal(pending, width: width, in: display.baseAddress!, packed: stored.baseAddress! + 4 * (reach.area + box.area))
                        }
                    }
                }
            }
            if same {
                return (step, box.x - step.box.x, box.y - step.box.y)
            }
        }
        return nil
    }

    /// Does what `step` did, moved by (`dx`, `dy`) (docs for `Step`), the
    /// frame taking the pending one's place with `delay`; hands out the
    /// pending frame, which lasts `pendingDelay`, as `step` did its own.
    private mutating func replay(_ step: Step, movedBy dx: Int, _ dy: Int, pendingDelay: Int, delay: Int) -> FramePatch {
        let box = step.box.moved(by: dx, dy), rect = step.patch.rect.moved(by: dx, dy)
        show(rect, clearing: step.patch.disposal == .clear)
        step.pixels.withUnsafeBytes { stored in
            let composited = stored.baseAddress! + 4 * (step.reach.area + step.box.area + step.pending.area)
            target.withUnsafeMutableBytes { Self.copy(box, width: width, from: composited, packed: true, to: $0.baseAddress!) }
        }
        pending = (step.nextPending.moved(by: dx, dy), delay)
        handedOut += 1
        return FramePatch(rect: rect, disposal: step.patch.disposal, delayMilliseconds: pendingDelay, pixels: step.patch.pixels, sameAs: step.patchNumber)
    }

    /// The longest a frame may last: 16 pieces of the GIF's longest delay
    /// (about 2.9 hours); longer delays, and sums of them, stop there.
    static let maxDelayMilliseconds = 16 * 655_350

    /// The delay of two merged frames, at most `maxDelayMilliseconds`.
    static func addDelays(_ a: Int, _ b: Int) -> Int {
        min(a, maxDelayMilliseconds) + min(b, maxDelayMilliseconds) > maxDelayMilliseconds ? maxDelayMilliseconds : a + b
    }

    /// The last frame, or nil when no frame came.
    mutating func finish() -> FramePatch? {
        guard pending != nil else { return nil }
        var cleared = PixelBounds()
        if loops {
            // The first frame draws over the last one in decoders that do not
            // clear the canvas when they start over.
            target.withUnsafeBufferPointer { target in
                clearInFirstFrame.withUnsafeBufferPointer { clear in
                    for index in 0..<width * height where target[index].isOpaque && clear[index >> 6] & 1 << (index & 63) != 0 {
                        cleared.include(row: index / width, from: index % width)
                    }
                }
            }
        }
        return complete(clearing: cleared.rect)
    }

    /// Makes the target the first input composited, and notes whether that
    /// input is canvas-exact (`inputIsTarget`).
    private mutating func start(with input: [UInt8], delay: Int) {
        inputIsTarget = input.withUnsafeBytes { bytes in
            target.withUnsafeMutableBufferPointer { target in
                var compositor = Compositor(matte: matte)
                var exact = true
                for index in target.indices {
                    let raw = bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                    target[index] = compositor.composite(raw)
                    exact = exact && Self.isCanvasExact(raw)
                }
                return exact
            }
        }
        if loops {
            clearInFirstFrame = [UInt64](repeating: 0, count: (width * height + 63) / 64)
            target.withUnsafeBufferPointer { target in
                for index in target.indices where !target[index].isOpaque {
                    clearInFirstFrame[index >> 6] |= 1 << (index & 63)
                }
            }
        }
        // The first frame covers the whole canvas, whatever it holds.
        pending = (PixelRect(x: 0, y: 0, width: width, height: height), delay)
    }

    /// `input` composited over `box` (its pixels alone, row after row), and
    /// the rectangles of the pixels that differ from the target, and of
    /// those that go from opaque to transparent (`.empty` when none).
    ///
    /// The target is always the previous input composited, so a pixel whose
    /// input bytes did not change is the target's; and a `Compositor`
    /// remembers each composite for the next pixel.
    private func composite(_ input: [UInt8], over box: PixelRect) -> (composited: [CanvasPixel], changed: PixelRect, cleared: PixelRect) {
        var changed = PixelBounds(), cleared = PixelBounds()
        let composited = [CanvasPixel](unsafeUninitializedCapacity: box.area) { composited, initialized in
            input.withUnsafeBytes { bytes in
                withPreviousInput { previous in
                    target.withUnsafeBufferPointer { target in
                        guard let bytes = bytes.baseAddress, let previous = previous.baseAddress,
                              let scratch = composited.baseAddress, let target = target.baseAddress else { return }
                        var compositor = Compositor(matte: matte)
                        for row in 0..<box.height {
                            let y = box.y + row, start = y * width + box.x
                            let input = bytes + 4 * start, before = previous + 4 * start
                            let old = target + start, new = scratch + row * box.width
                            var first = Int.max, last = -1, firstCleared = Int.max, lastCleared = -1
                            for x in 0..<box.width {
                                let raw = input.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
                                guard raw != before.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self) else {
                                    (new + x).initialize(to: old[x])
                                    continue
                                }
                                let pixel = compositor.composite(raw)
                                (new + x).initialize(to: pixel)
                                if pixel != old[x] {
                                    first = min(first, x)
                                    last = x
                                    if !pixel.isOpaque {
                                        firstCleared = min(firstCleared, x)
                                        lastCleared = x
                                    }
                                }
                            }
                            if last >= 0 {
                                changed.include(row: y, from: box.x + first, count: last - first + 1)
                            }
                            if lastCleared >= 0 {
                                cleared.include(row: y, from: box.x + firstCleared, count: lastCleared - firstCleared + 1)
                            }
                        }
                    }
                }
            }
            initialized = box.area
        }
        return (composited, changed.rect, cleared.rect)
    }

    /// Calls `body` with the previous input's bytes.
    private func withPreviousInput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        inputIsTarget ? target.withUnsafeBytes(body) : previousInput.withUnsafeBytes(body)
    }

    /// Makes the previous input `input` over `box` (the target already
    /// being `input` composited there). While the input stays canvas-exact
    /// the target is that already; the first input that is not gets a copy
    /// of its own, from the target and `input`.
    private mutating func remember(_ input: [UInt8], over box: PixelRect) {
        if inputIsTarget {
            guard !Self.isCanvasExact(input, over: box, width: width) else { return }
            previousInput = target.withUnsafeBytes { [UInt8]($0) }
            inputIsTarget = false
        }
        input.withUnsafeBytes { input in
            previousInput.withUnsafeMutableBytes { Self.copy(box, width: width, from: input.baseAddress!, to: $0.baseAddress!) }
        }
    }

    /// Whether every pixel of `input` over `rect` is its own canvas pixel.
    private static func isCanvasExact(_ input: [UInt8], over rect: PixelRect, width: Int) -> Bool {
        input.withUnsafeBytes { bytes in
            (rect.y..<rect.maxY).allSatisfy { y in
                let row = bytes.baseAddress! + 4 * (y * width + rect.x)
                return (0..<rect.width).allSatisfy { x in isCanvasExact(row.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)) }
            }
        }
    }

    /// Whether an input pixel's four bytes (as they lie in memory) are its
    /// own canvas pixel: opaque, or all zero.
    @inline(__always)
    private static func isCanvasExact(_ pixel: UInt32) -> Bool {
        pixel == 0 || pixel.littleEndian >> 24 == 0xFF
    }

    /// Takes in the pixels of `rect` where the target differs from the display.
    private func addDifferences(in rect: PixelRect, to box: inout PixelBounds) {
        target.withUnsafeBufferPointer { target in
            display.withUnsafeBufferPointer { display in
                for y in rect.y..<rect.maxY {
                    let row = y * width
                    var x = rect.x
                    while x < rect.maxX && target[row + x] == display[row + x] { x += 1 }
                    guard x < rect.maxX else { continue }
                    var last = rect.maxX - 1
                    while target[row + last] == display[row + last] { last -= 1 }
                    box.include(row: y, from: x, count: last - x + 1)
                }
            }
        }
    }

    /// Hands out the pending frame: its changed rectangle grown to hold
    /// `cleared` (pixels that must be transparent in the next frame), which
    /// it then clears. Updates the display to what the decoder shows after it.
    private mutating func complete(clearing cleared: PixelRect) -> FramePatch {
        let (changed, delay) = pending ?? (.empty, 0)
        // A frame that changes nothing still needs a pixel in a GIF.
        let grown = changed.union(cleared)
        let rect = grown.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1) : grown
        let disposal: FramePatch.Disposal = cleared.isEmpty ? .keep : .clear
        let pixels = [PatchPixel](unsafeUninitializedCapacity: rect.area) { pixels, initialized in
            target.withUnsafeBufferPointer { target in
                display.withUnsafeBufferPointer { display in
                    guard let pixels = pixels.baseAddress, let target = target.baseAddress, let display = display.baseAddress else { return }
                    for row in 0..<rect.height {
                        let start = (rect.y + row) * width + rect.x
                        let shown = target + start, before = display + start, out = pixels + row * rect.width
                        for x in 0..<rect.width {
                            let pixel = shown[x]
                            (out + x).initialize(to: pixel == before[x] && pixel.isOpaque ? .kept(pixel) : pixel)
                        }
                    }
                }
            }
            initialized = rect.area
        }
        show(rect, clearing: disposal == .clear)
        handedOut += 1
        return FramePatch(rect: rect, disposal: disposal, delayMilliseconds: delay, pixels: pixels)
    }

    /// Makes the display over `rect` what the decoder shows after a frame
    /// there: the target, or transparent when the frame clears its rectangle.
    private mutating func show(_ rect: PixelRect, clearing: Bool) {
        target.withUnsafeBytes { target in
            display.withUnsafeMutableBytes { display in
                if clearing {
                    for row in 0..<rect.height {
                        (display.baseAddress! + 4 * ((rect.y + row) * width + rect.x)).initializeMemory(as: CanvasPixel.self, repeating: .clear, count: rect.width)
                    }
                } else {
                    Self.copy(rect, width: width, from: target.baseAddress!, to: display.baseAddress!)
                }
            }
        }
    }

    /// Copies the pixels of `rect` (4 bytes each) from one buffer to
    /// another, each a canvas `width` pixels wide or, when packed, those
    /// pixels alone, row after row.
    private static func copy(_ rect: PixelRect, width: Int, from source: UnsafeRawPointer, packed sourcePacked: Bool = false,
                             to destination: UnsafeMutableRawPointer, packed destinationPacked: Bool = false) {
        for row in 0..<rect.height {
            let start = 4 * ((rect.y + row) * width + rect.x), packedStart = 4 * row * rect.width
            (destination + (destinationPacked ? packedStart : start))
                .copyMemory(from: source + (sourcePacked ? packedStart : start), byteCount: 4 * rect.width)
        }
    }

    /// Whether the pixels of `rect` on a canvas `width` pixels wide (4 bytes
    /// each) are `packed`, those pixels alone, row after row.
    private static func equal(_ rect: PixelRect, width: Int, in canvas: UnsafeRawPointer, packed: UnsafeRawPointer) -> Bool {
        (0..<rect.height).allSatisfy { row in
            memcmp(canvas + 4 * ((rect.y + row) * width + rect.x), packed + 4 * row * rect.width, 4 * rect.width) == 0
        }
    }
}
