import CImageQuant
import Glibc

/// How libimagequant quantises a frame of more than 256 colours.
public struct QuantizerSettings: Hashable, Sendable {
    /// Floyd–Steinberg dithering, 0 (none) to 1.
    var dithering: Float
    /// libimagequant's speed/quality trade-off, 1 (slowest) to 10; 4 is its default.
    var speed: Int32
    /// The most colours a frame's palette gets.
    var maxColors: Int32
    /// Colours (24-bit RGB, red in the low byte) that every palette holds
    /// exactly, within `maxColors`: see `keeping(exactly:)`.
    var exactColors: [UInt32] = []

    /// These settings with `colors` (24-bit RGB, red in the low byte) in
    /// every palette exactly. A carousel keeps its indicator's flat colours
    /// so: otherwise a frame that changes a photograph and the indicator
    /// at once gives both the photograph's dithered palette, the band
    /// where the indicator moved comes out a cream smear, and that smear
    /// stays for the whole dwell (the next frame's input, being exact,
    /// does not differ there).
    public func keeping(exactly colors: [UInt32]) -> QuantizerSettings {
        var settings = self
        settings.exactColors = Array(colors.prefix(Int(maxColors) / 4))
        return settings
    }

    /// Indicator art (flat colour, antialiased edges): a full palette,
    /// undithered, since dithering noise costs LZW bytes and flat colour
    /// needs none.
    public static let flat = QuantizerSettings(dithering: 0, speed: 4, maxColors: Int32(ColorTable.paletteCapacity))

    /// Photographs (carousel slides): 64 colours, half-dithered, so that
    /// skies do not band and the file stays small. Five 1200 × 600 photos
    /// (docs/carousel.md) with cuts: 1,760,291 bytes and an SSIM of
    /// 0.88–0.98 on the rest frames against the exact frames, where 256
    /// colours fully dithered took 2,848,826 bytes (SSIM 0.95–0.99) and
    /// ffmpeg's two passes then `gifsicle -O3` 2,195,900 (SSIM 0.77–0.96).
    /// Undithered, three of them cut took 22 % fewer bytes and scored a
    /// higher SSIM, but smooth tones (the coffee's crema) show contours,
    /// which SSIM does not see. Most of the time goes to the dithered
    /// remapping, whatever the speed.
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

    /// Quantises a frame's patch pixels: the pixels it must draw get their
    /// nearest palette colour; the others (transparent, or kept on screen)
    /// get the transparent index.
    static func quantize(_ pixels: [PatchPixel], width: Int, height: Int, settings: QuantizerSettings = .flat) -> Result {
        var indices = [UInt8](repeating: 0, count: pixels.count)
        // The float copy is 4 floats a pixel.
        let refused = width * height > rowAtATimeArea ? width * height * 4 * MemoryLayout<Float>.size : nil
        var palette = QuantizerMemory.during(refusing: refused) {
            libimagequant(pixels, width: width, height: height, settings: settings, into: &indices)
        }
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

    /// libimagequant's palette for `pixels` (RGB, and whether opaque), and
    /// its index for each pixel in `indices`.
    private static func libimagequant(
        _ pixels: [PatchPixel], width: Int, height: Int, settings: QuantizerSettings, into indices: inout [UInt8]
    ) -> [(rgb: UInt32, opaque: Bool)] {
        // libimagequant's palette depends on how many OpenMP threads share
        // its sums: one thread makes it the same on every machine.
        omp_set_num_threads(1)
        guard let attributes = liq_attr_create_with_allocator(quantizerAllocate, quantizerFree) else {
            preconditionFailure("libimagequant liq_attr_create_with_allocator failed")
        }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, settings.maxColors)
        liq_set_speed(attributes, settings.speed)
        var palette: [(rgb: UInt32, opaque: Bool)] = []
        // libimagequant reads the pixels a row at a time as RGBA (those not
        // drawn transparent black), so no RGBA copy of the frame is made.
        pixels.withUnsafeBufferPointer { patch in
            guard let base = patch.baseAddress,
                  let image = liq_image_create_custom(attributes, patchRow, UnsafeMutableRawPointer(mutating: base), Int32(width), Int32(height), 0) else {
                preconditionFailure("libimagequant liq_image_create_custom failed for \(width)×\(height)")
            }
            defer { liq_image_destroy(image) }
            for rgb in settings.exactColors {
                let color = liq_color(
                    r: UInt8(truncatingIfNeeded: rgb), g: UInt8(truncatingIfNeeded: rgb >> 8), b: UInt8(truncatingIfNeeded: rgb >> 16), a: 255
                )
                liq_image_add_fixed_color(image, color)
            }
            var result: OpaquePointer?
            let status = liq_image_quantize(image, attributes, &result)
            guard status == LIQ_OK, let result else { preconditionFailure("libimagequant liq_image_quantize failed with \(status)") }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, settings.dithering)
            let written = indices.withUnsafeMutableBytes { out in
                out.baseAddress.map { liq_write_remapped_image(result, image, $0, out.count) } ?? LIQ_BUFFER_TOO_SMALL
            }
            precondition(written == LIQ_OK, "libimagequant liq_write_remapped_image failed with \(written)")
            if let entries = liq_get_palette(result) {
                let count = Int(entries.pointee.count)
                withUnsafeBytes(of: entries.pointee.entries) { raw in
                    for index in 0..<count {
                        let color = raw.load(fromByteOffset: index * MemoryLayout<liq_color>.stride, as: liq_color.self)
                        palette.append((UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16, color.a >= 128))
                    }
                }
            }
        }
        return palette
    }

    /// The opaque palette entry nearest to `rgb` (squared distance), 0 when none is opaque.
    private static func nearestOpaque(to rgb: UInt32, in palette: [(rgb: UInt32, opaque: Bool)]) -> Int {
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            (0..<3).reduce(0) { sum, channel in
                let d = Int(a >> (8 * channel) & 0xFF) - Int(b >> (8 * channel) & 0xFF)
                return sum + d * d
            }
        }
        return palette.indices.filter { palette[$0].opaque }.min { distance(palette[$0].rgb, rgb) < distance(palette[$1].rgb, rgb) } ?? 0
    }
}

