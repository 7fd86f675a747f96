import PagedotsCore
import PagedotsDecode
import PagedotsGIF
import PagedotsPixels
import PagedotsRender

/// Samples of a carousel for its budget (`CarouselBudget`): what each
/// encoding would weigh and how it would look, from a few bands across a
/// few slides' rests, never the whole carousel.
///
/// At most `sampledSlides` slides, spread over the order, are drawn at rest
/// (the indicator over them, as in the carousel) at each scale asked; four
/// bands, a sixth of the slides' height in all, are cut from each. Each
/// slide's bands are quantised once per scale and colour count, and
/// compressed at every loss (`GIFTrial`): their bytes, scaled to the
/// slide's area, estimate the slide's frame; their decoded pixels, brought
/// back to the spec's scale, are measured against the exact bands
/// (`LookDistance`), the indicator's box left out. A carousel's bytes are
/// then its timeline's frames: each frame that shows new slides weighs its
/// slide's estimate (a change between two, their mean, a fade's a little
/// more), each frame that only moves the indicator a little.
struct CarouselSampler {
    /// Slides drawn for samples, at most.
    static let sampledSlides = 5
    /// Bands cut across each slide.
    static let bandCount = 4
    /// Each band's height, as a part of the slides' height.
    static let bandShare = 1.0 / 24
    /// A fade's in-between picture against its two slides' mean.
    static let fadeWeight = 1.15
    /// The most scales sampled.
    static let maxScales = 6

    private let request: CarouselRequest
    private let pictures: CarouselPictures<CarouselInputError>
    private let maker: ImageMaker
    /// The slides sampled, by index.
    private let sampled: [Int]
    /// The bands, in points from the slides' top: start and height.
    private let bands: [(top: Double, height: Double)]
    /// The exact bands at the spec's scale, per sampled slide.
    private var exactBands: [BandImage] = []
    /// Each scale's bands, per sampled slide, once drawn.
    private var scaledBands: [Double: [BandImage]] = [:]
    /// The bands quantised, by scale and colours, per sampled slide.
    private var quantized: [TrialKey: [GIFTrial]] = [:]
    /// What was worked out per scale, colours and loss: each sampled
    /// slide's estimated frame bytes, and the mean look.
    private var bytes: [LossKey: [Double]] = [:]
    private var scores: [LossKey: Double] = [:]
    /// The timeline's frames by slide steps (`frames(steps:)`).
    private var frameViews: [Int?: [SlideView?]] = [:]

    /// The scales worth sampling: the spec's, then down in steps of 0.25 to
    /// 1 (at most `maxScales`, spread evenly, the first and last kept).
    let scales: [Double]

    private struct TrialKey: Hashable {
        var scale: Double
        var colors: Int
    }

    private struct LossKey: Hashable {
        var trial: TrialKey
        var loss: Int
    }

    /// Bands cut from one slide at one scale: the picture, its size, and the rows each band took.
    private struct BandImage {
        var pixels: [UInt8]
        var width: Int
        var rows: [Int]
        /// The indicator's box in the bands' picture (left out of the look).
        var excluded: PixelRect
        /// The slide's frame's area over the bands'.
        var areaRatio: Double
    }

    /// Draws the exact bands; throws a sampled slide's refusal.
    init(request: CarouselRequest, pictures: CarouselPictures<CarouselInputError>, maker: ImageMaker) throws(CarouselInputError) {
        self.request = request
        self.pictures = pictures
        self.maker = maker
        let count = pictures.slideSizes.count
        let sampleCount = min(count, Self.sampledSlides)
        sampled = sampleCount <= 1 ? [0] : (0..<sampleCount).map { ($0 * (count - 1) + (sampleCount - 1) / 2) / (sampleCount - 1) }
        let bandPoints = request.layout.band == nil ? 0 : CarouselLayout.indicatorPoints(request.spec.indicator).height
        let slideHeight: Double = request.layout.points.height - bandPoints
        let bandHeight: Double = slideHeight * Self.bandShare
        bands = (0..<Self.bandCount).map { band -> (top: Double, height: Double) in
            let middle = (Double(band) + 0.5) * slideHeight / Double(Self.bandCount)
            return (middle - bandHeight / 2, bandHeight)
        }
        var quarters = Array(stride(from: Int(request.spec.scale * 4), through: 4, by: -1)).map { Double($0) / 4 }
        if quarters.count > Self.maxScales {
            let last = quarters.count - 1
            quarters = (0..<Self.maxScales).map { quarters[($0 * last + (Self.maxScales - 1) / 2) / (Self.maxScales - 1)] }
        }
        scales = quarters
        exactBands = try bandImages(scale: request.spec.scale, layout: request.layout)
    }

    /// `encoding`'s estimated bytes for the whole carousel.
    mutating func estimate(_ encoding: CarouselEncoding) throws(CarouselInputError) -> Double {
        let perSlide = try slideEstimates(encoding)
        let mean = perSlide.reduce(0, +) / Double(max(perSlide.count, 1))
        func slideBytes(_ index: Int) -> Double { sampled.firstIndex(of: index).map { perSlide[$0] } ?? mean }
        guard let layout = try? CarouselLayout(request.spec, scale: encoding.scale) else { return .infinity }
        // An indicator's frame: its box's changes, about a third of a byte a pixel, and its frame's headers.
        let indicatorFrame = Double(layout.indicator.area) / 3 + 40
        let fade = request.spec.composition.change == .fade ? Self.fadeWeight : 1
        var total = 0.0
        for frame in frames(steps: encoding.steps) {
            switch frame {
            case nil: total += indicatorFrame
            case .slide(let index)?: total += slideBytes(index)
            case .change(let from, let to, _)?: total += fade * (slideBytes(from) + slideBytes(to)) / 2
            case .sourceFrame?: total += mean
            }
        }
        return total
    }

