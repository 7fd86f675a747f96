import CImageQuant
import Glibc
import PagedotsPixels

/// How the encoder makes frames smaller than exact: how libimagequant
/// quantises a frame of more than 256 colours, and whether the LZW data of
/// every image is compressed lossily. `.flat` and `.photographic` are
/// lossless but for their quantising; the levers (`lossy(_:)`,
/// `protecting(_:)`, `limitingColors(to:)`) trade look for bytes, for a
/// carousel that must fit a budget.
public struct QuantizerSettings: Hashable, Sendable {
    /// Floyd–Steinberg dithering, 0 (none) to 1.
    var dithering: Float
    /// libimagequant's speed/quality trade-off, 1 (slowest) to 10; 4 is its default.
    var speed: Int32
    /// The most entries a quantised frame's palette gets (2…256), its
    /// transparent entry included.
    var maxColors: Int32
    /// The colours asked to stay exact (`keeping(exactly:)`), of which the
    /// first quarter of `maxColors` do.
    private var colorsToKeep: [UInt32] = []
    /// The lossy LZW level (gifsicle's `--lossy` scale), 0 for lossless:
    /// see `lossy(_:)`.
    private(set) var loss = 0
    /// Canvas rectangles whose pixels are never written lossily.
    private(set) var protectedRects: [PixelRect] = []

    /// Colours (24-bit RGB, red in the low byte) that every quantised
    /// frame's palette holds exactly, within `maxColors`: see `keeping(exactly:)`.
    var exactColors: [UInt32] { Array(colorsToKeep.prefix(Int(maxColors) / 4)) }

    /// These settings with `colors` (24-bit RGB, red in the low byte) in
    /// every quantised frame's palette exactly, at most a quarter of the
    /// palette (the first ones given). A carousel keeps its indicator's
    /// flat colours so: otherwise a frame that changes a photograph and the
    /// indicator at once gives both the photograph's dithered palette, the
    /// band where the indicator moved comes out a cream smear, and that
    /// smear stays for the whole dwell (the next frame's input, being exact,
    /// does not differ there).
    public func keeping(exactly colors: [UInt32]) -> QuantizerSettings {
        var settings = self
        settings.colorsToKeep = colors
        return settings
    }

    /// These settings with every image's LZW data compressed lossily at
    /// `loss`, on gifsicle's `--lossy` scale: a pixel may be written as a
    /// neighbouring string's colour while its squared RGB error, with the
    /// error carried along the string, stays within 10 × `loss`, as gifsicle
    /// 1.93's `--lossy=loss` accepts it (so `loss` 40 means about what
    /// `gifsicle --lossy=40` does); every pixel then decodes within
    /// (7/3)·(√(10 × `loss`) + 1) of its colour (`LossyMatching`). Kept pixels,
    /// transparent ones and those in `protecting(_:)`'s rectangles are
    /// never changed. What lossy frames leave on screen stays approximate
    /// until a later frame redraws it. 0 (the default) is lossless;
    /// `loss` is clamped to 0…1,000.
    public func lossy(_ loss: Int) -> QuantizerSettings {
        var settings = self
        settings.loss = min(max(loss, 0), 1000)
        return settings
    }

    /// These settings with the pixels inside `rects` (canvas coordinates:
    /// a carousel's indicator box and its band) never written lossily.
    public func protecting(_ rects: [PixelRect]) -> QuantizerSettings {
        var settings = self
        settings.protectedRects = rects.filter { !$0.isEmpty }
        return settings
    }

    /// These settings with at most `count` entries (clamped to 2…256, the
    /// transparent one included) in a quantised frame's palette: 256 for
    /// `.flat`, 64 for `.photographic`. Frames that draw at most 256
    /// colours are not quantised and keep their exact colours whatever the
    /// limit. A quantised frame has one palette for all its pixels, the
    /// protected rectangles' included: there the colours that
    /// `keeping(exactly:)` names stay exact (a quarter of `count` of them
    /// at most), but other colours (the antialiased edges of dots, in a
    /// frame that redraws a photograph and the indicator together) take
    /// the nearest of the fewer entries.
    public func limitingColors(to count: Int) -> QuantizerSettings {
        var settings = self
        settings.maxColors = Int32(min(max(count, 2), ColorTable.paletteCapacity))
        return settings
    }

