import CCairo
import PagedotsCore
import PagedotsPixels

/// An image in straight-alpha RGBA, 8 bits a channel, rows top to bottom.
public struct RGBAImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// Draws a `Drawing` into pixels with Cairo. Keeps Cairo and Pango state
/// between calls (the last canvas, the fonts), so it is not `Sendable`: use one per thread.
///
/// This file draws a whole drawing; `RasterRenderer+Repainting.swift`
/// repaints the parts of an animation frame that changed, `CairoCanvas`
/// keeps the surface, `RegionCache` the regions drawn, and `CairoPixels`
/// turns Cairo's pixels into an image's.
public final class RasterRenderer {
    /// The last canvas, kept while images keep the same pixel size.
    private(set) var canvas: CairoCanvas?
    /// Made on the first title, so drawings without text never start Pango or fontconfig.
    private lazy var text = TextLayoutEngine()
    /// The regions repainted since the budget was last reset.
    let regions: RegionCache
    /// What the renderer's cache of regions may hold (`.regions`); its
    /// owner resets it after each animation, whose regions are its own.
    public let budget: CacheBudget
    /// The pixel that Cairo paints for the last background asked for:
    /// premultiplied, as on its canvas, and straight RGBA (in memory order) with the inks asked for.
    var backgroundPixel: (color: RGBA, inks: Inks, premultiplied: UInt32, straight: UInt32)?

    /// A renderer whose regions take their memory from `budget` (one of its own when none is given).
    public init(budget: CacheBudget = CacheBudget()) {
        self.budget = budget
        regions = RegionCache(budget: budget)
    }

    /// The drawing at `scale` pixels per point: `round(points × scale)` pixels
    /// a side (half up), antialiased, straight alpha.
    public func render(_ drawing: Drawing, scale: Int) -> RGBAImage {
        render(drawing, scale: Double(scale))
    }

    /// The drawing at a scale that need not be whole (a carousel's, in
    /// steps of 0.25), as `render(_:scale:)` draws it.
    public func render(_ drawing: Drawing, scale: Double) -> RGBAImage {
        let width = Self.pixels(drawing.size.width, scale: scale)
        let height = Self.pixels(drawing.size.height, scale: scale)
        guard width > 0, height > 0, let canvas = canvas(width: width, height: height) else {
            return RGBAImage(width: max(width, 0), height: max(height, 0), pixels: [])
        }
        paint(drawing, scale: scale, on: canvas.context)
        cairo_surface_flush(canvas.surface)
        let box = (x: 0, y: 0, width: width, height: height)
        let inks = Inks(of: drawing)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            CairoPixels.copyStraightRGBA(of: canvas.surface, box: box, into: UnsafeMutableRawBufferPointer(output), at: (0, 0), width: width, inks: inks)
            count = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }


    /// Paints the background and the items (within the context's clip, if
    /// any), every item over a canvas marked as drawn on.
    private func paint(_ drawing: Drawing, scale: Double, on context: OpaquePointer) {
        paint(background: drawing.background, on: context)
        paint(drawing.items, scale: scale, on: context)
    }

    /// Paints `background` over the canvas (within the context's clip, if
    /// any) and marks the canvas as drawn on.
    func paint(background: RGBA, on context: OpaquePointer) {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        CairoPixels.setColor(background, on: context)
        cairo_paint(context)
        // Cairo draws the first item on a canvas it knows to be clear (a
        // transparent background just painted) another way, which rounds
        // some edge pixels a level apart from drawing over one. Marked as
        // drawn on, the canvas draws every item alike, the first included,
        // so a region's pixels depend on its items alone, wherever it lies.
        cairo_surface_mark_dirty(cairo_get_target(context))
        cairo_restore(context)
    }

    /// Paints `items` over the canvas, in order.
    func paint(_ items: some Sequence<DrawItem>, scale: Double, on context: OpaquePointer) {
        cairo_save(context)
        cairo_scale(context, scale, scale)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        for item in items { draw(item, on: context) }
        cairo_restore(context)
    }

    /// `round(points × scale)`, half up; 0 for a size that is not a finite positive number.
    static func pixels(_ points: Double, scale: Double) -> Int {
        let pixels = (points * scale).rounded(.toNearestOrAwayFromZero)
        return pixels.isFinite && pixels > 0 && pixels < Double(Int32.max) ? Int(pixels) : 0
    }

    /// A cleared-state context on a surface of the size asked, reusing the last one when it fits.
    /// A cleared-state canvas of the size asked, the last one when it fits.
    func canvas(width: Int, height: Int) -> CairoCanvas? {
        if let canvas, canvas.width == width, canvas.height == height {
            return canvas
        }
        // The old surface goes before the new one is made.
        canvas = nil
        canvas = CairoCanvas(width: width, height: height)
        return canvas
    }

    private func draw(_ item: DrawItem, on context: OpaquePointer) {
        switch item {
        case .fill(let path, let color):
            CairoPath.set(path, on: context)
            CairoPixels.setColor(color, on: context)
            cairo_fill(context)
        case .stroke(let path, let lineWidth, let color):
            CairoPath.set(path, on: context)
            CairoPixels.setColor(color, on: context)
            cairo_set_line_width(context, lineWidth)
            cairo_stroke(context)
        case .clipped(let clip, let items):
            cairo_save(context)
            CairoPath.set(clip, on: context)
            cairo_clip(context)
            for inner in items { draw(inner, on: context) }
            cairo_restore(context)
        case .text(let run):
            draw(text.glyphRun(for: run), on: context)
        }
    }

    /// Fills each glyph's outline at its origin, one by one as the SVG's
    /// `<use>` elements are; a translucent colour is applied to the glyphs
    /// as a group (as the SVG's group opacity), so overlapping glyphs
    /// (joined Arabic, stacked marks) are not darker where they overlap.
    private func draw(_ run: GlyphRun, on context: OpaquePointer) {
        guard !run.glyphs.isEmpty, run.color.alpha > 0 else { return }
        let translucent = run.color.alpha < 255
        if translucent { cairo_push_group(context) }
        var opaque = run.color
        opaque.alpha = 255
        CairoPixels.setColor(opaque, on: context)
        for glyph in run.glyphs {
            cairo_save(context)
            // The same sums the SVG makes: an outline rounded to 1/100 point
            // moved by an origin rounded to 1/100 point.
            cairo_translate(context, CairoPath.rounded(glyph.origin.x), CairoPath.rounded(glyph.origin.y))
            CairoPath.set(glyph.outline, on: context)
            cairo_fill(context)
            cairo_restore(context)
        }
        if translucent {
            cairo_pop_group_to_source(context)
            cairo_paint_with_alpha(context, Double(run.color.alpha) / 255)
        }
    }

    /// Makes `color` the source so that Cairo paints it premultiplied with
    /// rounding, `round(c·a/255)`. Cairo keeps a colour as 16-bit premultiplied
    /// channels and paints with their top 8 bits, which truncates: #007AFF at
    /// alpha 77 would become green 36 (straight 119) instead of 37 (123).
    /// Each channel is passed so that its 16-bit value lands in the middle of
}