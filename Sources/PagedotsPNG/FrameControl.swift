import PagedotsPixels

/// What happens to a frame's region after it has shown, before the next
/// frame is drawn (fcTL `dispose_op`).
enum DisposeOp: UInt8, CaseIterable {
    /// Left as it is.
    case none = 0
    /// Cleared to transparent black.
    case background = 1
    /// Put back as it was before the frame was drawn.
    case previous = 2
}

/// How a frame's region is drawn onto the canvas (fcTL `blend_op`).
enum BlendOp: UInt8 {
    /// Replaces the pixels under it.
    case source = 0
    /// Is composited over them: fully transparent pixels leave them as they are.
    case over = 1
}

/// One frame's fcTL, less its sequence number.
struct FrameControl {
    var rect: PixelRect
    var delay: FrameDelay
    var dispose: DisposeOp
    var blend: BlendOp
}

/// How long a frame shows, as fcTL writes it: `numerator / denominator`
/// seconds, each at most 65535.
struct FrameDelay: Equatable {
    var numerator: UInt16
    var denominator: UInt16

    /// The longest delay given to one frame: 65535 s.
    static let maxMilliseconds = 65_535_000

    init(numerator: UInt16, denominator: UInt16) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// `milliseconds` exactly, as a reduced fraction of a second; nil when
    /// the fraction needs a numerator over 65535 (or `milliseconds` < 0).
    init?(milliseconds: Int) {
        guard milliseconds >= 0 else { return nil }
        var (a, b) = (milliseconds, 1000)
        while b != 0 {
            (a, b) = (b, a % b)
        }
        let numerator = milliseconds / a, denominator = 1000 / a
        guard numerator <= Int(UInt16.max) else { return nil }
        self.numerator = UInt16(numerator)
        self.denominator = UInt16(denominator)
    }

    /// The delays of consecutive frames that show one picture for
    /// `milliseconds` (below 0 counts as 0) in all, exactly: one delay,
    /// unless it is longer than 65535 s or, over 65.535 s, is not a fraction
    /// that fits (then whole seconds, and the rest).
    static func split(milliseconds: Int) -> [FrameDelay] {
        var remaining = max(0, milliseconds)
        var parts: [FrameDelay] = []
        while remaining > maxMilliseconds {
            parts.append(FrameDelay(numerator: UInt16.max, denominator: 1))
            remaining -= maxMilliseconds
        }
        if remaining == 0 && !parts.isEmpty {
            return parts
        }
        if let exact = FrameDelay(milliseconds: remaining) {
            return parts + [exact]
        }
        // Whole seconds (at most 65535 of them) and under a second (denominator ≤ 1000) both fit.
        let seconds = remaining / 1000 * 1000
        return parts + [seconds, remaining - seconds].compactMap { FrameDelay(milliseconds: $0) }
    }
}