    /// Indicator art (flat colour, antialiased edges): a full palette,
    /// undithered, since dithering noise costs LZW bytes and flat colour
    /// needs none.
    public static let flat = QuantizerSettings(dithering: 0, speed: 4, maxColors: Int32(ColorTable.paletteCapacity))

    /// Photographs (carousel slides): 64 colours, half-dithered, so that
    /// skies do not band and the file stays small; undithered, smooth tones
    /// (a coffee's crema) show contours. Most of the time goes to the
    /// dithered remapping, whatever the speed. (docs/carousel.md, "Output",
    /// has the measures behind this choice.)
    public static let photographic = QuantizerSettings(dithering: 0.5, speed: 4, maxColors: 64)
}

/// Picks at most 256 colours for a frame that draws more, with
/// libimagequant, and maps the frame's pixels to them as `QuantizerSettings`
/// say. The same pixels always give the same palette and indices.
struct ColorQuantizer {

    /// A quantised frame: palette colours (24-bit RGB), one index per pixel,
    /// and the index that stands for transparent and kept pixels, if any.
    struct Result {
        var colors: [UInt32]
        var indices: [UInt8]
        var transparentIndex: Int?
    }

    /// A palette entry: its colour (24-bit RGB) and whether it is opaque.
    typealias Entry = (rgb: UInt32, opaque: Bool)

    /// A failure that tests make libimagequant meet, to see the quantiser
    /// fall back (the encoder asks for none).
    enum Fault {
        /// Every allocation refused: its attributes cannot be made.
        case memory
        /// The image's allocations refused: the image cannot be made.
        case imageMemory
        /// A least quality it cannot reach: quantising fails (`LIQ_QUALITY_TOO_LOW`).
        case quality
    }

    /// Quantises a frame's patch pixels: the pixels it must draw get their
    /// nearest palette colour; the others (transparent, or kept on screen)
    /// get the transparent index. Should libimagequant fail (`fault` makes
    /// it), the palette is an even grid of colours (`gridPalette`).
    static func quantize(_ pixels: [PatchPixel], width: Int, height: Int, settings: QuantizerSettings = .flat, fault: Fault? = nil) -> Result {
        var indices = [UInt8](repeating: 0, count: pixels.count)
        var palette = libimagequant(pixels, width: width, height: height, settings: settings, fault: fault, into: &indices)
            ?? gridPalette(pixels, settings: settings, into: &indices)
        var transparentIndex = palette.firstIndex { !$0.opaque }
        if transparentIndex == nil && pixels.contains(where: { !$0.mustDraw }) {
            // Not seen from libimagequant; an entry is made (the last one's
            // pixels then find their nearest other colour below).
            if palette.count == ColorTable.paletteCapacity {
                palette.removeLast()
            }
            palette.append((0, false))
            transparentIndex = palette.count - 1
        }
        // Transparent and kept pixels get the transparent entry, drawn pixels
        // an opaque one (libimagequant weighs alpha heavily: this only guards).
        for (index, pixel) in pixels.enumerated() {
            let entry = Int(indices[index])
            if !pixel.mustDraw, let transparentIndex {
                indices[index] = UInt8(transparentIndex)
            } else if pixel.mustDraw && (entry >= palette.count || !palette[entry].opaque) {
                indices[index] = UInt8(nearestOpaque(to: pixel.rgb, in: palette))
            }
        }
        return Result(colors: palette.map(\.rgb), indices: indices, transparentIndex: transparentIndex)
    }