/// Frames of more pixels than this are handed to libimagequant's row-at-a-time
/// path: its float copy of the frame (16 bytes a pixel, 36 MiB for a carousel
/// of 1536 × 1536) is refused, and it converts each row when it reads it, as
/// it does by itself above 4,194,304 pixels. That path computes its contrast
/// maps from the row it is on alone, so such frames' palettes and dithering
/// differ a little from a smaller frame's (carousels draw such frames; an
/// indicator's is rarely this large, and seldom of more than 256 colours).
let rowAtATimeArea = 1 << 20

/// The memory libimagequant takes in one `ColorQuantizer.quantize` call on
/// this thread. Every block is recorded until it is freed, and what is left
/// when the call ends is freed then: libimagequant 2.17's row-at-a-time
/// path drops a row buffer each time a pass starts over the rows (4 MiB
/// over a carousel at the limits, otherwise for good). And the one
/// allocation it must not get (its float copy of a frame over
/// `rowAtATimeArea`), if any.
private final class QuantizerMemory {
    let refusedSize: Int?
    var blocks = Set<UnsafeMutableRawPointer>()

    private init(refusedSize: Int?) {
        self.refusedSize = refusedSize
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// The call's memory on this thread, if a call is under way.
    static var current: QuantizerMemory? {
        pthread_getspecific(key).map { Unmanaged<QuantizerMemory>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` (which creates and destroys every libimagequant object it
    /// uses) with libimagequant refused `refusing` bytes, then frees what it leaked.
    static func during<Result>(refusing size: Int?, _ body: () -> Result) -> Result {
        let memory = QuantizerMemory(refusedSize: size)
        pthread_setspecific(key, Unmanaged.passUnretained(memory).toOpaque())
        defer {
            pthread_setspecific(key, nil)
            memory.blocks.forEach { free($0) }
        }
        return withExtendedLifetime(memory) { body() }
    }
}

/// libimagequant's allocator: `malloc`, recorded in the call's
/// `QuantizerMemory`, except that it refuses the size that says to refuse,
/// whereupon libimagequant converts rows as it reads them.
private func quantizerAllocate(_ size: Int) -> UnsafeMutableRawPointer? {
    guard let memory = QuantizerMemory.current else { return malloc(size) }
    guard size != memory.refusedSize, let block = malloc(size) else { return nil }
    memory.blocks.insert(block)
    return block
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
