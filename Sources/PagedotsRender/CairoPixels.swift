import CCairo
import PagedotsCore

/// Pixels between Cairo's canvases and images: Cairo keeps premultiplied
/// native-endian ARGB32 words, images hold straight RGBA bytes. Every
/// access goes through raw memory (`load`, `storeBytes`, `copyMemory`):
/// Cairo's rows and an image's bytes are bound to `UInt8`, not to words.
enum CairoPixels {
    /// Copies a `size` box of 4-byte pixels from `source` (rows `sourceWidth`
    /// pixels long), its corner at `from`, into `output` (rows `outputWidth`
    /// long) with its corner at `to`. Both must hold the box.
    static func copy(
        from source: UnsafeRawBufferPointer, width sourceWidth: Int, at from: (x: Int, y: Int),
        into output: UnsafeMutableRawBufferPointer, width outputWidth: Int, at to: (x: Int, y: Int), size: (width: Int, height: Int)
    ) {
        guard let input = source.baseAddress, let base = output.baseAddress else { return }
        for row in 0..<size.height {
            base.advanced(by: ((to.y + row) * outputWidth + to.x) * 4)
                .copyMemory(from: input.advanced(by: ((from.y + row) * sourceWidth + from.x) * 4), byteCount: size.width * 4)
        }
    }

    /// Sets `count` 4-byte pixels from `start` to `pixel` (in memory order as given).
    @inline(__always)
    static func fill(_ start: UnsafeMutableRawPointer, with pixel: UInt32, count: Int) {
        for index in 0..<count {
            start.storeBytes(of: pixel, toByteOffset: 4 * index, as: UInt32.self)
        }
    }

    /// Copies a region's `straight` pixels into `box` of `image`.
    static func copy(_ straight: [UInt8], into image: inout RGBAImage, at box: (x: Int, y: Int, width: Int, height: Int)) {
        let width = image.width
        straight.withUnsafeBytes { region in
            image.pixels.withUnsafeMutableBytes { output in
                copy(from: region, width: box.width, at: (0, 0), into: output, width: width, at: (box.x, box.y), size: (box.width, box.height))
            }
        }
    }

    /// The premultiplied pixels of `box` in the flushed canvas `part`.
    static func premultipliedPixels(of part: OpaquePointer, box: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
        let count = box.width * box.height
        let stride = Int(cairo_image_surface_get_stride(part))
        let data = UnsafeRawBufferPointer(start: cairo_image_surface_get_data(part), count: stride * (box.y + box.height))
        return [UInt32](unsafeUninitializedCapacity: count) { premultiplied, initialized in
            copy(from: data, width: stride / 4, at: (box.x, box.y), into: UnsafeMutableRawBufferPointer(premultiplied), width: box.width, at: (0, 0), size: (box.width, box.height))
            initialized = count
        }
    }

    /// A region's `premultiplied` pixels (`width` a row) as straight RGBA bytes in `inks`.
    static func straightPixels(of premultiplied: [UInt32], width: Int, inks: Inks) -> [UInt8] {
        let box = (x: 0, y: 0, width: width, height: premultiplied.count / max(width, 1))
        return [UInt8](unsafeUninitializedCapacity: 4 * premultiplied.count) { straight, initialized in
            premultiplied.withUnsafeBytes { pixels in
                guard let data = pixels.baseAddress else { return }
                copyStraightRGBA(of: data, stride: 4 * width, box: box, into: UnsafeMutableRawBufferPointer(straight), at: (0, 0), width: width, inks: inks)
            }
            initialized = 4 * premultiplied.count
        }
    }

    /// Copies `premultiplied` pixels (a region's) into `box` of a canvas of
    /// Cairo's whose memory starts at `data`, rows `stride` bytes apart.
    static func copy(_ premultiplied: [UInt32], into data: UnsafeMutablePointer<UInt8>, stride: Int, box: (x: Int, y: Int, width: Int, height: Int)) {
        let output = UnsafeMutableRawBufferPointer(start: data, count: stride * (box.y + box.height))
        premultiplied.withUnsafeBytes { region in
            copy(from: region, width: box.width, at: (0, 0), into: output, width: stride / 4, at: (box.x, box.y), size: (box.width, box.height))
        }
    }

