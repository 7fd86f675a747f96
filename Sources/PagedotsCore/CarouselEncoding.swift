/// How a carousel GIF is made lighter to fit its `budget` (docs/carousel.md,
/// "Weight"): what `X-Carousel-Encoding` says was chosen.
public struct CarouselEncoding: Hashable, Sendable {
    /// Pixels per point: the spec's, or lower in steps of 0.25, down to 1.
    public var scale: Double
    /// With `fade` or `push`, the in-between pictures of the slides a change
    /// shows at most (`CarouselSpec.slideSteps`); nil with `cut`.
    public var steps: Int?
    /// The most colours a quantised frame's palette has.
    public var colors: Int
    /// How far the LZW compression may stray from the slides' pixels
    /// (gifsicle's `--lossy`); 0 is lossless.
    public var loss: Int

    public init(scale: Double, steps: Int?, colors: Int, loss: Int) {
        self.scale = scale
        self.steps = steps
        self.colors = colors
        self.loss = loss
    }

    /// `scale=1.5; steps=3; colors=64; loss=40` (`steps` only for a fade or a push).
    public var headerText: String {
        var parts = ["scale=" + DecimalText.format(scale)]
        if let steps { parts.append("steps=\(steps)") }
        parts += ["colors=\(colors)", "loss=\(loss)"]
        return parts.joined(separator: "; ")
    }

    /// `scale 1, 1 step, 32 colours, loss 200`: for a refusal's message.
    public var phrase: String {
        var parts = ["scale " + DecimalText.format(scale)]
        if let steps { parts.append("\(steps) step\(steps == 1 ? "" : "s")") }
        parts += ["\(colors) colours", "loss \(loss)"]
        return parts.joined(separator: ", ")
    }
}
