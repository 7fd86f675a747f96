import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// Every frame of an animated spec's timeline, drawn, with its delay in ms
/// and what it shows: the frames the encoders are given.
func animationFrames(of spec: IndicatorSpec, renderer: RasterRenderer) -> [(image: RGBAImage, delay: Int, moment: Moment)] {
    let timeline = AnimationTimeline(spec: spec)
    return timeline.frames().map { (renderer.render(timeline.drawing(of: $0), scale: spec.scale), $0.delay, $0.moment) }
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
