/// The largest image drawn (docs/parameters.md, "Limits"); the limits themselves are
/// allowed. PNGs are measured in pixels, SVGs in points.
public enum ImageLimits {
    /// The most pixels (points for SVG) on either side.
    public static let maxSide = 4096
    /// The most pixels (points for SVG) in all.
    public static let maxArea = 4_194_304
    /// The most frames an animation writes.
    public static let maxFrames = 2000
    /// The most pixels over all of an animation's frames (width × height × frames).
    public static let maxAnimationArea = 33_554_432

    /// Refuses a canvas of `points` whose image would be over the limits, with
    /// a `ParameterError` about the pseudo-parameter `image` that gives the
    /// size it would have and, unless it is already used, suggests `style=scroll`.
    static func check(_ points: Size, scale: Int, format: ImageFormat, style: Style) throws(ParameterError) {
        let (width, height) = pixels(points, scale: scale)
        let side = Double(maxSide)
        guard width > side || height > side || width * height > Double(maxArea) else { return }
        let unit = format == .svg ? "points" : "pixels"
        let hint = style == .scroll ? "" : " (for a long row, try style=scroll)"
        throw ParameterError(
            "image",
            must: "be at most \(maxSide) \(unit) on a side and \(grouped(maxArea)) \(unit) in all",
            got: "\(DecimalText.format(width))x\(DecimalText.format(height)) \(unit)\(hint)"
        )
    }

    /// Refuses an animation of `frames` frames (as written, after merging) on
    /// a canvas of `points` (already within `check`'s limits) that has too
    /// many frames or pixels over all of them, with a `ParameterError` about
    /// `image` that says what to lower.
    static func checkAnimation(frames: Int, of points: Size, scale: Int) throws(ParameterError) {
        let (width, height) = pixels(points, scale: scale)
        guard frames > maxFrames || width * height * Double(frames) > Double(maxAnimationArea) else { return }
        throw ParameterError(
            "image",
            must: "be at most \(maxFrames) frames and \(grouped(maxAnimationArea)) pixels over all frames",
            got: "\(frames) frames of \(DecimalText.format(width))x\(DecimalText.format(height)) pixels "
                + "(lower fps, transition, pages or scale, or use effect=none)"
        )
    }

    /// `round(points × scale)`, half up, as the renderer sizes its canvas;
    /// kept in `Double` so that nothing overflows.
    static func pixels(_ points: Size, scale: Int) -> (width: Double, height: Double) {
        ((points.width * Double(scale)).rounded(.toNearestOrAwayFromZero),
         (points.height * Double(scale)).rounded(.toNearestOrAwayFromZero))
    }

    /// `4194304` as `4,194,304`.
    public static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        for index in stride(from: digits.count - 3, to: 0, by: -3) {
            digits.insert(",", at: index)
        }
        return String(digits)
    }
}
