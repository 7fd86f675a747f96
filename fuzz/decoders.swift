// Shared by the decoder harnesses (fuzz/decode-*): compiled with each.

/// Small limits, so that runs stay fast and the limits are reached.
let fuzzImageLimits = ImageSizeLimits(maxSide: 512, maxPixels: 65536, maxFrames: 64, maxAnimationPixels: 1 << 20)

/// Probes and decodes `bytes`: never a crash; a decoded image has the probed
/// size, reduced as asked (the minimum size is the probe's divided by 1, 2,
/// 4 or 8, chosen from the input's last byte): a JPEG by libjpeg's
/// denominators, a GIF not at all, the others by the box reduction's factor;
/// its pixels fill it exactly; an error says something.
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
    switch probe.kind {
    case .jpeg:
        precondition(image.width >= minimum.width && image.height >= minimum.height && image.width <= probe.width, "a JPEG reduced too far")
    case .gif:
        precondition(image.width == probe.width && image.height == probe.height, "decoded size differs from the probe")
    case .png, .webp, .heic, .avif:
        let factor = BoxReduction.factor(width: probe.width, height: probe.height, atLeast: minimum)
        precondition(
            image.width == reducedSide(probe.width, by: factor) && image.height == reducedSide(probe.height, by: factor),
            "decoded size differs from the probe's reduced by its factor"
        )
        precondition(image.width >= minimum.width && image.height >= minimum.height, "reduced too far")
    }
}
