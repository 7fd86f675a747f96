import CZlib

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
        /// The size of a quick compression, once made.
        var quickSize: Int?
    }

    /// Rows up to this many bytes are compressed thoroughly at once (with
    /// the small stream when they fit it), not ranked by a quick compression
    /// first: on small inputs zlib's fixed costs dominate and a quick
    /// compression saves little. 0 for the still encoder, whose files stay
    /// as they were.
    private let directByteLimit: Int
    private let deflater = Deflater()
    private lazy var smallDeflater = Deflater(memLevel: Self.smallStreamMemLevel)
    private var candidates: [Candidate] = []
    private var compressed: [UInt8] = []
    /// The best candidate compressed so far, of those added since the last answer.
    private var best: (tag: Int, size: Int)?
    /// The zlib stream of the winner of the last `compressSmallest()`.
    private(set) var smallest: [UInt8] = []

    /// What a compression is asked: the same rows, strategy and effort
    /// always give the same stream.
    private struct Compression: Hashable {
        var rows: [UInt8]
        var filtered: Bool
        var thorough: Bool

        /// The rows hashed by their CRC-32 and length: zlib's CRC took about
        /// two thirds of the time of `Hasher` over the same bytes (4.3 % →
        /// 2.7 % of an animation), and an array hashes byte by byte, ~5×
        /// slower still. Equal keys still compare every byte.
        func hash(into hasher: inout Hasher) {
            hasher.combine(rows.count)
            hasher.combine(rows.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32(clamping: $0.count)) })
            hasher.combine(filtered)
            hasher.combine(thorough)
        }
    }
    /// Streams already made since `forgetStreams()`, while `remembersStreams`:
    /// an animation's frames repeat the same regions (each move between two
    /// neighbouring pages draws the same pixels, only elsewhere), and a
    /// stream found here costs a lookup instead of a compression.
    private var streams: [Compression: [UInt8]] = [:]
    /// The bytes of rows and streams held in `streams`.
    private var rememberedBytes = 0
    /// The most bytes `streams` holds; past that, new streams are not kept.
    static let rememberedByteLimit = 1 << 20
    /// Whether compressions are remembered (the animation encoder's choice).
    let remembersStreams: Bool

    init(directByteLimit: Int = 0, remembersStreams: Bool = false) {
        self.directByteLimit = directByteLimit
        self.remembersStreams = remembersStreams
    }

    /// Adds a candidate for each of `trials` (a row filtering and the zlib
    /// strategy that goes with it) of `rows`; `tag` names them in the answer
    /// of `compressSmallest()`. Per-row filters are not tried on flat-colour art.
    func add(_ rows: Scanlines, trials: [(RowFiltering, Deflater.Strategy)], extraBytes: Int, tag: Int) {
        let direct = rows.bytes.count + rows.height <= directByteLimit
        var unfilteredSize: Int?
        for (filtering, strategy) in trials {
            if filtering == .minimumSum, let unfiltered = unfilteredSize,
               unfiltered * Self.flatImageRatio <= rows.bytes.count {
                continue  // flat-colour art: filters do not pay
            }
            var candidate = Candidate(filteredRows: rows.filtered(filtering), strategy: strategy, extraBytes: extraBytes, tag: tag)
            if direct {
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
    /// in `smallest`. Ties go to the candidate compressed first (small
    /// ones are compressed as they are added, others here, in order).
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

    /// Forgets the streams remembered so far (at the start of an animation).
    func forgetStreams() {
        streams.removeAll()
        rememberedBytes = 0
    }

    /// Compresses a candidate into `compressed`, or takes the stream made
    /// for the same rows before; returns the file bytes that its zlib
    /// stream and extra chunks would take.
    private func compress(_ candidate: Candidate, effort: Deflater.Effort) -> Int {
        guard remembersStreams else {
            compressAfresh(candidate, effort: effort)
            return compressed.count + candidate.extraBytes
        }
        let key = Compression(rows: candidate.filteredRows, filtered: candidate.strategy == .filtered, thorough: effort == .thorough)
        if let stream = streams[key] {
            compressed = stream
        } else {
            compressAfresh(candidate, effort: effort)
            if rememberedBytes + key.rows.count + compressed.count <= Self.rememberedByteLimit {
                rememberedBytes += key.rows.count + compressed.count
                streams[key] = compressed
            }
        }
        return compressed.count + candidate.extraBytes
    }

    /// Compresses a candidate into `compressed`.
    private func compressAfresh(_ candidate: Candidate, effort: Deflater.Effort) {
        compressed.removeAll(keepingCapacity: true)
        let rows = candidate.filteredRows
        let stream = rows.count <= Self.smallStreamByteLimit && directByteLimit > 0 ? smallDeflater : deflater
        rows.withUnsafeBufferPointer { stream.compress($0, strategy: candidate.strategy, effort: effort, appendingTo: &compressed) }
    }
}
