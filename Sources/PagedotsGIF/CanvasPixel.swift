/// A pixel as the GIF can show it, packed in a `UInt32`: red in the low
/// byte, then green, blue, and 0xFF in the high byte when opaque; 0 when
/// fully transparent (a GIF pixel is one or the other).
typealias CanvasPixel = UInt32

extension CanvasPixel {
    /// The transparent pixel.
    static let clear: CanvasPixel = 0
    static let opaqueBits: CanvasPixel = 0xFF00_0000
    static let colorBits: CanvasPixel = 0x00FF_FFFF

    var isOpaque: Bool { self != .clear }
    /// Red, green and blue without the alpha byte.
    var rgb: UInt32 { self & Self.colorBits }
}

/// The opaque colour that partly transparent input pixels are blended onto.
struct Matte {
    let red: UInt32
    let green: UInt32
    let blue: UInt32

    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = UInt32(red)
        self.green = UInt32(green)
        self.blue = UInt32(blue)
    }

    /// The canvas pixel for a straight-alpha RGBA input pixel (its four bytes
    /// read as a little-endian `UInt32`): transparent for alpha 0, the colour
    /// for alpha 255, and otherwise `c·a + m·(255−a)` over 255, rounded, opaque.
    @inline(__always)
    func composite(_ input: UInt32) -> CanvasPixel {
        let alpha = input >> 24
        if alpha == 0xFF { return input }
        if alpha == 0 { return .clear }
        let inverse = 255 &- alpha
        // (x + 127) / 255 is x / 255 rounded: 255 is odd, so no x lies
        // half-way. x is at most 255 · 255 + 127: no overflow to check.
        let r = ((input & 0xFF) &* alpha &+ red &* inverse &+ 127) / 255
        let g = ((input >> 8 & 0xFF) &* alpha &+ green &* inverse &+ 127) / 255
        let b = ((input >> 16 & 0xFF) &* alpha &+ blue &* inverse &+ 127) / 255
        return CanvasPixel.opaqueBits | b << 16 | g << 8 | r
    }
}

/// `Matte.composite` of pixels in turn, the last one remembered: neighbouring
/// pixels often have the same bytes (a background, a fill).
struct Compositor {
    let matte: Matte
    private var lastInput: UInt32 = 0
    /// The composite of `lastInput` (that of 0 is clear).
    private var lastPixel = CanvasPixel.clear

    init(matte: Matte) {
        self.matte = matte
    }

    /// The canvas pixel for an input pixel's four bytes, loaded as they lie in memory.
    @inline(__always)
    mutating func composite(_ input: UInt32) -> CanvasPixel {
        if input != lastInput {
            lastInput = input
            lastPixel = matte.composite(input.littleEndian)
        }
        return lastPixel
    }
}

/// A pixel of a frame's rectangle, as `FrameDiffer` hands it to the writer:
/// a canvas pixel, except that an opaque pixel already on screen (left by
/// the frames before) carries `keptMark` instead of 0xFF as its high byte.
/// Such a pixel may be written in its colour or as the transparent index;
/// a transparent one must be the transparent index; any other must be drawn.
typealias PatchPixel = UInt32

extension PatchPixel {
    static let keptMark: PatchPixel = 0x0100_0000

    /// An opaque pixel that the screen already shows.
    @inline(__always)
    static func kept(_ pixel: CanvasPixel) -> PatchPixel { pixel.rgb | keptMark }

    /// An opaque pixel that this frame must draw.
    var mustDraw: Bool { self >= CanvasPixel.opaqueBits }
    var isKept: Bool { self & CanvasPixel.opaqueBits == Self.keptMark }
}
