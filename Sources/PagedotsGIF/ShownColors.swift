import PagedotsPixels

/// What a decoder shows on the canvas where a quantised frame has drawn, so
/// that a later frame may draw a kept pixel in the colour it already shows.
///
/// `FrameDiffer` calls a pixel kept when the exact frames agree there; a
/// quantised frame has left another colour on screen than the exact one
/// (its palette's nearest, dithered), so the writer cannot index a kept
/// pixel by its exact colour. Where this knows the colour shown, and the
/// frame's palette holds it, the pixel can be written in it: nothing on
/// screen changes, and the frame's indices run on across the pixels it
/// keeps where transparent ones would break them (as `gifsicle -O3` finds;
/// a photograph pushed or faded across a flat slide compresses a quarter
/// smaller so).
///
/// Made at the first quantised frame; until then the screen shows every
/// kept pixel in its exact colour. Only for frames whose rectangles are
/// kept after they show (`FramePatch.Disposal.keep`).
struct ShownColors {
    /// Marks a pixel that shows the exact colour (the patch's kept colour).
    private static let exact: UInt32 = 0
    /// Marks a pixel whose colour is not known here: it stays transparent.
    private static let unknown: UInt32 = 1

    private let canvasWidth: Int
    /// Per canvas pixel, rows top to bottom: `exact`, `unknown`, or the
    /// colour shown (`CanvasPixel`, opaque).
    private var shown: [UInt32]

    /// A canvas of `width` × `height` that shows its exact colours.
    init(width: Int, height: Int) {
        canvasWidth = width
        shown = [UInt32](repeating: Self.exact, count: width * height)
    }

    /// `indices` (a quantised frame's, with kept pixels transparent) with
    /// each kept pixel whose shown colour `palette` holds (as an opaque
    /// entry, not `transparentIndex`) given that entry instead; nil when
    /// no kept pixel gets one.
    func filling(_ indices: [UInt8], of patch: FramePatch, palette: [UInt32], transparentIndex: Int) -> [UInt8]? {
        var positions: [UInt32: UInt8] = [:]
        for (index, color) in palette.enumerated() where index != transparentIndex && positions[color] == nil {
            positions[color] = UInt8(truncatingIfNeeded: index)
        }
        var filled = indices, changed = false
        var lastColor: UInt32?, lastIndex: UInt8?
        Self.forEachPixel(of: patch.rect, canvasWidth: canvasWidth) { position, canvasIndex in
            let pixel = patch.pixels[position]
            guard pixel.isKept else { return }
            let mark = shown[canvasIndex]
            guard mark != Self.unknown else { return }
            let color = mark == Self.exact ? pixel.rgb : mark.rgb
            if color != lastColor {
                lastColor = color
                lastIndex = positions[color]
            }
            if let lastIndex {
                filled[position] = lastIndex
                changed = true
            }
        }
        return changed ? filled : nil
    }

    /// Notes what a frame drew over `rect`: each pixel whose index is not
    /// `transparentIndex` now shows `palette`'s colour for it, or its exact
    /// colour when `palette` is nil (a frame indexed by exact colours).
    mutating func record(_ indices: [UInt8], in rect: PixelRect, transparentIndex: Int?, palette: [UInt32]?) {
        let transparent = transparentIndex ?? -1
        Self.forEachPixel(of: rect, canvasWidth: canvasWidth) { position, canvasIndex in
            let index = Int(indices[position])
            if index != transparent {
                shown[canvasIndex] = palette.map { CanvasPixel.opaqueBits | $0[index] } ?? Self.exact
            }
        }
    }

    /// Notes a frame copied from an earlier one's image, whose indices are
    /// not at hand: the pixels it must draw show their exact colours; a kept
    /// one that showed another colour may or may not have been redrawn.
    mutating func recordCopy(of patch: FramePatch) {
        Self.forEachPixel(of: patch.rect, canvasWidth: canvasWidth) { position, canvasIndex in
            let pixel = patch.pixels[position]
            if pixel.mustDraw {
                shown[canvasIndex] = Self.exact
            } else if pixel.isKept && shown[canvasIndex] != Self.exact {
                shown[canvasIndex] = Self.unknown
            }
        }
    }

    /// Calls `body` with each pixel of `rect`: its position in the patch
    /// and its index on a canvas `canvasWidth` wide, rows top to bottom.
    @inline(__always)
    private static func forEachPixel(of rect: PixelRect, canvasWidth: Int, _ body: (Int, Int) -> Void) {
        var position = 0
        for row in rect.y..<rect.maxY {
            let canvasStart = row * canvasWidth + rect.x
            for canvasIndex in canvasStart..<canvasStart + rect.width {
                body(position, canvasIndex)
                position += 1
            }
        }
    }
}
