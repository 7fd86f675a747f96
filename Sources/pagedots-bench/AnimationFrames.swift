import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// `frames QUERY OUTDIR`: every frame of the animation of QUERY (drawn as
/// APNG would draw it) as OUTDIR/frame-NNN.png, and one line per frame on
/// stdout: its number, its delay in ms and what it shows. For looking at
/// moves frame by frame.
func writeAnimationFrames(query: Substring, outputDirectory: String) throws {
    var spec = try parseSpec(query)
    if !spec.format.isAnimated {
        spec = try parseSpec(query + "&format=apng")
    }
    let timeline = AnimationTimeline(spec: spec)
    let renderer = RasterRenderer()
    let encoder = PNGEncoder()
    for (index, frame) in timeline.frames().enumerated() {
        let image = renderer.render(timeline.drawing(of: frame), scale: spec.scale)
        let name = "\(outputDirectory)/frame-" + String(index).leftPadded(to: 3, with: "0") + ".png"
        try writeFile(name, encoder.encode(rgba: image.pixels, width: image.width, height: image.height))
        print(index, frame.delay, frame.moment)
    }
}