    /// libimagequant's palette for `pixels`, and its index for each pixel in
    /// `indices`; nil if it fails. A frame of more than `rowAtATimeArea`
    /// pixels is first tried a row at a time (`RowAtATime`), and if that
    /// fails, again as libimagequant would by itself.
    private static func libimagequant(
        _ pixels: [PatchPixel], width: Int, height: Int, settings: QuantizerSettings, fault: Fault?, into indices: inout [UInt8]
    ) -> [Entry]? {
        if width * height > rowAtATimeArea, RowAtATime.isKnown,
           let palette = QuantizerMemory.during(refusingFloatCopyOf: width * height, fault: fault, {
               libimagequantTry(pixels, width: width, height: height, settings: settings, fault: fault, into: &indices)
           }) {
            return palette
        }
        return QuantizerMemory.during(refusingFloatCopyOf: nil, fault: fault) {
            libimagequantTry(pixels, width: width, height: height, settings: settings, fault: fault, into: &indices)
        }
    }

    /// One try of libimagequant (see `libimagequant`), inside
    /// `QuantizerMemory.during`: nil when an object cannot be made or a call
    /// fails. The image is made with attributes of its own, whose allocator
    /// (`imageAllocate`) is the one that refuses the float copy.
    private static func libimagequantTry(
        _ pixels: [PatchPixel], width: Int, height: Int, settings: QuantizerSettings, fault: Fault?, into indices: inout [UInt8]
    ) -> [Entry]? {
        // libimagequant's palette depends on how many OpenMP threads share
        // its sums: one thread makes it the same on every machine.
        omp_set_num_threads(1)
        guard let attributes = liq_attr_create_with_allocator(quantizerAllocate, quantizerFree) else { return nil }
        defer { liq_attr_destroy(attributes) }
        guard let imageAttributes = liq_attr_create_with_allocator(imageAllocate, quantizerFree) else { return nil }
        defer { liq_attr_destroy(imageAttributes) }
        for each in [attributes, imageAttributes] {
            // Both are in range: 2…256 colours, speed 1…10.
            liq_set_max_colors(each, settings.maxColors)
            liq_set_speed(each, settings.speed)
        }
        if fault == .quality {
            liq_set_quality(attributes, 100, 100)
        }
        // libimagequant reads the pixels a row at a time as RGBA (those not
        // drawn transparent black), so no RGBA copy of the frame is made.
        return pixels.withUnsafeBufferPointer { patch -> [Entry]? in
            guard let base = patch.baseAddress,
                  let image = liq_image_create_custom(imageAttributes, patchRow, UnsafeMutableRawPointer(mutating: base), Int32(width), Int32(height), 0) else {
                return nil
            }
            defer { liq_image_destroy(image) }
            for rgb in settings.exactColors {
                let color = liq_color(
                    r: UInt8(truncatingIfNeeded: rgb), g: UInt8(truncatingIfNeeded: rgb >> 8), b: UInt8(truncatingIfNeeded: rgb >> 16), a: 255
                )
                guard liq_image_add_fixed_color(image, color) == LIQ_OK else { return nil }
            }
            var result: OpaquePointer?
            guard liq_image_quantize(image, attributes, &result) == LIQ_OK, let result else { return nil }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, settings.dithering)
            let written = indices.withUnsafeMutableBytes { out in
                out.baseAddress.map { liq_write_remapped_image(result, image, $0, out.count) } ?? LIQ_BUFFER_TOO_SMALL
            }
            guard written == LIQ_OK, let entries = liq_get_palette(result) else { return nil }
            let count = min(Int(entries.pointee.count), ColorTable.paletteCapacity)
            return withUnsafeBytes(of: entries.pointee.entries) { raw in
                (0..<count).map { index in
                    let color = raw.load(fromByteOffset: index * MemoryLayout<liq_color>.stride, as: liq_color.self)
                    return (UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16, color.a >= 128)
                }
            }
        }
    }

    /// A palette made without libimagequant: the colours to keep exactly,
    /// then an even grid of as many levels per channel as fit in the rest
    /// (an entry left for the transparent one); each drawn pixel gets its
    /// exact colour's entry or its nearest grid colour.
    private static func gridPalette(_ pixels: [PatchPixel], settings: QuantizerSettings, into indices: inout [UInt8]) -> [Entry] {
        let exact = settings.exactColors
        let room = Int(settings.maxColors) - exact.count - 1
        var levels = 1
        while (levels + 1) * (levels + 1) * (levels + 1) <= room {
            levels += 1
        }
        let values = (0..<levels).map { levels == 1 ? 128 : UInt32($0 * 255 / (levels - 1)) }
        var palette: [Entry] = exact.map { ($0, true) }
        for blue in values {
            for green in values {
                for red in values {
                    palette.append((red | green << 8 | blue << 16, true))
                }
            }
        }
        var exactIndices: [UInt32: UInt8] = [:]
        for (index, rgb) in exact.enumerated() where exactIndices[rgb] == nil {
            exactIndices[rgb] = UInt8(index)
        }
        /// The grid level nearest to a channel's value.
        func level(_ value: UInt32) -> Int {
            levels == 1 ? 0 : (Int(value) * (levels - 1) + 127) / 255
        }
        for (position, pixel) in pixels.enumerated() where pixel.mustDraw {
            let rgb = pixel.rgb
            indices[position] = exactIndices[rgb]
                ?? UInt8(exact.count + (level(rgb >> 16 & 0xFF) * levels + level(rgb >> 8 & 0xFF)) * levels + level(rgb & 0xFF))
        }
        return palette
    }

    /// The opaque palette entry nearest to `rgb` (squared distance), 0 when none is opaque.
    private static func nearestOpaque(to rgb: UInt32, in palette: [Entry]) -> Int {
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            (0..<3).reduce(0) { sum, channel in
                let d = Int(a >> (8 * channel) & 0xFF) - Int(b >> (8 * channel) & 0xFF)
                return sum + d * d
            }
        }
        return palette.indices.filter { palette[$0].opaque }.min { distance(palette[$0].rgb, rgb) < distance(palette[$1].rgb, rgb) } ?? 0
    }
}

