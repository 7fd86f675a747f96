import CCairo
import PagedotsCore

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
public final class RasterRenderer {
    /// The last canvas, kept while images keep the same pixel size.
    private var canvas: (surface: OpaquePointer, context: OpaquePointer, width: Int, height: Int)?
    /// Made on the first title, so drawings without text never start Pango or fontconfig.
    private lazy var text = TextLayoutEngine()
    /// The pixels of regions repainted since `forgetRegions()`, by what
    /// decides them: each move between two neighbouring pages of an
    /// animation repaints the same regions, only elsewhere, and a region
    /// found here is copied instead of drawn (docs/gif.md, "Drawing the frames").
    private var regions: [RegionKey: Region] = [:]
    /// The bytes of pixels held in `regions`.
    private var rememberedRegionBytes = 0
    /// The most bytes `regions` holds (1 MiB); past that, regions are drawn but not kept.
    public var rememberedRegionByteLimit = 1 << 20
    /// The pixel that Cairo paints for the last background asked for:
    /// premultiplied, as on its canvas, and straight RGBA (in memory order) with the inks asked for.
    private var backgroundPixel: (color: RGBA, inks: Inks, premultiplied: UInt32, straight: UInt32)?

    public init() {}

    deinit {
        if let canvas {
            cairo_destroy(canvas.context)
            cairo_surface_destroy(canvas.surface)
        }
    }

