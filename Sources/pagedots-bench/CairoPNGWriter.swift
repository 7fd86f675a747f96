import CCairo

/// Cairo's own PNG writer (`cairo_surface_write_to_png_stream`), the
/// reference that pagedots' encoder is timed and sized against. Holds one
/// ARGB32 surface with the image premultiplied, as a Cairo-based server would.
final class CairoPNGWriter {
    private let surface: OpaquePointer
    private var output: [UInt8] = []

    /// Premultiplies straight RGBA into a new surface. Rounding to nearest
    /// inverts the renderer's un-premultiply exactly, so Cairo's writer
    /// un-premultiplies back to the same straight pixels.
    init(rgba pixels: [UInt8], width: Int, height: Int) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface) {
            let rowPixels = UnsafeMutableRawPointer(data)
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let alpha = UInt32(pixels[i + 3])
                    let premultiply = { (value: UInt8) in (2 * UInt32(value) * alpha + 255) / 510 }
                    let argb = alpha << 24 | premultiply(pixels[i]) << 16 | premultiply(pixels[i + 1]) << 8 | premultiply(pixels[i + 2])
                    rowPixels.storeBytes(of: argb, toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// The PNG file as Cairo writes it.
    func write() -> [UInt8] {
        output.removeAll(keepingCapacity: true)
        let status = withExtendedLifetime(self) {
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let writer = Unmanaged<CairoPNGWriter>.fromOpaque(closure).takeUnretainedValue()
                writer.output.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        precondition(status == CAIRO_STATUS_SUCCESS, "cairo could not write the PNG")
        return output
    }
}
