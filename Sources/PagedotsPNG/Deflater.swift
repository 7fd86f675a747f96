import CZlib

/// A zlib compressor kept for the life of its encoder: one `z_stream`, reset
/// between images, so no image pays for allocating zlib's tables.
///
/// It always compresses with zlib's largest window and then writes the
/// smallest window that covers the data into the zlib header: a stream of `n`
/// bytes cannot refer further back than `n`, so the smaller claim is true and
/// lets decoders allocate less.
final class Deflater {
    /// How hard zlib searches for matches (its `deflateTune` parameters on
    /// level 9's lazy matcher).
    struct Tuning {
        var goodLength: Int32
        var maxLazy: Int32
        var niceLength: Int32
        var maxChain: Int32
    }

    /// How much work a compression is worth.
    enum Effort {
        /// Enough to rank candidate encodings.
        case quick
        /// For the file that is served, on rows of a byte a pixel or less
        /// (palette indices, grey). The level-9 table follows hash chains
        /// 4096 links long; on such rows (long runs of one index) that costs
        /// ~4× the time of 256 links and saves under 1 % of the bytes.
        case thorough
        /// For the file that is served, on rows of several bytes a pixel
        /// (RGB, RGBA, grey and alpha): level 9's own 4096 links. Interleaved
        /// channels give many more short matches to choose between, and the
        /// longer chains find the better ones: 4.2 % smaller frames for the
        /// bench set's RGBA animation with six colours (docs/png.md, "Deflate").
        case exhaustive
        /// For the file that is served, on a photograph's rows (a
        /// carousel's APNG): zlib's default level's search, chains of 128
        /// links and lazy matches up to 16 bytes. A photograph has few long
        /// matches to find: level 9's search took several times as long on
        /// a carousel's frames (minutes at the limits) for about 2 % less.
        case photographic

        var tuning: Tuning {
            switch self {
            case .quick: Tuning(goodLength: 4, maxLazy: 16, niceLength: 32, maxChain: 8)
            case .photographic: Tuning(goodLength: 8, maxLazy: 16, niceLength: 128, maxChain: 128)
            case .thorough: Tuning(goodLength: 32, maxLazy: 258, niceLength: 258, maxChain: 256)
            case .exhaustive: Tuning(goodLength: 32, maxLazy: 258, niceLength: 258, maxChain: 4096)
            }
        }
    }

    /// zlib's strategies that are worth trying on PNG scanlines.
    enum Strategy {
        case standard, filtered

        var zlibValue: Int32 { self == .standard ? Z_DEFAULT_STRATEGY : Z_FILTERED }
    }

    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream with zlib's `memLevel` (1…9): its hash table has
    /// 2^(memLevel + 7) entries, which every reset clears, and a block holds
    /// up to 2^(memLevel + 6) symbols. 9, the default, suits any input; a
    /// lower level costs less to reset and compresses inputs that fit one
    /// such block the same but for rare hash collisions.
    init(memLevel: Int32 = 9) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // zlib refers back to the stream's address, so it lives in its own allocation.
        let status = deflateInit2_(
            stream, 9, Z_DEFLATED, 15, memLevel, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
        )
        // Only a failed allocation or a mismatched zlib can get here, never an image.
        precondition(status == Z_OK, "zlib deflateInit2 failed with status \(status)")
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `input` as one zlib stream and appends it to `output`.
    func compress(_ input: UnsafeBufferPointer<UInt8>, strategy: Strategy, effort: Effort, appendingTo output: inout [UInt8]) {
        deflateReset(stream)
        // After a reset these only set fields: no data is pending.
        deflateParams(stream, 9, strategy.zlibValue)
        let tuning = effort.tuning
        deflateTune(stream, tuning.goodLength, tuning.maxLazy, tuning.niceLength, tuning.maxChain)

        let start = output.count
        let bound = Int(deflateBound(stream, UInt(input.count)))
        output.append(contentsOf: repeatElement(0, count: bound))
        let status: Int32 = output.withUnsafeMutableBufferPointer { out in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            stream.pointee.next_out = out.baseAddress.map { $0 + start }
            stream.pointee.avail_out = UInt32(bound)
            return deflate(stream, Z_FINISH)
        }
        // deflateBound guarantees room for the whole stream in one call.
        precondition(status == Z_STREAM_END, "zlib deflate failed with status \(status)")
        output.removeLast(Int(stream.pointee.avail_out))
        Self.claimSmallestWindow(forLength: input.count, header: &output, at: start)
    }

    /// Rewrites a zlib header (CMF and FLG) to announce the smallest window,
    /// 2^8…2^15 bytes, that holds `length` bytes, and fixes its check bits.
    static func claimSmallestWindow(forLength length: Int, header: inout [UInt8], at index: Int) {
        var windowBits = 8
        while windowBits < 15 && (1 << windowBits) < length {
            windowBits += 1
        }
        let cmf = UInt8((windowBits - 8) << 4 | 8)
        var flg = header[index + 1] & 0xC0  // keep FLEVEL; no preset dictionary
        let remainder = (Int(cmf) << 8 | Int(flg)) % 31
        if remainder != 0 {
            flg += UInt8(31 - remainder)
        }
        header[index] = cmf
        header[index + 1] = flg
    }
}
