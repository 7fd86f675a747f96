import PagedotsCore
import PagedotsPixels

/// The frames of an animated spec's timeline as pixels, drawn when an
/// encoder asks for them: what `ImageMaker` hands the GIF and APNG encoders
/// (docs/gif.md, "Drawing the frames").
///
/// A frame is drawn over the frame before it, repainting only where their
/// drawings differ (or copying a region drawn before in the same way
/// elsewhere). Asked for a frame further on, it draws the frames between on
/// the way; asked for an earlier one (an encoder's next pass), it starts
/// again from the first. So a frame's pixels are the same whatever the
/// encoder asked before: the passes of one encoding see the same frames.
public final class AnimationFrames: FrameSource {
    /// The canvas, in pixels.
    public let width: Int
    public let height: Int
    /// The timeline's frames, each with where it differs from the frame
    /// before's and, for the first frames, its drawing (`AnimationTimeline.drawnFrames()`).
    public let frames: [(frame: AnimationFrame, drawing: Drawing?, changed: Rect)]
    private let timeline: AnimationTimeline
    private let scale: Int
    private let renderer: RasterRenderer
    /// The last frame drawn (the encoder's next question is most often
    /// about the next one) and the box of pixels that differ from the frame before it.
    private var last: (index: Int, image: RGBAImage, box: PixelRect)
    /// The pixels of the frame before the last, which the encoder has most
    /// likely let go of by now: the next frame is drawn into them, after the
    /// last frame's box is copied over, rather than into a copy of the last
    /// frame's pixels, which the encoder still holds.
    private var spare: (index: Int, pixels: [UInt8])?

    /// The frames of a validated animated spec, drawn by `renderer` (which
    /// remembers regions for them until its budget is reset).
    public init(spec: IndicatorSpec, renderer: RasterRenderer) {
        timeline = AnimationTimeline(spec: spec)
        frames = timeline.drawnFrames()
        scale = spec.scale
        self.renderer = renderer
        // The first frame always has its drawing.
        let first = renderer.renderInRegions(frames[0].drawing ?? timeline.drawing(of: frames[0].frame), scale: scale)
        last = (0, first, PixelRect(x: 0, y: 0, width: first.width, height: first.height))
        width = first.width
        height = first.height
    }

    /// Frame `index`'s drawing: kept by the timeline, or made again.
    public func drawing(at index: Int) -> Drawing {
        frames[index].drawing ?? timeline.drawing(of: frames[index].frame)
    }

    /// How many frames the timeline has.
    public var count: Int { frames.count }

    /// Frame `index`'s straight RGBA pixels (`width × height × 4` bytes)
    /// and how long it shows, in milliseconds.
    public func frame(at index: Int) -> RGBAFrame {
        if index < last.index {
            let first = renderer.renderInRegions(drawing(at: 0), scale: scale)
            last = (0, first, PixelRect(x: 0, y: 0, width: first.width, height: first.height))
            spare = nil
        }
        while last.index < index {
            let before = last.image.pixels
            if var pixels = spare?.pixels, spare?.index == last.index - 1, pixels.count == before.count {
                // Taken out first, so that the copy below writes into it in place.
                spare = nil
                let box = last.box
                before.withUnsafeBytes { before in
                    pixels.withUnsafeMutableBytes { pixels in
                        CairoPixels.copy(
                            from: before, width: width, at: (box.x, box.y), into: pixels, width: width, at: (box.x, box.y), size: (box.width, box.height)
                        )
                    }
                }
                last.image.pixels = pixels
            }
            spare = (last.index, before)
            last.index += 1
            let next = frames[last.index]
            let box = renderer.render(drawing(at: last.index), scale: scale, over: &last.image, changed: next.changed)
            last.box = PixelRect(x: box.x, y: box.y, width: box.width, height: box.height)
        }
        return RGBAFrame(pixels: last.image.pixels, delayMilliseconds: frames[index].frame.delay)
    }

    /// A box of pixels outside which frame `index`'s pixels are frame
    /// `index − 1`'s, as `frame(at: index)` has just given them (the box it
    /// repainted): a hint for an encoder that compares the two. Nil for the
    /// first frame, or when `frame(at: index)` was not the last frame asked for.
    public func changedBox(at index: Int) -> PixelRect? {
        index > 0 && index == last.index ? last.box : nil
    }
}
