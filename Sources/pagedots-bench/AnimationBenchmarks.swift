import PagedotsCore
import PagedotsPNG
import PagedotsRender

/// `apng-samples OUTDIR`: per sample animation (AnimationSample.all), the
/// APNG file as OUTDIR/NAME.png, the input frames' pixels one after the
/// other as OUTDIR/NAME.rgba and their delays in ms as OUTDIR/NAME.delays
/// (one a line), and times on one thread: the encoder alone
/// on frames drawn beforehand, drawing alone (every frame once), drawing as
/// the encoder asks for frames plus encoding, and the anchor, one still PNG
/// of the first frame (drawn and encoded).
func benchmarkAnimations(outputDirectory: String, stopwatch: Stopwatch) throws {
    let renderer = RasterRenderer()
    let encoder = APNGEncoder()
    let stillEncoder = PNGEncoder()
    print("# name  WxH  frames_in  frames_out  bytes  encode_us  draw_us  draw_encode_us  still_us  encode_us_per_frame  draw_encode/still")
    for sample in AnimationSample.all {
        let images = sample.frames.map { renderer.render($0.drawing, scale: sample.scale) }
        let (width, height) = (images[0].width, images[0].height)
        let file = encoder.encode(width: width, height: height, plays: 0, frameCount: images.count) { (images[$0].pixels, sample.frames[$0].milliseconds) }
        try writeFile("\(outputDirectory)/\(sample.name).png", file)
        try writeFile("\(outputDirectory)/\(sample.name).rgba", images.flatMap(\.pixels))
        try writeFile("\(outputDirectory)/\(sample.name).delays", Array(sample.frames.map { "\($0.milliseconds)\n" }.joined().utf8))
        let encodeTime = stopwatch.microsecondsPerCall {
            encoder.encode(width: width, height: height, plays: 0, frameCount: images.count) { (images[$0].pixels, sample.frames[$0].milliseconds) }.count
        }
        let drawTime = stopwatch.microsecondsPerCall {
            sample.frames.reduce(0) { $0 + renderer.render($1.drawing, scale: sample.scale).pixels.count }
        }
        let wholeTime = stopwatch.microsecondsPerCall {
            encoder.encode(width: width, height: height, plays: 0, frameCount: images.count) {
                (renderer.render(sample.frames[$0].drawing, scale: sample.scale).pixels, sample.frames[$0].milliseconds)
            }.count
        }
        let stillTime = stopwatch.microsecondsPerCall {
            stillEncoder.encode(rgba: renderer.render(sample.frames[0].drawing, scale: sample.scale).pixels, width: width, height: height).count
        }
        let written = animationFrameCount(file)
        print(
            sample.name, "\(width)x\(height)", images.count, written, file.count, format(encodeTime), format(drawTime), format(wholeTime),
            format(stillTime), format(encodeTime / Double(max(1, written))), format(wholeTime / stillTime)
        )
        flushOutput()
    }
}

/// acTL's frame count (0 when the file has no acTL).
func animationFrameCount(_ png: [UInt8]) -> Int {
    var offset = 8
    while offset + 12 <= png.count {
        let length = png[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
        if png[offset + 4 ..< offset + 8].elementsEqual("acTL".utf8), length >= 4 {
            return png[offset + 8 ..< offset + 12].reduce(0) { $0 << 8 | Int($1) }
        }
        offset += 12 + length
    }
    return 0
}
