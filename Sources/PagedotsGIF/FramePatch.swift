import PagedotsPixels

/// One frame of the GIF as `FrameDiffer` plans it: the rectangle it covers,
/// what is in it, how long it shows and what happens to it afterwards.
struct FramePatch {
    /// What the decoder does with the frame's rectangle before drawing the next frame.
    enum Disposal {
        /// Leave it (GIF disposal method 1, "do not dispose").
        case keep
        /// Clear it to transparent (method 2, "restore to background").
        case clear
    }

    var rect: PixelRect
    var disposal: Disposal
    /// The summed delays of the input frames it stands for.
    var delayMilliseconds: Int
    /// `rect.area` patch pixels, rows top to bottom.
    var pixels: [PatchPixel]
    /// An earlier patch (by number, from 0) that the differ knows to have the
    /// same pixels in a rectangle of the same size, if any.
    var sameAs: Int? = nil
}
