import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// Every frame of an animated spec's timeline with its delay in ms and what
/// it shows, drawn as `ImageMaker` draws them for the encoders: each over
/// the one before, repainted where the two drawings differ (which can round
/// a few edge pixels one level off a whole drawing; docs/gif.md, "Drawing
/// the frames").
func animationFrames(of spec: IndicatorSpec, renderer: RasterRenderer) -> [(image: RGBAImage, delay: Int, moment: Moment)] {
    var previous: (drawing: Drawing, image: RGBAImage)?
    return AnimationTimeline(spec: spec).drawnFrames().map { frame, drawing in
        var image = previous?.image ?? renderer.render(drawing, scale: spec.scale)
        if let previous, let changed = drawing.changedBounds(since: previous.drawing) {
            renderer.render(drawing, scale: spec.scale, over: &image, changed: changed)
        }
        previous = (drawing, image)
        return (image, frame.delay, frame.moment)
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
