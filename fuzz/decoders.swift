// Shared by the decoder harnesses (fuzz/decode-*): compiled with each.

/// Small limits, so that runs stay fast and the limits are reached.
let fuzzImageLimits = ImageSizeLimits(maxSide: 512, maxPixels: 65536, maxFrames: 64, maxAnimationPixels: 1 << 20)

/// Probes and decodes `bytes`: never a crash; a decoded image has the probed
/// size (a JPEG reduced by the denominator asked, chosen from the input's
/// last byte) and its pixels fill it exactly; an error says something.
func checkDecoders(_ bytes: UnsafeRawBufferPointer) {
    let probe: ImageProbe
    do {
        probe = try ImageDecoder.probe(bytes, limits: fuzzImageLimits)
    } catch {
        precondition(!error.description.isEmpty, "an empty error")
        return
    }
    precondition(probe.width > 0 && probe.height > 0 && probe.width <= 512 && probe.height <= 512, "a probe outside the limits")
    let denominator = 1 << Int((bytes.last ?? 0) % 4)
    let minimum = (width: max(1, probe.width / denominator), height: max(1, probe.height / denominator))
    guard let image = try? ImageDecoder.decode(bytes, limits: fuzzImageLimits, atLeast: minimum) else { return }
    precondition(image.pixels.count == image.width * image.height * 4, "pixels do not fill the image")
    if probe.kind == .jpeg {
        precondition(image.width >= minimum.width && image.height >= minimum.height && image.width <= probe.width, "a JPEG reduced too far")
    } else {
        precondition(image.width == probe.width && image.height == probe.height, "decoded size differs from the probe")
    }
}
