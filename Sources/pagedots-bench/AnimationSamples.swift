import PagedotsCore
import PagedotsGIF
import PagedotsPNG
import PagedotsPixels
import PagedotsRender
import PagedotsService

/// `animation-samples URLS OUTDIR`: per animation URL (numbered from 01 in
/// the order given), the files `ImageMaker` makes for it as a GIF
/// (OUTDIR/NN.gif) and as an APNG (OUTDIR/NN.png), whatever format its path
/// names; the frames of its timeline, drawn, their pixels one after the
/// other as OUTDIR/NN.rgba and their delays in ms as OUTDIR/NN.delays (one a
/// line), for checking what a decoder shows; and, unless `stopwatch` is
/// nil, times on one thread: the still PNG of the same parameters (drawn and
/// encoded: the anchor), each animation made whole by `ImageMaker` (every
/// frame drawn as the encoder asks for it, and encoded), and each encoder
/// alone on the frames drawn beforehand.
func benchmarkAnimationSamples(urls: [Substring], outputDirectory: String, stopwatch: Stopwatch?) throws {
    let maker = ImageMaker()
    let renderer = RasterRenderer()
    let gifEncoder = GIFEncoder()
    let apngEncoder = APNGEncoder()
    print("# n  WxH  frames  gif_bytes  apng_bytes  still_us  gif_us  apng_us  gif_encode_us  apng_encode_us  url")
    for (number, url) in urls.enumerated() {
        let gif = try parseSpec(url, format: .gif), apng = try parseSpec(url, format: .apng), still = try parseSpec(url, format: .png)
        let frames = animationFrames(of: gif, renderer: renderer)
        let (width, height) = (frames[0].image.width, frames[0].image.height)
        let name = "\(outputDirectory)/" + String(number + 1).leftPadded(to: 2, with: "0")
        let gifFile = maker.makeImage(for: gif).bytes, apngFile = maker.makeImage(for: apng).bytes
        try writeFile(name + ".gif", gifFile)
        try writeFile(name + ".png", apngFile)
        try writeFile(name + ".rgba", frames.flatMap(\.image.pixels))
        try writeFile(name + ".delays", Array(frames.map { "\($0.delay)\n" }.joined().utf8))
        var times = Array(repeating: "-", count: 5)
        if let stopwatch {
            let matte = (red: gif.matte.red, green: gif.matte.green, blue: gif.matte.blue)
            let held = FrameList(width: width, height: height, count: frames.count) { (frames[$0].image.pixels, frames[$0].delay) }
            times = [
                stopwatch.microsecondsPerCall { maker.makeImage(for: still).bytes.count },
                stopwatch.microsecondsPerCall { maker.makeImage(for: gif).bytes.count },
                stopwatch.microsecondsPerCall { maker.makeImage(for: apng).bytes.count },
                stopwatch.microsecondsPerCall {
                    gifEncoder.encode(held, plays: gif.loop, matte: matte).count
                },
                stopwatch.microsecondsPerCall {
                    apngEncoder.encode(held, plays: apng.loop).count
                },
            ].map { format($0) }
        }
        print(name.suffix(2), "\(width)x\(height)", frames.count, gifFile.count, apngFile.count, times.joined(separator: " "), url)
        flushOutput()
    }
}
