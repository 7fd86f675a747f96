import CCairo
import PagedotsCore

/// Repainting an animation frame over the frame before: only the pixels
/// that changed, in regions drawn apart, each found in the region cache
/// when drawn before elsewhere.
extension RasterRenderer {
    /// The drawing as `render(_:scale:)` draws it, drawn as
    /// `render(_:scale:over:changed:)` repaints a whole canvas: in regions,
    /// each remembered for later frames or copied when drawn before (an
    /// animation's first frame: a row of dots at rest is one dot drawn and copies).
    public func renderInRegions(_ drawing: Drawing, scale: Int) -> RGBAImage {
        let width = Self.pixels(drawing.size.width, scale: Double(scale))
        let height = Self.pixels(drawing.size.height, scale: Double(scale))
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
        let width = Self.pixels(drawing.size.width, scale: Double(scale))
        let height = Self.pixels(drawing.size.height, scale: Double(scale))
        guard image.width == width, image.height == height, image.pixels.count == width * height * 4,
              let canvas = canvas(width: width, height: height) else {
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
            fill(box, of: &image, with: drawing.background, inks: inks, canvas: canvas)
        }
        for group in groups {
            repaint(group, of: drawing, bounds: bounds, inks: inks, scale: scale, into: &image, canvas: canvas)
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
    private func repaint(
        _ group: (box: (x: Int, y: Int, width: Int, height: Int), items: [Int]), of drawing: Drawing, bounds: [Rect?], inks: Inks, scale: Int,
        into image: inout RGBAImage, canvas: CairoCanvas
    ) {
        let box = group.box, width = image.width
        let key = regionKey(of: group, in: drawing, inks: inks, scale: scale)
        if let key, let region = regions[key] {
            CairoPixels.copy(regions.straightPixels(of: region, as: key, width: box.width, inks: inks), into: &image, at: box)
            return
        }
        canvas.drawPart(box: box) { part, context in
            cairo_translate(context, Double(-box.x), Double(-box.y))
            canvas.clear(part, size: (box.width, box.height), to: pixel(of: drawing.background, inks: inks, canvas: canvas).premultiplied)
            var top = group.items[...]
            if key != nil, group.items.count > 1 {
                top = top.suffix(1)
                let under = Self.groups(of: group.items.dropLast(), bounds: bounds, box: box, scale: scale, width: width, height: image.height)
                var drawn: [(box: (x: Int, y: Int, width: Int, height: Int), key: RegionKey)] = []
                for layer in under {
                    let layerKey = regionKey(of: layer, in: drawing, inks: inks, scale: scale)
                    let layerBox = (x: layer.box.x - box.x, y: layer.box.y - box.y, width: layer.box.width, height: layer.box.height)
                    if let layerKey, let region = regions[layerKey] {
                        CairoPixels.copy(region.premultiplied, into: canvas.data, stride: canvas.stride, box: layerBox)
                    } else {
                        paint(layer.items.lazy.map { drawing.items[$0] }, scale: Double(scale), on: context)
                        if let layerKey { drawn.append((layerBox, layerKey)) }
                    }
                }
                cairo_surface_flush(part)
                cairo_surface_mark_dirty(part)
                for layer in drawn {
                    regions.remember(RegionCache.Region(straight: nil, premultiplied: CairoPixels.premultipliedPixels(of: part, box: layer.box)), as: layer.key)
                }
            }
            paint(top.lazy.map { drawing.items[$0] }, scale: Double(scale), on: context)
            cairo_surface_flush(part)
            let whole = (x: 0, y: 0, width: box.width, height: box.height)
            guard let key else {
                image.pixels.withUnsafeMutableBytes { output in
                    CairoPixels.copyStraightRGBA(of: part, box: whole, into: output, at: (box.x, box.y), width: width, inks: inks)
                }
                return
            }
            let premultiplied = CairoPixels.premultipliedPixels(of: part, box: whole)
            let straight = CairoPixels.straightPixels(of: premultiplied, width: box.width, inks: inks)
            CairoPixels.copy(straight, into: &image, at: box)
            regions.remember(RegionCache.Region(straight: straight, premultiplied: premultiplied), as: key)
        }
    }

    /// A region's pixels as drawn: Cairo's premultiplied native-endian
    /// ARGB32 words, as items are drawn over them, and straight RGBA bytes,

    /// The key of `group`'s items drawn in its box; nil when regions are not kept.
    private func regionKey(
        of group: (box: (x: Int, y: Int, width: Int, height: Int), items: [Int]), in drawing: Drawing, inks: Inks, scale: Int
    ) -> RegionKey? {
        guard regions.isKeeping else { return nil }
        return RegionKey(
            items: group.items.lazy.map { drawing.items[$0] }, background: drawing.background, inks: inks, scale: scale,
            left: group.box.x, top: group.box.y, width: group.box.width, height: group.box.height
        )
    }

    /// `background` as Cairo paints it, premultiplied, and straight as `inks`
    /// un-premultiply it: found once per colour and inks, on a pixel of the canvas.
    private func pixel(of background: RGBA, inks: Inks, canvas: CairoCanvas) -> (premultiplied: UInt32, straight: UInt32) {
        if let backgroundPixel, backgroundPixel.color == background, backgroundPixel.inks == inks {
            return (backgroundPixel.premultiplied, backgroundPixel.straight)
        }
        var pixel: (premultiplied: UInt32, straight: UInt32) = (0, 0)
        canvas.drawPart(box: (0, 0, 1, 1)) { part, context in
            paint(background: background, on: context)
            cairo_surface_flush(part)
            pixel.premultiplied = UnsafeRawPointer(canvas.data).load(as: UInt32.self)
            withUnsafeMutableBytes(of: &pixel.straight) { CairoPixels.copyStraightRGBA(of: part, box: (0, 0, 1, 1), into: $0, at: (0, 0), width: 1, inks: inks) }
        }
        backgroundPixel = (background, inks, pixel.premultiplied, pixel.straight)
        return pixel
    }

    /// Sets every pixel of `box` in `image` to `background` as Cairo paints
    /// it and `inks` un-premultiply it.
    private func fill(_ box: (x: Int, y: Int, width: Int, height: Int), of image: inout RGBAImage, with background: RGBA, inks: Inks, canvas: CairoCanvas) {
        let pixel = pixel(of: background, inks: inks, canvas: canvas).straight
        let width = image.width
        image.pixels.withUnsafeMutableBytes { output in
            guard let base = output.baseAddress else { return }
            for y in box.y ..< box.y + box.height {
                CairoPixels.fill(base + 4 * (y * width + box.x), with: pixel, count: box.width)
            }
        }
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
}
