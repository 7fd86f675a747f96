/// Why an image is refused, in one line, without saying which upload it
/// was (the caller says that: `slide 3: not a PNG, JPEG, GIF, WebP, HEIC or AVIF`).
public enum ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes start with the signature of none of the `ImageKind`s.
    case unrecognized
    /// The header gives a size over the limits.
    case tooLarge(width: Int, height: Int, limits: ImageSizeLimits)
    /// An animated GIF with more frames than the limit.
    case tooManyFrames(limit: Int)
    /// An animated GIF whose frames hold more pixels in all than the limit.
    case tooManyAnimationPixels(limit: Int)
    /// The library refused the data (corrupt, truncated, or a variant it
    /// cannot read); `reason` is its message.
    case corrupt(ImageKind, reason: String)

    /// Whether the image is not in a format that can be read at all (an HTTP
    /// `415`), rather than a readable format with bad contents or size (`400`).
    public var isUnsupportedFormat: Bool { self == .unrecognized }

    public var description: String {
        switch self {
        case .unrecognized:
            "not a \(ImageKind.allNames)"
        case .tooLarge(let width, let height, let limits):
            "\(width) × \(height) pixels is too large: at most \(limits.maxSide) a side and \(grouped(limits.maxPixels)) in all; scale it down"
        case .tooManyFrames(let limit):
            "more than \(grouped(limit)) frames: use fewer"
        case .tooManyAnimationPixels(let limit):
            "its frames hold more than \(grouped(limit)) pixels in all: use fewer or smaller frames"
        case .corrupt(let kind, let reason):
            "corrupt, truncated or unsupported \(kind.name) (\(reason))"
        }
    }
}

/// `16777216` as `16,777,216`.
func grouped(_ number: Int) -> String {
    var digits = String(number)
    var index = digits.count - 3
    while index > 0 {
        digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
        index -= 3
    }
    return digits
}
