import PagedotsCore

/// What a new image costs its client in miss tokens (docs/operating.md,
/// "Fair use"), known before it is drawn: a still image one; an animation
/// (or a carousel) one per started 1,048,576 pixel-frames it writes.
enum FairUseCost {
    /// Pixel-frames (width × height × frames) one token pays for.
    static let pixelFramesPerToken = 1_048_576

    /// The tokens of an animation of `frames` frames (as written) of `width` × `height` pixels: at least one.
    static func tokens(width: Int, height: Int, frames: Int) -> Int {
        tokens(pixelFrames: width * height * frames)
    }

    /// The tokens of a validated image request.
    static func tokens(for request: IndicatorRequest) -> Int {
        request.spec.format.isAnimated ? tokens(pixelFrames: request.pixelFrames) : 1
    }

    private static func tokens(pixelFrames: Int) -> Int {
        max(1, (pixelFrames + pixelFramesPerToken - 1) / pixelFramesPerToken)
    }
}
