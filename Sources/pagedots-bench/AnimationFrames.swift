import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// Every frame of an animated spec's timeline with its delay in ms and what
/// it shows, drawn as `ImageMaker` draws them for the encoders (`AnimationFrames`:
/// each over the one before, repainted where the two drawings differ;
/// docs/gif.md, "Drawing the frames").
func animationFrames(of spec: IndicatorSpec, renderer: RasterRenderer) -> [(image: RGBAImage, delay: Int, moment: Moment)] {
    defer { renderer.budget.reset() }
    let frames = AnimationFrames(spec: spec, renderer: renderer)
    return frames.frames.indices.map { index in
        let frame = frames.frame(at: index)
        return (RGBAImage(width: frames.width, height: frames.height, pixels: frame.pixels), frame.delayMilliseconds, frames.frames[index].frame.moment)
    }
}

/// `draw QUERY…`: µs per animation for drawing its frames alone, as
/// `ImageMaker` draws them for an encoder that asks for each once, in order
/// (the timeline, its drawings, the pixels; no encoding), and for making its
/// timeline and drawings alone. The part of `render`'s time that is not the encoders'.
func benchmarkDrawing(queries: [Substring], stopwatch: Stopwatch) throws {
    let renderer = RasterRenderer()
    print("# WxH  frames  draw_us  timeline_us  query")
    for query in queries {
        var spec = try parseSpec(query)
        if !spec.format.isAnimated {
            spec = try parseSpec(query, format: .apng)
        }
        let sample = AnimationFrames(spec: spec, renderer: renderer)
        renderer.budget.reset()
        let draw = stopwatch.microsecondsPerCall {
            defer { renderer.budget.reset() }
            let frames = AnimationFrames(spec: spec, renderer: renderer)
            return (0..<frames.count).reduce(0) { $0 &+ frames.frame(at: $1).pixels.count }
        }
        let timeline = stopwatch.microsecondsPerCall { AnimationTimeline(spec: spec).drawnFrames().count }
        print("\(sample.width)x\(sample.height)", sample.count, format(draw), format(timeline), query)
        flushOutput()
    }
}

/// `frames QUERY OUTDIR`: every frame of the animation of QUERY (drawn as
/// APNG would draw it) as OUTDIR/frame-NNN.png, and one line per frame on
/// stdout: its number, its delay in ms and what it shows. For looking at
/// moves frame by frame.
func writeAnimationFrames(query: Substring, outputDirectory: String) throws {
    var spec = try parseSpec(query)
    if !spec.format.isAnimated {
        spec = try parseSpec(query, format: .apng)
    }
    let encoder = PNGEncoder()
    for (index, frame) in animationFrames(of: spec, renderer: RasterRenderer()).enumerated() {
        let name = "\(outputDirectory)/frame-" + String(index).leftPadded(to: 3, with: "0") + ".png"
        try writeFile(name, encoder.encode(rgba: frame.image.pixels, width: frame.image.width, height: frame.image.height))
        print(index, frame.delay, frame.moment)
    }
}
