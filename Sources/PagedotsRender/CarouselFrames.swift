import CCairo
import PagedotsCore
import PagedotsPixels

/// Where a carousel's pictures come from: each decoded only when a frame
/// needs it (docs/carousel.md, "Drawing"), or refused with a `Failure`.
public struct CarouselPictures<Failure: Error> {
    /// Each slide's size as its header gives it.
    public var slideSizes: [(width: Int, height: Int)]
    /// Slide `index`'s pixels, decoded at least `minimum` in size where its
    /// format can be decoded smaller (every format but GIF: `ImageDecoder.decode`); throws when it cannot be read.
    public var slide: (_ index: Int, _ minimum: (width: Int, height: Int)) throws(Failure) -> RGBAImage
    /// Frame `index` of a carousel GIF made elsewhere, as browsers show it.
    public var sourceFrame: (_ index: Int) throws(Failure) -> RGBAImage

    public init(
        slideSizes: [(width: Int, height: Int)], slide: @escaping (Int, (width: Int, height: Int)) throws(Failure) -> RGBAImage,
        sourceFrame: @escaping (Int) throws(Failure) -> RGBAImage
    ) {
        self.slideSizes = slideSizes
        self.slide = slide
        self.sourceFrame = sourceFrame
    }
}

/// The frames of a carousel's timeline as pixels, composed when an encoder
/// asks for them, as `AnimationFrames` does for an indicator: the slides
/// (each scaled once to the carousel's size with Cairo's good filter, at
/// most two held at a time), the slides' change (a cross-fade, or a push in
/// the reading direction), the backdrop, and the indicator drawn by the
/// `RasterRenderer`. A frame whose slides are those of the frame before is
/// composed only inside the indicator's box, which is then its changed box.
/// The canvas holds the frame composed last; each frame's pixels are read
/// from it whole into an array of the caller's, so that no copy of a frame
/// is kept between frames (a carousel at the limits is 9 MiB a frame). A
/// picture that cannot be read fails the frame that first needs it.
public final class CarouselFrames<Failure: Error>: FrameSource {
    public let width: Int
    public let height: Int
    public let frames: [(frame: CarouselFrame, indicatorChanged: Bool)]

    private let spec: CarouselSpec
    private let layout: CarouselLayout
    private let renderer: RasterRenderer
    private let pictures: CarouselPictures<Failure>
    private let surface: OpaquePointer
    private let context: OpaquePointer
    /// The scaled slides (or the carousel GIF's frame) held, the latest last: at most two.
    private var held: [(view: SlideView, surface: OpaquePointer)] = []
    /// The last frame composed, and the box it was composed in.
    private var last: (index: Int, box: PixelRect)?

