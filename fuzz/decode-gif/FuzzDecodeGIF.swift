// libFuzzer harness for the GIF decoder (giflib): compiled with
// Sources/PagedotsDecode/*.swift as one module (see scripts/fuzz). Input: a
// file. Besides the checks of every decoder (fuzz/decoders.swift), the
// animation's scan and its playback must agree: when both succeed, the same
// frames, each played on a canvas of the screen's size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkDecoders(bytes)
    guard let animation = try? GIFAnimation(scanning: bytes, limits: fuzzImageLimits) else { return 0 }
    var played: [GIFFrameInfo] = []
    do {
        let player = try GIFFramePlayer(bytes, limits: fuzzImageLimits)
        while let frame = try player.next() {
            precondition(frame.image.width == animation.width && frame.image.height == animation.height, "a frame off the screen's size")
            played.append(frame.info)
        }
        precondition(player.loopCount == animation.loopCount, "the loop count differs")
    } catch {
        return 0
    }
    precondition(played == animation.frames, "playback and scan disagree on the frames")
    return 0
}