    /// `encoding`'s look on the sampled rests (`LookDistance.score`, their mean).
    mutating func score(_ encoding: CarouselEncoding) throws(CarouselInputError) -> Double {
        let key = LossKey(trial: TrialKey(scale: encoding.scale, colors: encoding.colors), loss: encoding.loss)
        if let known = scores[key] { return known }
        let trials = try trials(key.trial)
        let looks = zip(trials, zip(scaledBands[encoding.scale] ?? [], exactBands)).map { trial, bands in
            Self.look(of: trial.outcome(loss: encoding.loss).rgba, in: bands.0, against: bands.1)
        }
        let score = looks.reduce(0, +) / Double(max(looks.count, 1))
        scores[key] = score
        return score
    }

    /// The timeline's frames with `steps` slide steps: what each that shows
    /// new slides shows, nil for one that only moves the indicator.
    private mutating func frames(steps: Int?) -> [SlideView?] {
        if let known = frameViews[steps] { return known }
        var spec = request.spec
        spec.slideSteps = steps == CarouselTimeline(spec: spec).slideSteps ? nil : steps
        var previous: SlideView?
        let views = CarouselTimeline(spec: spec).drawnFrames().map { frame -> SlideView? in
            defer { previous = frame.frame.slides }
            return frame.frame.slides == previous ? nil : frame.frame.slides
        }
        frameViews[steps] = views
        return views
    }

    /// Each sampled slide's estimated frame bytes at `encoding`'s scale, colours and loss.
    private mutating func slideEstimates(_ encoding: CarouselEncoding) throws(CarouselInputError) -> [Double] {
        let key = LossKey(trial: TrialKey(scale: encoding.scale, colors: encoding.colors), loss: encoding.loss)
        if let known = bytes[key] { return known }
        let trials = try trials(key.trial)
        let estimates = zip(trials, scaledBands[encoding.scale] ?? []).map { trial, image in
            // The file's bytes beyond its header and palette are the frame's pixels', scaled to the slide.
            let overhead = 3 * encoding.colors + 40
            return Double(max(trial.outcome(loss: encoding.loss).bytes - overhead, 0)) * image.areaRatio + Double(overhead)
        }
        bytes[key] = estimates
        return estimates
    }

    /// The sampled slides' bands at `key`'s scale, quantised to its colours (drawn once per scale, quantised once per key).
    private mutating func trials(_ key: TrialKey) throws(CarouselInputError) -> [GIFTrial] {
        if let known = quantized[key] { return known }
        let images: [BandImage]
        if let drawn = scaledBands[key.scale] {
            images = drawn
        } else if key.scale == request.spec.scale {
            images = exactBands
        } else if let layout = try? CarouselLayout(request.spec, scale: key.scale) {
            images = try bandImages(scale: key.scale, layout: layout)
        } else {
            images = []
        }
        scaledBands[key.scale] = images
        let settings = QuantizerSettings.photographic.limitingColors(to: key.colors)
        let trials = images.map { GIFTrial(rgba: $0.pixels, width: $0.width, height: $0.rows.reduce(0, +), settings: settings) }
        quantized[key] = trials
        return trials
    }

    /// How `decoded` (the bands of `image`, lighter) looks against `exact`'s, band by band brought to its size.
    private static func look(of decoded: [UInt8], in image: BandImage, against exact: BandImage) -> Double {
        var candidate: [UInt8] = []
        var start = 0
        for (rows, exactRows) in zip(image.rows, exact.rows) {
            let band = Array(decoded[(start * image.width * 4)..<((start + rows) * image.width * 4)])
            candidate += RGBAResampling.bilinear(band, width: image.width, height: rows, toWidth: exact.width, height: exactRows)
            start += rows
        }
        return LookDistance(exact: exact.pixels, candidate: candidate, width: exact.width, height: exact.rows.reduce(0, +), excluded: exact.excluded).score
    }

    /// The sampled slides' bands at `scale`, drawn at rest as the carousel
    /// laid out by `layout` shows them.
    private func bandImages(scale: Double, layout: CarouselLayout) throws(CarouselInputError) -> [BandImage] {
        let frames = maker.carouselFrames(request.spec, layout: layout, pictures: pictures)
        let rests = sampled.map { slide in frames.frames.firstIndex { $0.frame.slides == .slide(slide) } ?? 0 }
        var images: [BandImage] = []
        for rest in rests {
            let pixels = try frames.frame(at: rest).pixels
            var band: [UInt8] = []
            var rows: [Int] = []
            var excluded = PixelRect.empty
            for (top, height) in bands {
                let first = layout.slides.y + min(max(Int((top * scale).rounded(.down)), 0), layout.slides.height - 1)
                let end = layout.slides.y + min(max(Int(((top + height) * scale).rounded(.up)), first - layout.slides.y + 1), layout.slides.height)
                let inBand = layout.indicator.intersection(PixelRect(x: 0, y: first, width: layout.width, height: end - first))
                excluded = excluded.union(inBand.moved(by: 0, rows.reduce(0, +) - first))
                band += pixels[(first * layout.width * 4)..<(end * layout.width * 4)]
                rows.append(end - first)
            }
            let bandArea = Double(rows.reduce(0, +) * layout.width)
            images.append(BandImage(
                pixels: band, width: layout.width, rows: rows, excluded: excluded, areaRatio: Double(layout.slides.area) / max(bandArea, 1)
            ))
        }
        return images
    }
}