    /// The frames of a validated carousel laid out by `layout`.
    public init(spec: CarouselSpec, layout: CarouselLayout, renderer: RasterRenderer, pictures: CarouselPictures<Failure>) {
        self.spec = spec
        self.layout = layout
        self.renderer = renderer
        self.pictures = pictures
        width = layout.width
        height = layout.height
        frames = CarouselTimeline(spec: spec).drawnFrames()
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(layout.width), Int32(layout.height))
        context = cairo_create(surface)
    }

    deinit {
        for picture in held { cairo_surface_destroy(picture.surface) }
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    public var count: Int { frames.count }

    /// Frame `index`'s straight RGBA pixels (`width × height × 4` bytes) and
    /// how long it shows; throws when a picture it shows cannot be read.
    public func frame(at index: Int) throws(Failure) -> RGBAFrame {
        var box = PixelRect(x: 0, y: 0, width: width, height: height)
        if let last, last.index == index - 1, frames[index].frame.slides == frames[last.index].frame.slides {
            box = frames[index].indicatorChanged ? layout.indicator : .empty
        }
        // Forgotten first: a failure leaves the canvas half composed.
        last = nil
        if !box.isEmpty {
            try compose(frames[index].frame, inside: box)
            cairo_surface_flush(surface)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            CairoPixels.copyStraightRGBA(
                of: surface, box: (0, 0, width, height), into: UnsafeMutableRawBufferPointer(output), at: (0, 0), width: width, inks: .none
            )
            initialized = output.count
        }
        last = (index, box)
        return RGBAFrame(pixels: pixels, delayMilliseconds: frames[index].frame.delay)
    }

    /// A box outside which frame `index` equals frame `index − 1`, when
    /// `frame(at: index)` was the last frame asked for (nil otherwise, and for the first).
    public func changedBox(at index: Int) -> PixelRect? {
        guard index > 0, let last, last.index == index else { return nil }
        return last.box
    }

    /// Paints `frame` on the canvas inside `box`.
    private func compose(_ frame: CarouselFrame, inside box: PixelRect) throws(Failure) {
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_rectangle(context, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        cairo_clip(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(context, 0, 0, 0, 0)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        if let band = layout.band {
            let indicator = spec.indicator
            fill(band, with: indicator.background.alpha > 0 ? indicator.background : indicator.matte)
        }
        try paintSlides(frame.slides)
        if spec.composition.place == .over, spec.composition.backdrop.alpha > 0 {
            let capsule = layout.indicator
            let radius = Double(min(capsule.width, capsule.height)) / 2
            let (x, y, w, h) = (Double(capsule.x), Double(capsule.y), Double(capsule.width), Double(capsule.height))
            cairo_new_path(context)
            cairo_arc(context, x + w - radius, y + radius, radius, -Double.pi / 2, 0)
            cairo_arc(context, x + w - radius, y + h - radius, radius, 0, Double.pi / 2)
            cairo_arc(context, x + radius, y + h - radius, radius, Double.pi / 2, Double.pi)
            cairo_arc(context, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(context)
            setColor(spec.composition.backdrop)
            cairo_fill(context)
        }
        let drawing = IndicatorLayout.drawing(for: spec.indicator, at: frame.indicator)
        let image = renderer.render(drawing, scale: layout.scale)
        let indicator = Self.premultipliedSurface(of: image)
        defer { cairo_surface_destroy(indicator) }
        cairo_set_source_surface(context, indicator, Double(layout.indicator.x), Double(layout.indicator.y))
        cairo_paint(context)
    }

    /// Paints what `view` shows of the slides into the slides' box.
    private func paintSlides(_ view: SlideView) throws(Failure) {
        let area = layout.slides
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_rectangle(context, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
        cairo_clip(context)
        switch view {
        case .slide, .sourceFrame:
            paint(try picture(view), at: (0, 0))
        case .change(let from, let to, let progress):
            let leaving = try picture(.slide(from))
            let coming = try picture(.slide(to))
            if spec.composition.change == .push {
                let direction = spec.indicator.direction
                let extent = direction.isVertical ? area.height : area.width
                let offset = Int((progress * Double(extent)).rounded())
                // The next slide comes in from the side the reading goes to.
                let sign = direction == .ltr || direction == .ttb ? -1 : 1
                let shift = { (distance: Int) in direction.isVertical ? (0, distance) : (distance, 0) }
                paint(leaving, at: shift(sign * offset))
                paint(coming, at: shift(sign * offset - sign * extent))
            } else {
                paint(leaving, at: (0, 0))
                paint(coming, at: (0, 0), alpha: progress)
            }
        }
    }

    /// Paints a slide-sized picture with its corner `offset` from the slides' box's.
    private func paint(_ picture: OpaquePointer, at offset: (Int, Int), alpha: Double = 1) {
        cairo_set_source_surface(context, picture, Double(layout.slides.x + offset.0), Double(layout.slides.y + offset.1))
        if alpha < 1 { cairo_paint_with_alpha(context, alpha) } else { cairo_paint(context) }
    }

    /// The slide (or source frame) `view` shows, scaled to the slides' box:
    /// held, or decoded and scaled now, the oldest held let go of first
    /// (a change asks for the slide leaving, then the one coming); throws
    /// when it cannot be read. Only the decoded picture's surface is kept
    /// while it is scaled, not its pixels too.
    private func picture(_ view: SlideView) throws(Failure) -> OpaquePointer {
        if let found = held.first(where: { $0.view == view }) { return found.surface }
        if held.count == 2 { cairo_surface_destroy(held.removeFirst().surface) }
        let image: RGBAImage
        switch view {
        case .slide(let index):
            image = try pictures.slide(index, minimumSize(of: pictures.slideSizes[index]))
        case .sourceFrame(let index):
            image = try pictures.sourceFrame(index)
        case .change:
            preconditionFailure("a change shows two pictures, each asked for as a slide")
        }
        let scaled = scaledToSlides((Self.premultipliedSurface(of: image), image.width, image.height))
        held.append((view, scaled))
        return scaled
    }

    /// The size a slide of `size` must at least be decoded at so that it is only ever scaled down.
    private func minimumSize(of size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let factor = scaleFactor(for: size)
        return (Int((Double(size.width) * factor).rounded(.up)), Int((Double(size.height) * factor).rounded(.up)))
    }

    /// How much `fit` scales a picture of `size` to the slides' box.
    private func scaleFactor(for size: (width: Int, height: Int)) -> Double {
        let across = Double(layout.slides.width) / Double(max(size.width, 1))
        let down = Double(layout.slides.height) / Double(max(size.height, 1))
        return spec.composition.fit == .cover ? max(across, down) : min(across, down)
    }

    /// A picture's premultiplied surface scaled once to the slides' box by
    /// `fit` (centred; on `matte` with `contain`); takes the picture's surface.
    private func scaledToSlides(_ image: (surface: OpaquePointer, width: Int, height: Int)) -> OpaquePointer {
        let source = image.surface
        let (width, height) = (layout.slides.width, layout.slides.height)
        if image.width == width, image.height == height { return source }
        defer { cairo_surface_destroy(source) }
        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let context = cairo_create(target)!
        defer { cairo_destroy(context) }
        if spec.composition.fit == .contain {
            let matte = spec.indicator.matte
            cairo_set_source_rgb(context, Double(matte.red) / 255, Double(matte.green) / 255, Double(matte.blue) / 255)
            cairo_paint(context)
        }
        let factor = scaleFactor(for: (image.width, image.height))
        cairo_translate(context, (Double(width) - Double(image.width) * factor) / 2, (Double(height) - Double(image.height) * factor) / 2)
        cairo_scale(context, factor, factor)
        cairo_set_source_surface(context, source, 0, 0)
        let pattern = cairo_get_source(context)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_rectangle(context, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(context)
        cairo_surface_flush(target)
        return target
    }

    private func fill(_ box: PixelRect, with color: RGBA) {
        cairo_rectangle(context, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        setColor(color)
        cairo_fill(context)
    }

    private func setColor(_ color: RGBA) {
        cairo_set_source_rgba(context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, Double(color.alpha) / 255)
    }

    /// A Cairo surface holding `image`'s straight RGBA pixels, premultiplied.
    static func premultipliedSurface(of image: RGBAImage) -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(image.width, 1)), Int32(max(image.height, 1)))!
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface), image.width > 0 {
            image.pixels.withUnsafeBytes { pixels in
                for y in 0..<image.height {
                    // Cairo's rows are bytes, not words: stored through raw memory.
                    let row = UnsafeMutableRawPointer(data + y * stride)
                    var input = y * image.width * 4
                    for x in 0..<image.width {
                        let alpha = UInt32(pixels[input + 3])
                        func channel(_ offset: Int) -> UInt32 { (UInt32(pixels[input + offset]) * alpha + 127) / 255 }
                        row.storeBytes(of: alpha << 24 | channel(0) << 16 | channel(1) << 8 | channel(2), toByteOffset: x * 4, as: UInt32.self)
                        input += 4
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}

extension Inks {
    /// No inks: every translucent pixel is divided by its alpha.
    static let none = Inks(of: Drawing(size: Size(width: 0, height: 0), background: .transparent, items: []))
}

extension CarouselLayout {
    /// The opaque colours that cover most of the indicator's box (its band
    /// included) in `pixels`, a frame of this layout (the first), most
    /// pixels first, each on at least 64 pixels, at most `limit` (a
    /// photograph under the indicator gives few such colours; each one kept
    /// costs its palettes an entry): the flat colours of the band and the
    /// dots, for the GIF encoder to keep exact (`QuantizerSettings.keeping`).
    public func indicatorColors(in pixels: [UInt8], atMost limit: Int) -> [UInt32] {
        var counts: [UInt32: Int] = [:]
        for box in protectedBoxes {
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX where pixels[(y * width + x) * 4 + 3] == 255 {
                    let offset = (y * width + x) * 4
                    counts[UInt32(pixels[offset]) | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2]) << 16, default: 0] += 1
                }
            }
        }
        return counts.filter { $0.value >= 64 }.sorted { ($0.value, $0.key) > ($1.value, $1.key) }.prefix(limit).map(\.key)
    }

    /// The indicator's box and its band: what a lighter GIF never makes lossy.
    public var protectedBoxes: [PixelRect] {
        [indicator, band ?? .empty].filter { !$0.isEmpty }
    }
}
