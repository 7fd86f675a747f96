import Glibc
import PagedotsCore
import PagedotsRender

/// A carousel GIF made to fit its `budget` (docs/carousel.md, "Weight").
///
/// First the carousel as it is, stopped as soon as it passes the budget, so
/// that one that fits is the same bytes as without `budget` (skipped when
/// the samples put it more than `exactAttempt` times over: their estimates
/// come within a few percent of the carousels made). Otherwise the levers are weighed on
/// samples, never on the whole carousel: bands across each sampled slide's
/// rest, drawn at each scale tried, quantised and compressed at each loss,
/// their bytes scaled up to the whole carousel's frames and their look
/// measured against the exact bands (`LookDistance`, outside the
/// indicator's box, which is never made lighter). The candidate that looks
/// best among those estimated to fit is encoded, stopped if it passes the
/// budget after all, and then the next lighter one is tried.
struct CarouselBudget {
    /// What came of it.
    enum Outcome {
        /// The carousel, at most `budget` bytes, and what was chosen.
        case fits(CarouselFile, CarouselEncoding)
        /// Nothing fits: the smallest size reached, and how.
        case tooHeavy(smallest: Int, encoding: CarouselEncoding)
    }

    let request: CarouselRequest
    let budget: Int
    let pictures: CarouselPictures<CarouselInputError>
    let maker: ImageMaker
    /// The in-between pictures a change shows at `fps` (0 with `cut`).
    private let naturalSteps: Int

    init(request: CarouselRequest, budget: Int, pictures: CarouselPictures<CarouselInputError>, maker: ImageMaker) {
        self.request = request
        self.budget = budget
        self.pictures = pictures
        self.maker = maker
        naturalSteps = CarouselTimeline(spec: request.spec).slideSteps
    }

    /// The colours of a photograph's palette without a budget (`QuantizerSettings.photographic`).
    static let fullColors = 64
    /// Palettes tried when even the lightest scale and loss are too heavy.
    static let fewerColors = [32, 16]
    /// The losses tried, lightest first.
    static let losses = [0, 20, 40, 60, 80, 110, 150, 200]
    /// Estimates are aimed this far under the budget, for what sampling misses.
    static let margin = 0.95
    /// How many times a candidate that passed the budget is followed by a lighter one.
    static let tightenings = 3
    /// The carousel as it is is tried while its estimate is at most this many times the budget.
    static let exactAttempt = 1.2

    /// The carousel as it is without `budget`.
    private var exact: CarouselEncoding {
        CarouselEncoding(scale: request.spec.scale, steps: naturalSteps > 0 ? naturalSteps : nil, colors: Self.fullColors, loss: 0)
    }

    /// The carousel at most `budget` bytes, or how close it comes; throws a picture's refusal.
    func make() throws(CarouselInputError) -> Outcome {
        var sampler = try CarouselSampler(request: request, pictures: pictures, maker: maker)
        if try sampler.estimate(exact) <= Double(budget) * Self.exactAttempt, let file = try encode(exact) {
            // Exactly as without `budget`.
            return .fits(file, exact)
        }
        var candidates = try rankedCandidates(sampler: &sampler)
        var tried = 0
        while let candidate = candidates.first, tried <= Self.tightenings {
            tried += 1
            if let file = try encode(candidate.encoding) { return .fits(file, candidate.encoding) }
            // Over after all: only candidates clearly lighter than this one's estimate.
            candidates = candidates.dropFirst().filter { $0.bytes < candidate.bytes * 0.85 }
        }
        // The lightest there is, made whole to say how light that is (at the
        // spec's own scale should the carousel not lay out at 1).
        var lightest = CarouselEncoding(
            scale: 1, steps: naturalSteps > 0 ? 1 : nil, colors: Self.fewerColors.last ?? Self.fullColors, loss: Self.losses.last ?? 0
        )
        var file = try encode(lightest, limit: .max)
        if file == nil {
            lightest.scale = request.spec.scale
            file = try encode(lightest, limit: .max)
        }
        guard let file else { throw CarouselInputError(status: 503, "budget: the carousel could not be made lighter: try again") }
        return file.count <= budget ? .fits(file, lightest) : .tooHeavy(smallest: file.count, encoding: lightest)
    }

    /// A candidate: an encoding, its estimated bytes and look.
    struct Candidate {
        var encoding: CarouselEncoding
        var bytes: Double
        var score: Double
    }

    /// The candidates estimated to fit, best-looking first: for each scale
    /// sampled (from the spec's down, until one fits without loss) and each
    /// number of steps, the lightest loss that fits; fewer colours only
    /// when nothing else fits.
    private func rankedCandidates(sampler: inout CarouselSampler) throws(CarouselInputError) -> [Candidate] {
        let stepChoices: [Int?] = naturalSteps > 0 ? Self.halvings(of: naturalSteps) : [nil]
        let target = Double(budget) * Self.margin
        var candidates: [Candidate] = []
        scales: for scale in sampler.scales {
            for steps in stepChoices {
                for loss in Self.losses {
                    let encoding = CarouselEncoding(scale: scale, steps: steps, colors: Self.fullColors, loss: loss)
                    let bytes = try sampler.estimate(encoding)
                    guard bytes <= target else { continue }
                    let score = try sampler.score(encoding) - Self.stepPenalty(steps, natural: naturalSteps)
                    candidates.append(Candidate(encoding: encoding, bytes: bytes, score: score))
                    // A lower scale only blurs what this one keeps.
                    if loss == 0 && steps == stepChoices[0] { break scales }
                    break
                }
            }
        }
        if candidates.isEmpty {
            for colors in Self.fewerColors {
                let encoding = CarouselEncoding(scale: 1, steps: stepChoices.last ?? nil, colors: colors, loss: Self.losses.last ?? 0)
                let bytes = try sampler.estimate(encoding)
                if bytes <= target { candidates.append(Candidate(encoding: encoding, bytes: bytes, score: try sampler.score(encoding))) }
            }
        }
        return candidates.sorted { ($0.score, -$0.bytes) > ($1.score, -$1.bytes) }
    }

    /// `natural`, then halved (rounded up) down to 1.
    static func halvings(of natural: Int) -> [Int?] {
        var steps = [natural]
        while let last = steps.last, last > 1 { steps.append((last + 1) / 2) }
        return steps
    }

    /// What fewer steps cost in look, on the score's scale: a change that
    /// jumps where it glided.
    static func stepPenalty(_ steps: Int?, natural: Int) -> Double {
        guard let steps, natural > steps else { return 0 }
        return 4 * log2(Double(natural) / Double(steps))
    }

    /// `encoding` made whole, or nil when it passed `limit` bytes (the
    /// budget by default) or cannot be laid out at its scale.
    private func encode(_ encoding: CarouselEncoding, limit: Int? = nil) throws(CarouselInputError) -> CarouselFile? {
        var spec = request.spec
        spec.slideSteps = encoding.steps == exact.steps ? nil : encoding.steps
        let isExact = encoding == exact
        let layout: CarouselLayout
        do {
            layout = isExact ? request.layout : try CarouselLayout(spec, scale: encoding.scale)
        } catch {
            return nil
        }
        let file = CarouselFile(contentType: spec.format.mediaType)
        let limit = limit ?? budget
        let finished = try maker.makeCarousel(
            spec, layout: layout, pictures: pictures, lighter: isExact ? nil : encoding, byteLimit: limit, into: file.write
        )
        return finished && file.count <= limit ? file : nil
    }
}