/// Frames of more pixels than this are quantised a row at a time: libimagequant
/// is refused its float copy of the frame (16 bytes a pixel, 36 MiB for a
/// carousel of 1536 × 1536), and converts each row when it reads it, as it
/// does by itself above 4,194,304 pixels. That path computes its contrast
/// maps from the row it is on alone, so such frames' palettes and dithering
/// differ a little from a smaller frame's (carousels draw such frames; an
/// indicator's is rarely this large, and seldom of more than 256 colours).
let rowAtATimeArea = 1 << 20

/// What the row-at-a-time path relies on in libimagequant, read in the
/// source of 2.17.0 (`liq_version()` 21600, as 2.16's; 2.18.0, 21800, is the
/// same there): an image allocates through the allocator of the attributes
/// it was made with (`img->malloc`); its float copy is the one allocation
/// of `16 × width × height` bytes among them (`liq_image_get_row_f_init`;
/// the others are a row or a byte a pixel, with one OpenMP thread), and when
/// it is refused, the image converts rows into a buffer of one row
/// (`liq_image_use_low_memory`). Other versions are not refused anything.
enum RowAtATime {
    static let isKnown = (21600...21800).contains(liq_version())
}

/// The memory libimagequant takes in one try of `ColorQuantizer` on this
/// thread. Every block is recorded until it is freed, and what is left
/// when the try ends is freed then: libimagequant 2.17's row-at-a-time
/// path drops a row buffer each time a pass starts over the rows (4 MiB
/// over a carousel at the limits, otherwise for good). And the size of the
/// image's float copy, if it is to be refused (`RowAtATime`).
///
/// Nothing else is refused: libimagequant 2.17 checks the allocations of
/// its attributes, of an image and of the float copy, but uses many others
/// (its colour search's pools, `liq_write_remapped_image`'s row list)
/// without looking. A `malloc` that fails there is answered as `malloc`
/// answered, as with libimagequant's own allocator.
private final class QuantizerMemory {
    let refusedImageSize: Int?
    /// What a test makes fail, if anything (`.memory`, `.imageMemory`).
    let fault: ColorQuantizer.Fault?
    var blocks = Set<UnsafeMutableRawPointer>()

