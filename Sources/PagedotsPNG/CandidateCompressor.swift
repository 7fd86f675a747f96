import PagedotsPixels

/// Compresses the candidate encodings of one image (layouts, row
/// filterings, zlib strategies; for an animation frame also the ways to
/// compose it) and keeps the smallest zlib stream. Owns its zlib streams and
/// scratch buffers, so it is not `Sendable`: one per encoder.
final class CandidateCompressor {
    /// How close, in per cent, a quick compression must come to the best
    /// quick one for its candidate to get a thorough compression too.
    static let finalistMarginPercent = 3
    /// Rows that compress unfiltered to this fraction (1/n) of their size or
    /// less are flat-colour art, where per-row filters do not pay (never once
    /// on the bench set) and cost more than the compression: they are not tried.
    static let flatImageRatio = 6
    /// The memLevel of the stream for small rows: its reset clears 8 KiB
    /// instead of 128 KiB, and its blocks hold 2048 symbols.
    static let smallStreamMemLevel: Int32 = 5
    /// Rows up to this many bytes fit one block of the small stream.
    static let smallStreamByteLimit = 2000
    /// The memLevel of an animation's stream for larger rows: its reset
    /// clears 16 KiB instead of 128 KiB (16 times an animation, often), and
    /// on the bench set's frame regions over 2000 bytes its streams came to
    /// 0.01 % less in all than memLevel 9's (4096-symbol blocks suit them).
    static let animationStreamMemLevel: Int32 = 6

    /// One way to write the image: its rows filtered one way, and the zlib
    /// strategy that suits that filtering.
    struct Candidate {
        /// Each row with its filter-type byte: what IDAT compresses.
        var filteredRows: [UInt8]
        var strategy: Deflater.Strategy
        /// What else this way adds to the file (PLTE and tRNS for a layout).
        var extraBytes: Int
        /// The caller's name for the way the rows were made.
        var tag: Int
        /// The effort a thorough compression of it takes.
        var thoroughEffort: Deflater.Effort
        /// The size of a quick compression, once made.
        var quickSize: Int?
    }

    /// How the candidates of an image are compressed.
    enum Mode {
        /// A still image: every candidate quickly, then thoroughly those
        /// that come close to the best quick one.
        case still
        /// An animation's frame regions: every candidate thoroughly as it
        /// is added (small rows on the small stream), with no quick ranking,
        /// and each stream remembered for the rest of the animation (see
        /// `streams`). On the bench set this gave the same files as ranking
        /// regions over 16 KiB (and on the samples before, over 4 KiB) in
        /// less time: frame regions are mostly flat-colour art, where the
        /// unfiltered rows are then the only candidate.
        case animation
    }

    let mode: Mode
    private let deflater: Deflater
    private lazy var smallDeflater = Deflater(memLevel: Self.smallStreamMemLevel)
    private var candidates: [Candidate] = []
    private var compressed: [UInt8] = []
    /// The best candidate compressed so far, of those added since the last answer.
    private var best: (tag: Int, size: Int)?
    /// The zlib stream of the winner of the last `compressSmallest()`.
    private(set) var smallest: [UInt8] = []

    /// What a thorough compression is asked, the rows and whether they are
    /// filtered (the strategy): the same rows and strategy always give the
    /// same stream. (Rows are kilobytes: zlib's CRC-32 over them, taken at
    /// each lookup and insertion, was 5–6 % of an animation.)
    private typealias Compression = DigestKey<UInt8>
    /// An animation's streams made since its budget was last reset: its
    /// frames repeat the same regions (each move between two neighbouring
    /// pages draws the same pixels, only elsewhere), and a stream found here
    /// costs a lookup instead of a compression. Rows and streams take their
    /// memory from `budget` (`.streams`); past its allowance, new streams are not kept.
    private var streams: [Compression: [UInt8]] = [:]
    private let budget: CacheBudget

    /// A compressor for `mode`; an animation's streams are kept under
    /// `budget` until it is reset.
    init(mode: Mode, budget: CacheBudget) {
        self.mode = mode
        self.budget = budget
        deflater = Deflater(memLevel: mode == .animation ? Self.animationStreamMemLevel : 9)
        budget.onReset { [weak self] in self?.streams = [:] }
    }

