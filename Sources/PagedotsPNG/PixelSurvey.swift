/// One RGBA pixel as its four bytes read as a little-endian `UInt32`:
/// red in the low byte, alpha in the high byte.
typealias PackedPixel = UInt32

extension PackedPixel {
    var red: UInt8 { UInt8(truncatingIfNeeded: self) }
    var green: UInt8 { UInt8(truncatingIfNeeded: self >> 8) }
    var blue: UInt8 { UInt8(truncatingIfNeeded: self >> 16) }
    var alpha: UInt8 { UInt8(truncatingIfNeeded: self >> 24) }
    var isGrey: Bool { red == green && green == blue }
}

extension UnsafeRawBufferPointer {
    /// Pixel `index` of an RGBA buffer.
    @inline(__always)
    func pixel(at index: Int) -> PackedPixel {
        PackedPixel(littleEndian: loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
    }
}

/// The distinct pixel values of an image, up to `ColorTable.capacity`, with
/// how often each occurs and, once assigned, its palette index.
struct ColorTable {
    /// The most colours a PNG palette holds.
    static let capacity = 256
    /// A power of two, 4× the capacity, so that probes stay short.
    private static let slotCount = 1024

    private var keys = [PackedPixel](repeating: 0, count: slotCount)
    /// 0 marks an empty slot.
    private var counts = [Int](repeating: 0, count: slotCount)
    private var indices = [UInt8](repeating: 0, count: slotCount)
    /// How many distinct colours the table holds.
    private(set) var count = 0

    @inline(__always)
    private func slot(of pixel: PackedPixel) -> Int {
        var slot = Int((pixel &* 0x9E37_79B1) >> 22)
        while counts[slot] != 0 && keys[slot] != pixel {
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return slot
    }

    /// Counts `times` more occurrences of `pixel`; false, and no change, when
    /// `pixel` is new and the table is full.
    mutating func add(_ pixel: PackedPixel, times: Int) -> Bool {
        let slot = slot(of: pixel)
        if counts[slot] == 0 {
            guard count < Self.capacity else { return false }
            keys[slot] = pixel
            count += 1
        }
        counts[slot] += times
        return true
    }

    /// Every colour with its count, in no particular order.
    var entries: [(pixel: PackedPixel, count: Int)] {
        (0..<Self.slotCount).filter { counts[$0] != 0 }.map { (keys[$0], counts[$0]) }
    }

    /// Records `order` as the palette: each colour's index is its position.
    mutating func assignIndices(_ order: [PackedPixel]) {
        for (index, pixel) in order.enumerated() {
            indices[slot(of: pixel)] = UInt8(index)
        }
    }

    /// The palette index of a colour in the table.
    @inline(__always)
    func index(of pixel: PackedPixel) -> UInt8 {
        indices[slot(of: pixel)]
    }
}

/// What an image's pixels allow: how many colours, whether any is
/// translucent or not grey, how few bits the greys need. Read in one pass;
/// an animation adds the pixels of each of its frames' changed regions.
struct PixelSurvey {
    /// The distinct colours, or nil when there are more than a palette holds.
    var colors: ColorTable? = ColorTable()
    /// Every alpha is 255.
    var isOpaque = true
    /// Every pixel has red = green = blue.
    var isGrey = true
    /// When `isGrey`: the smallest PNG grey depth (1, 2, 4, 8) that holds
    /// every grey value exactly (a 4-bit level is a multiple of 255/15 = 17).
    var greyBitDepth = 1

    /// A survey of no pixels yet.
    init() {}

    /// A survey of one image.
    init(rgba pixels: UnsafeRawBufferPointer) {
        add(pixels)
    }

    /// Counts more pixels, given as RGBA bytes.
    mutating func add(_ pixels: UnsafeRawBufferPointer) {
        let pixelCount = pixels.count / 4
        var index = 0
        while index < pixelCount {
            if colors == nil && !isGrey && !isOpaque {
                return  // nothing left to learn: RGBA it is
            }
            // Count a run of equal pixels at once: indicator images are mostly runs.
            let pixel = pixels.pixel(at: index)
            var end = index + 1
            while end < pixelCount && pixels.pixel(at: end) == pixel {
                end += 1
            }
            if colors?.add(pixel, times: end - index) == false {
                colors = nil
            }
            if pixel.alpha != 255 {
                isOpaque = false
            }
            if isGrey {
                if pixel.isGrey {
                    greyBitDepth = max(greyBitDepth, Self.greyBitDepth(for: pixel.red))
                } else {
                    isGrey = false
                }
            }
            index = end
        }
    }

    /// The palette for the surveyed colours, and the colour table with each
    /// colour's index in it assigned; nil when there are too many colours.
    /// `reservingTransparent` adds transparent black when the palette can
    /// take it (see `Palette.addingTransparent()`).
    func palette(reservingTransparent: Bool = false) -> (palette: Palette, indices: ColorTable)? {
        guard var table = colors else { return nil }
        var palette = Palette(table)
        if reservingTransparent, let extended = palette.addingTransparent(), table.add(0, times: 1) {
            palette = extended
        }
        table.assignIndices(palette.colors)
        return (palette, table)
    }

    /// The smallest depth at which `level` is exact: 0 and 255 need 1 bit,
    /// multiples of 85 need 2, of 17 need 4.
    private static func greyBitDepth(for level: UInt8) -> Int {
        if level % 255 == 0 { return 1 }
        if level % 85 == 0 { return 2 }
        if level % 17 == 0 { return 4 }
        return 8
    }
}
