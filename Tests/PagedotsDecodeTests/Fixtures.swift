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
