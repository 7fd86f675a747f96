import CCairo
import Glibc
import PagedotsCore
@testable import PagedotsRender

/// Reading, writing and comparing test images. Until the project's own PNG
/// decoder lands, PNG files are read and written with Cairo.
enum TestImages {
    /// `Tests/PagedotsRenderTests/Goldens`, found from this file's path so that
    /// updating the goldens writes into the source tree.
    static let goldenDirectory: String = {
        let file = #filePath
        let folder = file[..<(file.lastIndex(of: "/") ?? file.endIndex)]
        return folder + "/Goldens"
    }()

    /// Set `PAGEDOTS_UPDATE_GOLDENS=1` to write the goldens instead of comparing with them.
    static var updatingGoldens: Bool {
        getenv("PAGEDOTS_UPDATE_GOLDENS").map { String(cString: $0) == "1" } ?? false
    }

    /// Where images that failed a comparison are left for a look.
    static let failureDirectory = "/tmp/pagedots-test-failures"

    /// The PNG at `path` as straight RGBA, or nil when it cannot be read.
    static func readPNG(_ path: String) -> RGBAImage? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        let format = cairo_image_surface_get_format(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return nil }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        var pixels = RasterRenderer.straightRGBA(of: surface, width: width, height: height)
        if format == CAIRO_FORMAT_RGB24 {
            // An opaque PNG: Cairo leaves the alpha byte undefined.
            for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Writes `image` as a PNG at `path` (premultiplied the way Cairo does, so it reads back unchanged).
    @discardableResult
    static func writePNG(_ image: RGBAImage, to path: String) -> Bool {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)) else { return false }
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return false }
        for y in 0..<image.height {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                let alpha = UInt32(image.pixels[i + 3])
                func premultiplied(_ channel: UInt8) -> UInt32 {
                    let product = alpha * UInt32(channel) + 0x80
                    return (product + (product >> 8)) >> 8
                }
                row[x] = alpha << 24 | premultiplied(image.pixels[i]) << 16
                    | premultiplied(image.pixels[i + 1]) << 8 | premultiplied(image.pixels[i + 2])
            }
        }
        cairo_surface_mark_dirty(surface)
        mkdir(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), 0o755)
        return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
    }

    /// The largest difference between two images of the same size, per
    /// channel: alpha as is, colours premultiplied (the colour of an almost
    /// transparent pixel is noise). nil when the sizes differ.
    static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int? {
        guard a.width == b.width, a.height == b.height, a.pixels.count == b.pixels.count else { return nil }
        var largest = 0
        for pixel in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[pixel + 3]), alphaB = Int(b.pixels[pixel + 3])
            largest = max(largest, abs(alphaA - alphaB))
            for channel in 0..<3 {
                let premultipliedA = Int(a.pixels[pixel + channel]) * alphaA
                let premultipliedB = Int(b.pixels[pixel + channel]) * alphaB
                largest = max(largest, (abs(premultipliedA - premultipliedB) + 127) / 255)
            }
        }
        return largest
    }

    /// The RGBA of the pixel at (`x`, `y`).
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 4])
    }
}

/// A spec with the defaults, then changed by `configure`.
func spec(pages: Int, _ configure: (inout IndicatorSpec) -> Void = { _ in }) -> IndicatorSpec {
    var spec = IndicatorSpec(pages: pages)
    configure(&spec)
    return spec
}