    private init(refusedImageSize: Int?, fault: ColorQuantizer.Fault?) {
        self.refusedImageSize = refusedImageSize
        self.fault = fault
    }

    /// A thread-specific key, if one could be made: without it nothing is
    /// refused or recorded, and libimagequant uses `malloc` as it comes.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// The try's memory on this thread, if a try is under way.
    static var current: QuantizerMemory? {
        key.flatMap { pthread_getspecific($0) }.map { Unmanaged<QuantizerMemory>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` (which creates and destroys every libimagequant object it
    /// uses) with the image's allocator refusing the float copy of `area`
    /// pixels, if given, and the allocations that `fault` says, then frees
    /// what it leaked.
    static func during<Result>(refusingFloatCopyOf area: Int?, fault: ColorQuantizer.Fault?, _ body: () -> Result) -> Result {
        let memory = QuantizerMemory(refusedImageSize: area.map { $0 * 4 * MemoryLayout<Float>.size }, fault: fault)
        if let key {
            pthread_setspecific(key, Unmanaged.passUnretained(memory).toOpaque())
        }
        defer {
            if let key {
                pthread_setspecific(key, nil)
            }
            memory.blocks.forEach { free($0) }
        }
        return withExtendedLifetime(memory) { body() }
    }

    /// A block of `size` bytes, recorded; nil when it is refused or `malloc` fails.
    func allocate(_ size: Int, forImage: Bool) -> UnsafeMutableRawPointer? {
        let refused = fault == .memory || (forImage && (fault == .imageMemory || size == refusedImageSize))
        guard !refused, let block = malloc(size) else { return nil }
        blocks.insert(block)
        return block
    }
}

/// libimagequant's allocator for everything but the image: `malloc`,
/// recorded in the try's `QuantizerMemory`.
private func quantizerAllocate(_ size: Int) -> UnsafeMutableRawPointer? {
    guard let memory = QuantizerMemory.current else { return malloc(size) }
    return memory.allocate(size, forImage: false)
}

/// The image's allocator: as `quantizerAllocate`, but refusing the image's
/// float copy when the try says to, whereupon libimagequant converts rows
/// as it reads them (`RowAtATime`).
private func imageAllocate(_ size: Int) -> UnsafeMutableRawPointer? {
    guard let memory = QuantizerMemory.current else { return malloc(size) }
    return memory.allocate(size, forImage: true)
}

/// libimagequant's `free`, which forgets the block.
private func quantizerFree(_ block: UnsafeMutableRawPointer?) {
    if let block {
        QuantizerMemory.current?.blocks.remove(block)
    }
    free(block)
}

/// libimagequant's row callback: row `row` of a patch (`user_info`, its
/// `width` pixels a row) as RGBA, the pixels not drawn transparent black.
private func patchRow(_ output: UnsafeMutablePointer<liq_color>?, _ row: Int32, _ width: Int32, _ patch: UnsafeMutableRawPointer?) {
    guard let output, let patch = patch?.assumingMemoryBound(to: PatchPixel.self) else { return }
    let start = Int(row) * Int(width)
    for x in 0..<Int(width) {
        let pixel = patch[start + x]
        output[x] = pixel.mustDraw
            ? liq_color(r: UInt8(truncatingIfNeeded: pixel), g: UInt8(truncatingIfNeeded: pixel >> 8), b: UInt8(truncatingIfNeeded: pixel >> 16), a: 255)
            : liq_color(r: 0, g: 0, b: 0, a: 0)
    }
}
