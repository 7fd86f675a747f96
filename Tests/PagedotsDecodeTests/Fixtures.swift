import PagedotsDecode
import TestSupport

/// The upload fixtures (`UploadFixtures`), read and decoded.
enum Fixtures {
    static func bytes(_ name: String) -> [UInt8] {
        UploadFixtures.bytes(name)
    }

    /// Pillow's reading of fixture `name`, from `name.expected.png`, as straight RGBA.
    static func expected(_ name: String) throws -> DecodedPNG {
        try PNGDecoder.decode(bytes(name + ".expected.png"))
    }

    static func probe(_ name: String, limits: ImageSizeLimits = ImageSizeLimits()) throws -> ImageProbe {
        try bytes(name).withUnsafeBytes { try ImageDecoder.probe($0, limits: limits) }
    }

    static func decode(
        _ name: String, limits: ImageSizeLimits = ImageSizeLimits(), atLeast minimum: (width: Int, height: Int)? = nil
    ) throws -> DecodedImage {
        try bytes(name).withUnsafeBytes { try ImageDecoder.decode($0, limits: limits, atLeast: minimum) }
    }
}

/// What the decoders promise when they reduce an image by a whole factor,
/// computed the plain way from the whole image: each factor × factor cell's
/// colour is Σ(c × a) / Σa rounded (black where Σa is 0), its alpha Σa / n
/// rounded, for the n pixels of the cell (fewer at the right and bottom).
func boxReduced(_ image: DecodedImage, by factor: Int) -> DecodedImage {
    let width = (image.width + factor - 1) / factor
    let height = (image.height + factor - 1) / factor
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for cellY in 0..<height {
        for cellX in 0..<width {
            var sums = [0, 0, 0, 0]
            var count = 0
            for y in (cellY * factor)..<min(image.height, (cellY + 1) * factor) {
                for x in (cellX * factor)..<min(image.width, (cellX + 1) * factor) {
                    let pixel = image.pixel(x: x, y: y).map(Int.init)
                    for channel in 0..<3 { sums[channel] += pixel[channel] * pixel[3] }
                    sums[3] += pixel[3]
                    count += 1
                }
            }
            let out = (cellY * width + cellX) * 4
            for channel in 0..<3 { pixels[out + channel] = sums[3] == 0 ? 0 : UInt8((sums[channel] + sums[3] / 2) / sums[3]) }
            pixels[out + 3] = UInt8((sums[3] + count / 2) / count)
        }
    }
    return DecodedImage(width: width, height: height, pixels: pixels)
}

/// `pixels` (straight RGBA) with each colour multiplied by its alpha, as
/// `c × a / 255` rounded: images compared this way may differ in the
/// colours of pixels that are (nearly) transparent, which nobody sees.
func premultiplied(_ pixels: [UInt8]) -> [UInt8] {
    var result = pixels
    for index in stride(from: 0, to: pixels.count, by: 4) {
        let alpha = Int(pixels[index + 3])
        for channel in 0..<3 { result[index + channel] = UInt8((Int(pixels[index + channel]) * alpha + 127) / 255) }
    }
    return result
}

/// The limits the service sets for carousel slides: camera-size photos.
let cameraLimits = ImageSizeLimits(maxSide: 8192, maxPixels: 50_000_000)