    /// Adds a candidate for each of `trials` (a row filtering and the zlib
    /// strategy that goes with it) of `rows`; `tag` names them in the answer
    /// of `compressSmallest()`. Per-row filters are not tried on flat-colour art.
    /// A thorough compression takes `thoroughEffort`; by default
    /// `.exhaustive` on rows of several bytes a pixel (RGB, RGBA, grey and
    /// alpha), else `.thorough`.
    func add(
        _ rows: Scanlines, trials: [(RowFiltering, Deflater.Strategy)], extraBytes: Int, tag: Int, thoroughEffort: Deflater.Effort? = nil
    ) {
        var unfilteredSize: Int?
        for (filtering, strategy) in trials {
            if filtering == .minimumSum, let unfiltered = unfilteredSize,
               unfiltered * Self.flatImageRatio <= rows.bytes.count {
                continue  // flat-colour art: filters do not pay
            }
            var candidate = Candidate(
                filteredRows: rows.filtered(filtering), strategy: strategy, extraBytes: extraBytes, tag: tag,
                thoroughEffort: thoroughEffort ?? (rows.layout.bitsPerPixel > 8 ? .exhaustive : .thorough)
            )
            if mode == .animation {
                let size = keepIfSmallest(candidate)
                if filtering == .none {
                    unfilteredSize = size
                }
                continue
            }
            if filtering == .none && trials.count > 1 {
                // Ranking is needed anyway, and the filtered trial depends on it.
                candidate.quickSize = compress(candidate, effort: .quick)
                unfilteredSize = candidate.quickSize
            }
            candidates.append(candidate)
        }
    }

    /// Compresses the candidates added since the last call and returns the
    /// tag of the one that makes the smallest file; its zlib stream is then
    /// in `smallest`. Ties go to the candidate compressed first (an
    /// animation's are compressed as they are added, a still's here, in order).
    ///
    /// Only candidates whose quick compression comes close to the best quick
    /// one get a thorough compression; a quick one costs a fraction of a
    /// thorough one and ranks candidates much the same.
    func compressSmallest() -> Int {
        defer {
            candidates.removeAll(keepingCapacity: true)
            best = nil
        }
        if candidates.count > 1 {
            for index in candidates.indices where candidates[index].quickSize == nil {
                candidates[index].quickSize = compress(candidates[index], effort: .quick)
            }
        }
        let cutoff = (candidates.compactMap(\.quickSize).min() ?? 0) * (100 + Self.finalistMarginPercent) / 100
        for finalist in candidates where finalist.quickSize ?? 0 <= cutoff {
            _ = keepIfSmallest(finalist)
        }
        guard let best else { preconditionFailure("no candidate encoding") }
        return best.tag
    }

    /// Compresses a candidate thoroughly and keeps its stream in `smallest`
    /// when it makes a smaller file than every candidate before; returns its size.
    private func keepIfSmallest(_ candidate: Candidate) -> Int {
        let size = compress(candidate, effort: .thorough)
        if size < best?.size ?? .max {
            best = (candidate.tag, size)
            swap(&smallest, &compressed)
        }
        return size
    }

    /// Compresses a candidate into `compressed`, or for an animation takes
    /// the stream made for the same rows before; returns the file bytes that
    /// its zlib stream and extra chunks would take.
    private func compress(_ candidate: Candidate, effort: Deflater.Effort) -> Int {
        guard mode == .animation && effort == .thorough else {
            compressAfresh(candidate, effort: effort)
            return compressed.count + candidate.extraBytes
        }
        let key = Compression(candidate.filteredRows, tag: candidate.strategy == .filtered ? 1 : 0)
        if let stream = streams[key] {
            compressed = stream
        } else {
            compressAfresh(candidate, effort: effort)
            // A copy of the stream's own size, which leaves `compressed` to be
            // reused (`Array(compressed)` would share its storage, and with it
            // the capacity of the largest stream so far).
            let stream = compressed.withUnsafeBufferPointer { Array($0) }
            if budget.take(key.elements.count + stream.count, for: .streams) {
                streams[key] = stream
            }
        }
        return compressed.count + candidate.extraBytes
    }

    /// Compresses a candidate into `compressed`.
    private func compressAfresh(_ candidate: Candidate, effort: Deflater.Effort) {
        compressed.removeAll(keepingCapacity: true)
        let rows = candidate.filteredRows
        let stream = mode == .animation && rows.count <= Self.smallStreamByteLimit ? smallDeflater : deflater
        let effort = effort == .thorough ? candidate.thoroughEffort : effort
        rows.withUnsafeBufferPointer { stream.compress($0, strategy: candidate.strategy, effort: effort, appendingTo: &compressed) }
    }
}