    /// The drawing at `scale` pixels per point: `round(points × scale)` pixels
    /// a side (half up), antialiased, straight alpha.
    public func render(_ drawing: Drawing, scale: Int) -> RGBAImage {
        let width = Self.pixels(drawing.size.width, scale: scale)
        let height = Self.pixels(drawing.size.height, scale: scale)
        guard width > 0, height > 0, let (surface, context) = canvas(width: width, height: height) else {
            return RGBAImage(width: max(width, 0), height: max(height, 0), pixels: [])
        }
        paint(drawing, scale: scale, on: context)
        cairo_surface_flush(surface)
        let box = (x: 0, y: 0, width: width, height: height)
        let inks = Inks(of: drawing)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            Self.copyStraightRGBA(of: surface, box: box, into: UnsafeMutableRawBufferPointer(output), at: (0, 0), width: width, inks: inks)
            count = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The drawing as `render(_:scale:)` draws it, drawn as
    /// `render(_:scale:over:changed:)` repaints a whole canvas: in regions,
    /// each remembered for later frames or copied when drawn before (an
    /// animation's first frame: a row of dots at rest is one dot drawn and copies).
    public func renderInRegions(_ drawing: Drawing, scale: Int) -> RGBAImage {
        let width = Self.pixels(drawing.size.width, scale: scale)
        let height = Self.pixels(drawing.size.height, scale: scale)
        // Every pixel is written: the background where no region is.
        var image = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
        render(drawing, scale: scale, over: &image, changed: Rect(x: 0, y: 0, width: drawing.size.width, height: drawing.size.height))
        return image
    }

    /// Draws `drawing` over `image`, which holds the drawing before it at
    /// the same scale, repainting only the pixels that `changed` (points,
    /// as `Drawing.changedBounds(since:)` gives it) touches, with a pixel
    /// more on every side for antialiasing; the pixels outside stay as they
    /// are. The pixels repainted come out exactly as `render` draws them:
    /// Cairo draws them on a canvas of their own, moved by whole pixels, not
    /// through a clip (which rounds coverage differently), every item over a
    /// canvas marked as drawn on (see `paint`). Items that cannot reach them are left out, and
    /// items whose pixels cannot meet are drawn apart, each group on a
    /// canvas of its own, or copied when drawn before in the same way
    /// elsewhere. An image of another size is drawn whole. Gives the box of
    /// pixels written (the whole image when drawn whole).
    @discardableResult
    public func render(_ drawing: Drawing, scale: Int, over image: inout RGBAImage, changed: Rect) -> (x: Int, y: Int, width: Int, height: Int) {
        let width = Self.pixels(drawing.size.width, scale: scale)
        let height = Self.pixels(drawing.size.height, scale: scale)
        guard image.width == width, image.height == height, image.pixels.count == width * height * 4,
              let (surface, _) = canvas(width: width, height: height), let data = cairo_image_surface_get_data(surface) else {
            image = render(drawing, scale: scale)
            return (0, 0, image.width, image.height)
        }
        // The box grows to hold every item that reaches into it whole: Cairo
        // rounds the edge of a shape cut by the canvas's edge differently.
        var box = Self.pixelBox(holding: changed, scale: scale, width: width, height: height)
        let bounds = drawing.items.map(\.bounds)
        var drawn = [Bool](repeating: false, count: bounds.count)
        while true {
            let reach = Rect(x: Double(box.x) / Double(scale), y: Double(box.y) / Double(scale),
                             width: Double(box.width) / Double(scale), height: Double(box.height) / Double(scale))
            var grown: Rect?
            for index in bounds.indices where !drawn[index] && bounds[index].map({ $0.meets(reach) }) ?? true {
                drawn[index] = true
                let itemBounds = bounds[index] ?? reach
                grown = grown.map { $0.union(itemBounds) } ?? itemBounds
            }
            // Done when no item more reaches in.
            guard let grown else { break }
            let next = Self.pixelBox(holding: grown, scale: scale, width: width, height: height)
            let right = max(box.x + box.width, next.x + next.width), bottom = max(box.y + box.height, next.y + next.height)
            box = (min(box.x, next.x), min(box.y, next.y), 0, 0)
            box.width = right - box.x
            box.height = bottom - box.y
        }
        guard box.width > 0, box.height > 0 else { return box }
        let isDrawn = drawn
        let groups = Self.groups(of: drawing.items.indices.lazy.filter { isDrawn[$0] }, bounds: bounds, box: box, scale: scale, width: width, height: height)
        // The whole drawing's, as `render` draws it.
        let inks = Inks(of: drawing)
        if groups.count != 1 || groups[0].box != box {
            fill(box, of: &image, with: drawing.background, inks: inks)
        }
        for group in groups {
            repaint(group, of: drawing, bounds: bounds, inks: inks, scale: scale, into: &image, canvas: (surface, data))
        }
        return box
    }

    /// `indices` (items with their `bounds`, all inside `box`) in groups
    /// whose pixel boxes (the pixels their items can touch) share no pixel,
    /// each group's items in their order. A pixel of a group's box is
    /// painted by that group's items alone, so each group can be drawn, or
    /// found remembered, on its own: a row of dots that all move alike is
    /// one dot drawn and copies.
    static func groups(
        of indices: some Sequence<Int>, bounds: [Rect?], box: (x: Int, y: Int, width: Int, height: Int), scale: Int, width: Int, height: Int
    ) -> [(box: (x: Int, y: Int, width: Int, height: Int), items: [Int])] {
        func overlap(_ a: (x: Int, y: Int, width: Int, height: Int), _ b: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
            a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        }
        var groups: [(box: (x: Int, y: Int, width: Int, height: Int), items: [Int])] = []
        for index in indices {
            // An item of unknown bounds may touch the whole box.
            var group = (box: bounds[index].map { pixelBox(holding: $0, scale: scale, width: width, height: height) } ?? box, items: [index])
            // Takes in every group it overlaps, until none does (a group taken in grows the box).
            while let other = groups.firstIndex(where: { overlap($0.box, group.box) }) {
                let taken = groups.remove(at: other)
                let right = max(group.box.x + group.box.width, taken.box.x + taken.box.width)
                let bottom = max(group.box.y + group.box.height, taken.box.y + taken.box.height)
                group.box = (min(group.box.x, taken.box.x), min(group.box.y, taken.box.y), 0, 0)
                group.box.width = right - group.box.x
                group.box.height = bottom - group.box.y
                group.items = (taken.items + group.items).sorted()
            }
            groups.append(group)
        }
        groups.removeAll { $0.box.width <= 0 || $0.box.height <= 0 }
        return groups
    }

    /// Draws the items of `group` (indices into `drawing`'s items, with
    /// their `bounds`, lying inside the group's box whole) on the drawing's
    /// background into the box of `image`, as on a canvas of the box's own,
    /// its translucent pixels in `inks`, or copies the pixels remembered for
    /// the same region drawn before with the same inks, and remembers them.
    ///
    /// The items under the top one are drawn in groups whose pixels cannot
    /// meet (the dots a capsule passes over), and each is remembered too;
    /// one remembered (drawn before, alone or under another item) is copied
    /// onto the canvas instead, in Cairo's premultiplied pixels: the top
    /// item is then drawn over the same pixels as over the group drawn.
    private func repaint(
        _ group: (box: (x: Int, y: Int, width: Int, height: Int), items: [Int]), of drawing: Drawing, bounds: [Rect?], inks: Inks, scale: Int,
        into image: inout RGBAImage, canvas: (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>)
    ) {
        let box = group.box, width = image.width
        let key = regionKey(of: group, in: drawing, inks: inks, scale: scale)
        if let key, let region = regions[key] {
            Self.copy(straightPixels(of: region, as: key, width: box.width, inks: inks), into: &image, at: box)
            return
        }
        drawPart(box: box, canvas: canvas) { part, context in
            cairo_translate(context, Double(-box.x), Double(-box.y))
            clear(part, box: box, to: drawing.background, inks: inks, canvas: canvas)
            var top = group.items[...]
            if key != nil, group.items.count > 1 {
                top = top.suffix(1)
                let under = Self.groups(of: group.items.dropLast(), bounds: bounds, box: box, scale: scale, width: width, height: image.height)
                var drawn: [(box: (x: Int, y: Int, width: Int, height: Int), key: RegionKey)] = []
                for layer in under {
                    let layerKey = regionKey(of: layer, in: drawing, inks: inks, scale: scale)
                    let layerBox = (x: layer.box.x - box.x, y: layer.box.y - box.y, width: layer.box.width, height: layer.box.height)
                    if let layerKey, let region = regions[layerKey] {
                        Self.copyPixels(region.premultiplied, into: canvas, box: layerBox)
                    } else {
                        paint(layer.items.lazy.map { drawing.items[$0] }, scale: scale, on: context)
                        if let layerKey { drawn.append((layerBox, layerKey)) }
                    }
                }
                cairo_surface_flush(part)
                cairo_surface_mark_dirty(part)
                for layer in drawn {
                    remember(Region(straight: nil, premultiplied: Self.premultipliedPixels(of: part, box: layer.box)), as: layer.key)
                }
            }
            paint(top.lazy.map { drawing.items[$0] }, scale: scale, on: context)
            cairo_surface_flush(part)
            let whole = (x: 0, y: 0, width: box.width, height: box.height)
            guard let key else {
                image.pixels.withUnsafeMutableBytes { output in
                    Self.copyStraightRGBA(of: part, box: whole, into: output, at: (box.x, box.y), width: width, inks: inks)
                }
                return
            }
            let premultiplied = Self.premultipliedPixels(of: part, box: whole)
            let straight = Self.straightPixels(of: premultiplied, width: box.width, inks: inks)
            Self.copy(straight, into: &image, at: box)
            remember(Region(straight: straight, premultiplied: premultiplied), as: key)
        }
    }

    /// A region's pixels as drawn: Cairo's premultiplied native-endian
    /// ARGB32 words, as items are drawn over them, and straight RGBA bytes,
    /// as images hold them (made when a frame first copies the region: one
    /// drawn under another item may never be).
    private struct Region {
        var straight: [UInt8]?
        var premultiplied: [UInt32]
    }

    /// `region`'s straight pixels (a region `width` wide in `inks`), made
    /// the first time they are asked for and then remembered with it.
    private func straightPixels(of region: Region, as key: RegionKey, width: Int, inks: Inks) -> [UInt8] {
        if let straight = region.straight { return straight }
        let straight = Self.straightPixels(of: region.premultiplied, width: width, inks: inks)
        remember(Region(straight: straight, premultiplied: region.premultiplied), as: key)
        return straight
    }

    /// Copies a region's `straight` pixels into `box` of `image`.
    private static func copy(_ straight: [UInt8], into image: inout RGBAImage, at box: (x: Int, y: Int, width: Int, height: Int)) {
        let width = image.width
        straight.withUnsafeBytes { region in
            image.pixels.withUnsafeMutableBytes { output in
                copyPixels(from: region, width: box.width, at: (0, 0), into: output, width: width, at: (box.x, box.y), size: (box.width, box.height))
            }
        }
    }

    /// The key of `group`'s items drawn in its box; nil when regions are not remembered.
    private func regionKey(
        of group: (box: (x: Int, y: Int, width: Int, height: Int), items: [Int]), in drawing: Drawing, inks: Inks, scale: Int
    ) -> RegionKey? {
        guard rememberedRegionByteLimit > 0 else { return nil }
        return RegionKey(
            items: group.items.lazy.map { drawing.items[$0] }, background: drawing.background, inks: inks, scale: scale,
            left: group.box.x, top: group.box.y, width: group.box.width, height: group.box.height
        )
    }

    /// Keeps `region` as `key`'s (in place of the one kept before, if any)
    /// while the remembered regions stay within their limit.
    private func remember(_ region: Region, as key: RegionKey) {
        func bytes(_ region: Region?) -> Int {
            guard let region else { return 0 }
            return (region.straight?.count ?? 0) + 4 * region.premultiplied.count
        }
        let added = bytes(region) - bytes(regions[key])
        guard rememberedRegionBytes + added <= rememberedRegionByteLimit else { return }
        rememberedRegionBytes += added
        regions[key] = region
    }

    /// The premultiplied pixels of `box` in the flushed canvas `part`.
    private static func premultipliedPixels(of part: OpaquePointer, box: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
        let count = box.width * box.height
        let stride = Int(cairo_image_surface_get_stride(part))
        let data = UnsafeRawBufferPointer(start: cairo_image_surface_get_data(part), count: stride * (box.y + box.height))
        return [UInt32](unsafeUninitializedCapacity: count) { premultiplied, initialized in
            copyPixels(from: data, width: stride / 4, at: (box.x, box.y), into: UnsafeMutableRawBufferPointer(premultiplied), width: box.width, at: (0, 0), size: (box.width, box.height))
            initialized = count
        }
    }

    /// A region's `premultiplied` pixels (`width` a row) as straight RGBA bytes in `inks`.
    private static func straightPixels(of premultiplied: [UInt32], width: Int, inks: Inks) -> [UInt8] {
        let box = (x: 0, y: 0, width: width, height: premultiplied.count / max(width, 1))
        return [UInt8](unsafeUninitializedCapacity: 4 * premultiplied.count) { straight, initialized in
            premultiplied.withUnsafeBytes { pixels in
                guard let data = pixels.baseAddress else { return }
                copyStraightRGBA(of: data, stride: 4 * width, box: box, into: UnsafeMutableRawBufferPointer(straight), at: (0, 0), width: width, inks: inks)
            }
            initialized = 4 * premultiplied.count
        }
    }

    /// Copies `premultiplied` pixels (a region's) into `box` of the part canvas drawn on `canvas`'s memory.
    private static func copyPixels(
        _ premultiplied: [UInt32], into canvas: (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>), box: (x: Int, y: Int, width: Int, height: Int)
    ) {
        let stride = Int(cairo_image_surface_get_stride(canvas.surface))
        let output = UnsafeMutableRawBufferPointer(start: canvas.data, count: stride * (box.y + box.height))
        premultiplied.withUnsafeBytes { region in
            copyPixels(from: region, width: box.width, at: (0, 0), into: output, width: stride / 4, at: (box.x, box.y), size: (box.width, box.height))
        }
    }

    /// `background` as Cairo paints it, premultiplied, and straight as `inks`
    /// un-premultiply it: found once per colour and inks, on a pixel of the canvas.
    private func pixel(of background: RGBA, inks: Inks, canvas: (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>)) -> (premultiplied: UInt32, straight: UInt32) {
        if let backgroundPixel, backgroundPixel.color == background, backgroundPixel.inks == inks {
            return (backgroundPixel.premultiplied, backgroundPixel.straight)
        }
        var pixel: (premultiplied: UInt32, straight: UInt32) = (0, 0)
        drawPart(box: (0, 0, 1, 1), canvas: canvas) { part, context in
            paint(background: background, on: context)
            cairo_surface_flush(part)
            pixel.premultiplied = UnsafeRawPointer(canvas.data).load(as: UInt32.self)
            withUnsafeMutableBytes(of: &pixel.straight) { Self.copyStraightRGBA(of: part, box: (0, 0, 1, 1), into: $0, at: (0, 0), width: 1, inks: inks) }
        }
        backgroundPixel = (background, inks, pixel.premultiplied, pixel.straight)
        return pixel
    }

    /// Sets every pixel of the part canvas of `box`'s size, drawn on
    /// `canvas`'s memory, to `background` as Cairo paints it (`paint(background:on:)`
    /// does the same, a pixel at a time, on every canvas, through Cairo's
    /// compositor), and marks it as drawn on.
    private func clear(
        _ part: OpaquePointer, box: (x: Int, y: Int, width: Int, height: Int), to background: RGBA, inks: Inks,
        canvas: (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>)
    ) {
        let pixel = pixel(of: background, inks: inks, canvas: canvas).premultiplied
        let stride = Int(cairo_image_surface_get_stride(canvas.surface))
        for y in 0 ..< box.height {
            UnsafeMutableRawPointer(canvas.data + y * stride).bindMemory(to: UInt32.self, capacity: box.width).update(repeating: pixel, count: box.width)
        }
        cairo_surface_mark_dirty(part)
    }

    /// Sets every pixel of `box` in `image` to `background` as Cairo paints
    /// it and `inks` un-premultiply it.
    private func fill(_ box: (x: Int, y: Int, width: Int, height: Int), of image: inout RGBAImage, with background: RGBA, inks: Inks) {
        guard let canvas, let data = cairo_image_surface_get_data(canvas.surface) else { return }
        let pixel = pixel(of: background, inks: inks, canvas: (canvas.surface, data)).straight
        let width = image.width
        image.pixels.withUnsafeMutableBytes { output in
            guard let base = output.baseAddress else { return }
            let words = base.bindMemory(to: UInt32.self, capacity: output.count / 4)
            for y in box.y ..< box.y + box.height {
                (words + y * width + box.x).update(repeating: pixel, count: box.width)
            }
        }
    }

    /// Runs `body` with a Cairo canvas of `box`'s size made of the canvas's
    /// memory (drawn afresh each time anyway), then marks the canvas as drawn
    /// on: a canvas Cairo takes for clear skips painting a transparent
    /// background over it, and a drawing drawn whole next would keep the part's pixels.
    private func drawPart(
        box: (x: Int, y: Int, width: Int, height: Int), canvas: (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>),
        _ body: (_ part: OpaquePointer, _ context: OpaquePointer) -> Void
    ) {
        let stride = cairo_image_surface_get_stride(canvas.surface)
        guard let part = cairo_image_surface_create_for_data(canvas.data, CAIRO_FORMAT_ARGB32, Int32(box.width), Int32(box.height), stride) else { return }
        defer { cairo_surface_destroy(part) }
        defer { cairo_surface_mark_dirty(canvas.surface) }
        guard cairo_surface_status(part) == CAIRO_STATUS_SUCCESS, let context = cairo_create(part) else { return }
        defer { cairo_destroy(context) }
        cairo_set_miter_limit(context, 4)
        body(part, context)
    }

    /// Forgets the regions remembered so far (after an animation).
    public func forgetRegions() {
        regions.removeAll()
        rememberedRegionBytes = 0
    }

    /// The whole pixels holding `rect` (points) at `scale`, a pixel more
    /// each side, within a `width × height` canvas; a rectangle that is not
    /// finite (a broken path) gives the canvas.
    ///
    /// Edges are taken as Cairo places them, to the nearest 1/256 pixel (its
    /// 24.8 fixed point): an edge that sums of decimals leave a hair past a
    /// whole pixel (84.00000000000001 points) is on it, so that a region
    /// drawn again elsewhere gets the same box, and is found remembered.
    static func pixelBox(holding rect: Rect, scale: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        guard [rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite) else { return (0, 0, width, height) }
        func edge(_ points: Double, _ rule: FloatingPointRoundingRule, margin: Double, limit: Int) -> Int {
            let pixels = ((points * Double(scale) * 256).rounded() / 256).rounded(rule) + margin
            return pixels <= 0 ? 0 : pixels >= Double(limit) ? limit : Int(pixels)
        }
        let left = edge(rect.x, .down, margin: -1, limit: width), right = edge(rect.x + rect.width, .up, margin: 1, limit: width)
        let top = edge(rect.y, .down, margin: -1, limit: height), bottom = edge(rect.y + rect.height, .up, margin: 1, limit: height)
        return (left, top, max(0, right - left), max(0, bottom - top))
    }

    /// Paints the background and the items (within the context's clip, if
    /// any), every item over a canvas marked as drawn on.
    private func paint(_ drawing: Drawing, scale: Int, on context: OpaquePointer) {
        paint(background: drawing.background, on: context)
        paint(drawing.items, scale: scale, on: context)
    }

    /// Paints `background` over the canvas (within the context's clip, if
    /// any) and marks the canvas as drawn on.
    private func paint(background: RGBA, on context: OpaquePointer) {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        setColor(background, on: context)
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
    private func paint(_ items: some Sequence<DrawItem>, scale: Int, on context: OpaquePointer) {
        cairo_save(context)
        cairo_scale(context, Double(scale), Double(scale))
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        for item in items { draw(item, on: context) }
        cairo_restore(context)
    }

    /// `round(points × scale)`, half up; 0 for a size that is not a finite positive number.
    static func pixels(_ points: Double, scale: Int) -> Int {
        let pixels = (points * Double(scale)).rounded(.toNearestOrAwayFromZero)
        return pixels.isFinite && pixels > 0 && pixels < Double(Int32.max) ? Int(pixels) : 0
    }

    /// A cleared-state context on a surface of the size asked, reusing the last one when it fits.
    private func canvas(width: Int, height: Int) -> (OpaquePointer, OpaquePointer)? {
        if let canvas, canvas.width == width, canvas.height == height {
            return (canvas.surface, canvas.context)
        }
        if let canvas {
            cairo_destroy(canvas.context)
            cairo_surface_destroy(canvas.surface)
            self.canvas = nil
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        // SVG's default, so that the PNG and the SVG draw the same joins.
        cairo_set_miter_limit(context, 4)
        canvas = (surface, context, width, height)
        return (surface, context)
    }

    private func draw(_ item: DrawItem, on context: OpaquePointer) {
        switch item {
        case .fill(let path, let color):
            CairoPath.set(path, on: context)
            setColor(color, on: context)
            cairo_fill(context)
        case .stroke(let path, let lineWidth, let color):
            CairoPath.set(path, on: context)
            setColor(color, on: context)
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
        setColor(opaque, on: context)
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
    /// the rounded 8-bit step.
    private func setColor(_ color: RGBA, on context: OpaquePointer) {
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

    /// Copies a `size` box of 4-byte pixels from `source` (rows `sourceWidth`
    /// pixels long), its corner at `from`, into `output` (rows `outputWidth`
    /// long) with its corner at `to`. Both must hold the box.
    static func copyPixels(
        from source: UnsafeRawBufferPointer, width sourceWidth: Int, at from: (x: Int, y: Int),
        into output: UnsafeMutableRawBufferPointer, width outputWidth: Int, at to: (x: Int, y: Int), size: (width: Int, height: Int)
    ) {
        guard let input = source.baseAddress, let base = output.baseAddress else { return }
        for row in 0..<size.height {
            base.advanced(by: ((to.y + row) * outputWidth + to.x) * 4)
                .copyMemory(from: input.advanced(by: ((from.y + row) * sourceWidth + from.x) * 4), byteCount: size.width * 4)
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

    /// `copyStraightRGBA(of:box:into:at:width:inks:)` for pixels in memory, rows `stride` bytes apart.
    static func copyStraightRGBA(
        of data: UnsafeRawPointer, stride: Int, box: (x: Int, y: Int, width: Int, height: Int),
        into output: UnsafeMutableRawBufferPointer, at origin: (x: Int, y: Int), width: Int, inks: Inks
    ) {
        guard let base = output.baseAddress, output.count >= (origin.y + box.height) * width * 4 else { return }
        let words = base.bindMemory(to: UInt32.self, capacity: output.count / 4)
        // A clear pixel never takes this path, so the first translucent one is worked out.
        var last: (pixel: UInt32, straight: UInt32) = (0, 0)
        for y in box.y ..< box.y + box.height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            var out = (origin.y + y - box.y) * width + origin.x
            for x in box.x ..< box.x + box.width {
                let pixel = row[x]
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
                words[out] = straight.littleEndian
                out += 1
            }
        }
    }
}

