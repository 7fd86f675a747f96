import PagedotsCore
import PagedotsGIF
import PagedotsPNG
import PagedotsRender

/// `gif-samples OUTDIR`: writes every `GIFSample` as OUTDIR/NN-name.gif and
/// times, per sample, the still PNG of its first frame (render + encode, the
/// anchor), the whole animation drawn and encoded (every frame rendered as
/// the encoder asks for it), and the encoding alone (frames rendered before).
/// With `filter`, only the samples whose names contain it.
func benchmarkGIFSamples(outputDirectory: String, only filter: String?, stopwatch: Stopwatch) throws {
    let renderer = RasterRenderer()
    let pngEncoder = PNGEncoder()
    let encoder = GIFEncoder()
    print("# n  name  WxH  input_frames  gif_bytes  png_us  anim_us  anim/png  encode_us  encode_us_per_frame")
    for (number, sample) in GIFSample.all.enumerated() where filter.map(sample.name.contains) ?? true {
        let first = renderer.render(sample.draw(sample.frames[0].step), scale: sample.scale)
        let images = sample.frames.map { renderer.render(sample.draw($0.step), scale: sample.scale) }
        let matte = (red: sample.matte.red, green: sample.matte.green, blue: sample.matte.blue)
        func encode(_ frameAt: (Int) -> (pixels: [UInt8], delayMilliseconds: Int)) -> [UInt8] {
            encoder.encode(width: first.width, height: first.height, plays: 0, matte: matte, frameCount: sample.frames.count, frameAt: frameAt)
        }
        let gif = encode { (images[$0].pixels, sample.frames[$0].delay) }
        let name = String(number + 1).leftPadded(to: 2, with: "0") + "-" + sample.name
        try writeFile("\(outputDirectory)/\(name).gif", gif)

        let stillTime = stopwatch.microsecondsPerCall {
            pngEncoder.encode(rgba: renderer.render(sample.draw(sample.frames[0].step), scale: sample.scale).pixels, width: first.width, height: first.height).count
        }
        let animationTime = stopwatch.microsecondsPerCall {
            encode { (renderer.render(sample.draw(sample.frames[$0].step), scale: sample.scale).pixels, sample.frames[$0].delay) }.count
        }
        let encodeTime = stopwatch.microsecondsPerCall {
            encode { (images[$0].pixels, sample.frames[$0].delay) }.count
        }
        print(name, sample.name, "\(first.width)x\(first.height)", sample.frames.count, gif.count, format(stillTime), format(animationTime),
              format(animationTime / stillTime), format(encodeTime), format(encodeTime / Double(sample.frames.count)))
        flushOutput()
    }
}
