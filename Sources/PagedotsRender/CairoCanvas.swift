import CCairo

/// A Cairo image surface of one size and its context, kept by
/// `RasterRenderer` while images keep that size: its lifecycle, and the
/// canvases of parts of it (made of its memory) that regions are drawn on.
final class CairoCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    let width: Int
    let height: Int
    /// The surface's memory, rows `stride` bytes apart.
    let data: UnsafeMutablePointer<UInt8>
    let stride: Int

    /// A cleared canvas of `width × height` ARGB32 pixels; nil when Cairo cannot make one.
    init?(width: Int, height: Int) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS,
              let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        // SVG's default, so that the PNG and the SVG draw the same joins.
        cairo_set_miter_limit(context, 4)
        self.surface = surface
        self.context = context
        self.width = width
        self.height = height
        self.data = data
        stride = Int(cairo_image_surface_get_stride(surface))
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Runs `body` with a Cairo canvas of `box`'s size made of the canvas's
    /// memory (drawn afresh each time anyway), then marks the canvas as drawn
    /// on: a canvas Cairo takes for clear skips painting a transparent
    /// background over it, and a drawing drawn whole next would keep the part's pixels.
    func drawPart(box: (x: Int, y: Int, width: Int, height: Int), _ body: (_ part: OpaquePointer, _ context: OpaquePointer) -> Void) {
        guard let part = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(box.width), Int32(box.height), Int32(stride)) else { return }
        defer { cairo_surface_destroy(part) }
        defer { cairo_surface_mark_dirty(surface) }
        guard cairo_surface_status(part) == CAIRO_STATUS_SUCCESS, let context = cairo_create(part) else { return }
        defer { cairo_destroy(context) }
        cairo_set_miter_limit(context, 4)
        body(part, context)
    }

    /// Sets every pixel of the part canvas `part` (of `size`, drawn on this
    /// canvas's memory) to the premultiplied `pixel`, and marks it as drawn on.
    func clear(_ part: OpaquePointer, size: (width: Int, height: Int), to pixel: UInt32) {
        for y in 0 ..< size.height {
            CairoPixels.fill(UnsafeMutableRawPointer(data + y * stride), with: pixel, count: size.width)
        }
        cairo_surface_mark_dirty(part)
    }
}
