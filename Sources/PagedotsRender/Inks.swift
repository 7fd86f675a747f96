import PagedotsCore

/// The colours a drawing paints with (its items' colours and its
/// background, alpha aside), to which the renderer un-premultiplies the
/// translucent pixels they make.
///
/// Cairo's pixels are premultiplied, 8 bits a channel: a pixel at low alpha
/// keeps only a few levels of its colour, and dividing by the alpha, as
/// Cairo's PNG writer does, gives a colour that was never drawn (#007AFF at
/// alpha 3 comes back as #0055FF; the inactive dots' alpha 77, as #007BFF).
/// Every colour whose premultiplied channels land within a level of the
/// pixel's draws that pixel, so the pixel is written in the nearest ink
/// that does, and divided by its alpha only when none does. An edge then
/// keeps its ink's colour all the way out: the picture is the same when
/// composited (within one premultiplied level, 1/255, on any background),
/// the colours are the ones asked for, and an indicator in one colour at
/// many alphas needs a palette entry per alpha, not per alpha and rounding
/// (docs/styles.md, "Colours of translucent pixels").
///
/// The inks depend on the drawing alone, never on which part of it is
/// drawn, so a region repainted over the frame before comes out as the
/// whole drawing draws it.
struct Inks: Hashable {
    /// At most this many distinct colours; a drawing with more (a gradient
    /// of colours fading into each other) has none, and its pixels are divided.
    static let limit = 8

    /// The inks as `0x00BBGGRR` words, ascending: the order breaks ties.
    let colors: [UInt32]

    /// The inks of `drawing`: every item's colour, the items inside clips
    /// and text runs included, and the background's.
    init(of drawing: Drawing) {
        var colors: [UInt32] = []
        var overflowed = false
        func add(_ color: RGBA) {
            guard !overflowed, color.alpha > 0 else { return }
            let word = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16
            guard !colors.contains(word) else { return }
            if colors.count == Self.limit {
                overflowed = true
            } else {
                colors.append(word)
            }
        }
        func add(_ items: [DrawItem]) {
            for item in items where !overflowed {
                switch item {
                case .fill(_, let color), .stroke(_, _, let color): add(color)
                case .clipped(_, let inner): add(inner)
                case .text(let run): add(run.color)
                }
            }
        }
        add(drawing.background)
        add(drawing.items)
        if overflowed {
            colors.removeAll()
        } else {
            colors.sort()
        }
        self.colors = colors
    }

    /// The straight `0x00BBGGRR` colour of a premultiplied pixel whose
    /// alpha is neither 0 nor 255: the nearest ink whose channels,
    /// premultiplied by `alpha` (rounded), are each within a level of the
    /// pixel's, or else the channels divided by the alpha, rounded.
    func straightColor(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) -> UInt32 {
        var best: (color: UInt32, distance: UInt32)?
        for ink in colors {
            func distance(_ channel: UInt32, _ shift: UInt32) -> UInt32 {
                // c·a/255 is never halfway between two levels (255 is odd).
                let premultiplied = (((ink >> shift) & 0xFF) * alpha + 127) / 255
                return premultiplied > channel ? premultiplied - channel : channel - premultiplied
            }
            let r = distance(red, 0), g = distance(green, 8), b = distance(blue, 16)
            guard r <= 1, g <= 1, b <= 1 else { continue }
            if r + g + b < best?.distance ?? .max {
                best = (ink, r + g + b)
            }
        }
        if let best { return best.color }
        return (red * 255 + alpha / 2) / alpha | ((green * 255 + alpha / 2) / alpha) << 8 | ((blue * 255 + alpha / 2) / alpha) << 16
    }
}
