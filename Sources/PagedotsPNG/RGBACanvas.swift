import PagedotsPixels

/// A whole frame of straight RGBA pixels, rows top to bottom, as the
/// animation encoder keeps it: the frame shown, the one before it, the next.
/// Every operation but the whole-frame comparison touches only the
/// rectangle it is given.
struct RGBACanvas {
    let width: Int
    let height: Int
    /// `width × height × 4` bytes.
    private(set) var pixels: [UInt8]

    /// A fully transparent black canvas, what an APNG's output buffer starts as.
    init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBA buffer does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Within `region`, the smallest rectangle that holds every pixel of
    /// `self` that differs from `base` with `cleared` made transparent black.
    /// Each row is scanned in from both ends to its outermost differences.
    func changedBounds(in region: PixelRect, from base: RGBACanvas, cleared: PixelRect) -> PixelRect {
        var bounds = PixelBounds()
        pixels.withUnsafeBytes { after in
            base.pixels.withUnsafeBytes { before in
                for y in region.y ..< region.y + region.height {
                    let isClearedRow = y >= cleared.y && y < cleared.y + cleared.height
                    let clearedColumns = isClearedRow ? cleared.x ..< cleared.x + cleared.width : 0 ..< 0
                    func differs(_ x: Int) -> Bool {
                        after.pixel(at: y * width + x) != (clearedColumns.contains(x) ? 0 : before.pixel(at: y * width + x))
                    }
                    guard let left = (region.x ..< region.x + region.width).first(where: differs),
                          let right = (left ..< region.x + region.width).last(where: differs) else { continue }
                    bounds.include(row: y, from: left, count: right - left + 1)
                }
            }
        }
        return bounds.rect
    }

    /// The pixels of `rect`, rows top to bottom.
    func crop(_ rect: PixelRect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.area * 4)
        for y in rect.y ..< rect.y + rect.height {
            let start = (y * width + rect.x) * 4
            out.append(contentsOf: pixels[start ..< start + rect.width * 4])
        }
        return out
    }

    /// The pixels of `rect` as an OVER-blended frame region drawn onto
    /// `base` (with `cleared` made transparent black) must hold them to turn
    /// it into `self`: each unchanged pixel becomes `marker` (a fully
    /// transparent colour, which leaves the pixel under it as it is), each
    /// changed one stays itself. Nil when a changed pixel is not opaque (OVER
    /// would blend it with the pixel under it; over a fully transparent
    /// pixel that is exact in the specification's arithmetic, but decoders
    /// that blend with a mask, as Pillow does, get it wrong, and it saved
    /// 0.01 % on the bench samples), or when no pixel became `marker` that
    /// was not that already (the region is then the same as for SOURCE).
    func overCrop(_ rect: PixelRect, base: RGBACanvas, cleared: PixelRect, marker: PackedPixel) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: rect.area * 4)
        var replaced = false
        let exact: Bool = out.withUnsafeMutableBytes { region in
            pixels.withUnsafeBytes { after in
                base.pixels.withUnsafeBytes { before in
                    var index = 0
                    for y in rect.y ..< rect.y + rect.height {
                        for x in rect.x ..< rect.x + rect.width {
                            var value = after.pixel(at: y * width + x)
                            let old = cleared.contains(x: x, y: y) ? 0 : before.pixel(at: y * width + x)
                            if value == old {
                                replaced = replaced || value != marker
                                value = marker
                            } else if value.alpha != 255 {
                                return false
                            }
                            region.storeBytes(of: value.littleEndian, toByteOffset: index * 4, as: UInt32.self)
                            index += 1
                        }
                    }
                    return true
                }
            }
        }
        return exact && replaced ? out : nil
    }

    /// Writes `crop` (the pixels of `rect`, rows top to bottom) into the canvas.
    mutating func paste(_ crop: [UInt8], in rect: PixelRect) {
        for row in 0 ..< rect.height {
            let start = ((rect.y + row) * width + rect.x) * 4
            pixels.replaceSubrange(start ..< start + rect.width * 4, with: crop[row * rect.width * 4 ..< (row + 1) * rect.width * 4])
        }
    }

    /// Copies `rect` from a canvas of the same size.
    mutating func copy(_ rect: PixelRect, from other: RGBACanvas) {
        for y in rect.y ..< rect.y + rect.height {
            let start = (y * width + rect.x) * 4
            pixels.replaceSubrange(start ..< start + rect.width * 4, with: other.pixels[start ..< start + rect.width * 4])
        }
    }

    /// Makes `rect` transparent black.
    mutating func clear(_ rect: PixelRect) {
        for y in rect.y ..< rect.y + rect.height {
            let start = (y * width + rect.x) * 4
            pixels.replaceSubrange(start ..< start + rect.width * 4, with: repeatElement(0, count: rect.width * 4))
        }
    }
}
