import Glibc
import PagedotsCore
import PagedotsPNG
import PagedotsRender
import TestSupport

/// Reading, writing and comparing test images: PNG files are read with the
/// tests' own decoder and written with the project's encoder, both exact.
enum TestImages {
    /// `Tests/PagedotsRenderTests/Goldens`, found from this file's path so that
    /// updating the goldens writes into the source tree.
    static let goldenDirectory: String = {
        sourceFolder(of: #filePath) + "/Goldens"
    }()

    /// Set `PAGEDOTS_UPDATE_GOLDENS=1` to write the goldens instead of comparing with them.
    static var updatingGoldens: Bool {
        getenv("PAGEDOTS_UPDATE_GOLDENS").map { String(cString: $0) == "1" } ?? false
    }

    /// Where images that failed a comparison are left for a look.
    static let failureDirectory = "/tmp/pagedots-test-failures"

    /// The PNG at `path` as straight RGBA, or nil when it cannot be read.
    static func readPNG(_ path: String) -> RGBAImage? {
        guard let bytes = readFile(path), let decoded = try? PNGDecoder.decode(bytes) else { return nil }
        return RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.rgba)
    }

    /// The bytes of the file at `path`, or nil when it cannot be opened.
    static func readFile(_ path: String) -> [UInt8]? {
        readFileBytes(path)
    }

    /// Writes `image` as a PNG at `path`, creating its folder if need be;
    /// false for an image with no pixels, which no PNG holds.
    @discardableResult
    static func writePNG(_ image: RGBAImage, to path: String) -> Bool {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else { return false }
        let png = PNGEncoder().encode(rgba: image.pixels, width: image.width, height: image.height)
        mkdir(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), 0o755)
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return fwrite(png, 1, png.count, file) == png.count
    }

    /// The largest difference between two images of the same size, per
    /// channel: alpha as is, colours premultiplied (the colour of an almost
    /// transparent pixel is noise). nil when the sizes differ.
    static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int? {
        channelDifferences(a, b)?.max() ?? 0
    }

    /// The mean of every channel's difference between two images of one size
    /// (premultiplied, as `largestDifference`); nil when the sizes differ.
    static func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double? {
        channelDifferences(a, b).map { differences in
            differences.isEmpty ? 0 : Double(differences.reduce(0, +)) / Double(differences.count)
        }
    }

    /// Each channel's difference, alpha as it is and colours premultiplied
    /// (so that a transparent pixel's colour does not count); nil when the sizes differ.
    private static func channelDifferences(_ a: RGBAImage, _ b: RGBAImage) -> [Int]? {
        guard a.width == b.width, a.height == b.height, a.pixels.count == b.pixels.count else { return nil }
        var differences: [Int] = []
        differences.reserveCapacity(a.pixels.count)
        for pixel in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[pixel + 3]), alphaB = Int(b.pixels[pixel + 3])
            differences.append(abs(alphaA - alphaB))
            for channel in 0..<3 {
                let premultipliedA = Int(a.pixels[pixel + channel]) * alphaA
                let premultipliedB = Int(b.pixels[pixel + channel]) * alphaB
                differences.append((abs(premultipliedA - premultipliedB) + 127) / 255)
            }
        }
        return differences
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