    /// The surface's premultiplied native-endian ARGB32 pixels inside `box`
    /// as straight RGBA bytes, written into `output` (an image `width`
    /// pixels wide) with the box's corner at `origin`: a translucent pixel
    /// in the nearest of `inks` that paints it, or else un-premultiplied as
    /// Cairo's PNG writer does, `(c·255 + a/2) / a`. Works a pixel (four
    /// bytes) at a time; clear and opaque pixels need no division, and a
    /// translucent pixel like the one before it (a dot's inside) is not
    /// worked out again.
    static func copyStraightRGBA(
        of surface: OpaquePointer, box: (x: Int, y: Int, width: Int, height: Int),
        into output: UnsafeMutableRawBufferPointer, at origin: (x: Int, y: Int), width: Int, inks: Inks
    ) {
        guard let data = cairo_image_surface_get_data(surface) else { return }
        copyStraightRGBA(of: data, stride: Int(cairo_image_surface_get_stride(surface)), box: box, into: output, at: origin, width: width, inks: inks)
    }

    /// `copyStraightRGBA(of:box:into:at:width:inks:)` for pixels in memory,
    /// rows `stride` bytes apart (a multiple of 4, from a 4-byte boundary).
    static func copyStraightRGBA(
        of data: UnsafeRawPointer, stride: Int, box: (x: Int, y: Int, width: Int, height: Int),
        into output: UnsafeMutableRawBufferPointer, at origin: (x: Int, y: Int), width: Int, inks: Inks
    ) {
        guard let base = output.baseAddress, output.count >= (origin.y + box.height) * width * 4 else { return }
        // A clear pixel never takes this path, so the first translucent one is worked out.
        var last: (pixel: UInt32, straight: UInt32) = (0, 0)
        for y in box.y ..< box.y + box.height {
            let row = data + y * stride
            var out = 4 * ((origin.y + y - box.y) * width + origin.x)
            for x in box.x ..< box.x + box.width {
                let pixel = row.load(fromByteOffset: 4 * x, as: UInt32.self)
                let alpha = pixel >> 24
                let straight: UInt32
                if alpha == 0xFF || alpha == 0 {
                    // Bytes R, G, B, A in memory, whatever the machine's byte order.
                    straight = (pixel >> 16) & 0xFF | (pixel & 0xFF00) | (pixel & 0xFF) << 16 | alpha << 24
                } else if pixel == last.pixel {
                    straight = last.straight
                } else {
                    let color = inks.straightColor(red: (pixel >> 16) & 0xFF, green: (pixel >> 8) & 0xFF, blue: pixel & 0xFF, alpha: alpha)
                    straight = color | alpha << 24
                    last = (pixel, straight)
                }
                base.storeBytes(of: straight.littleEndian, toByteOffset: out, as: UInt32.self)
                out += 4
            }
        }
    }

    /// Makes `color` the source so that Cairo paints it premultiplied with
    /// rounding, `round(c·a/255)`. Cairo keeps a colour as 16-bit premultiplied
    /// channels and paints with their top 8 bits, which truncates: #007AFF at
    /// alpha 77 would become green 36 (straight 119) instead of 37 (123).
    /// Each channel is passed so that its 16-bit value lands in the middle of
    /// the rounded 8-bit step.
    static func setColor(_ color: RGBA, on context: OpaquePointer) {
        guard color.alpha > 0 else {
            cairo_set_source_rgba(context, 0, 0, 0, 0)
            return
        }
        let alpha = Double(color.alpha) / 255
        func channel(_ value: UInt8) -> Double {
            let premultiplied = (UInt32(value) * UInt32(color.alpha) + 127) / 255
            return min(1, (Double(premultiplied) * 256 + 128) / 65535 / alpha)
        }
        cairo_set_source_rgba(context, channel(color.red), channel(color.green), channel(color.blue), alpha)
    }
}
