import PagedotsCore

/// The frames of an animated spec's timeline as pixels, drawn when an
/// encoder asks for them: what `ImageMaker` hands the GIF and APNG encoders
/// as `frameAt` (docs/gif.md, "Drawing the frames").
///
/// A frame is drawn over the frame before it, repainting only where their
/// drawings differ (or copying a region drawn before in the same way
/// elsewhere). Asked for a frame further on, it draws the frames between on
/// the way; asked for an earlier one (an encoder's next pass), it starts
/// again from the first. So a frame's pixels are the same whatever the
/// encoder asked before: the passes of one encoding see the same frames.
public final class AnimationFrames {
    /// The canvas, in pixels.
    public let width: Int
    public let height: Int
    /// The timeline's frames, each with its drawing and where it differs from the frame before's.
    public let frames: [(frame: AnimationFrame, drawing: Drawing, changed: Rect)]
    private let scale: Int
    private let renderer: RasterRenderer
    /// The last frame drawn: the encoder's next question is most often about the next one.
    private var last: (index: Int, image: RGBAImage)

    /// The frames of a validated animated spec, drawn by `renderer` (which
    /// remembers regions for them until its `forgetRegions()`).
    public init(spec: IndicatorSpec, renderer: RasterRenderer) {
        frames = AnimationTimeline(spec: spec).drawnFrames()
        scale = spec.scale
        self.renderer = renderer
        let first = renderer.render(frames[0].drawing, scale: scale)
        last = (0, first)
        width = first.width
        height = first.height
    }

    /// How many frames the timeline has.
    public var count: Int { frames.count }

    /// Frame `index`'s straight RGBA pixels (`width × height × 4` bytes)
    /// and how long it shows, in milliseconds.
    public func frame(at index: Int) -> (pixels: [UInt8], delayMilliseconds: Int) {
        if index < last.index {
            last = (0, renderer.render(frames[0].drawing, scale: scale))
        }
        while last.index < index {
            last.index += 1
            let next = frames[last.index]
            renderer.render(next.drawing, scale: scale, over: &last.image, changed: next.changed)
        }
        return (last.image.pixels, frames[index].frame.delay)
    }
}
