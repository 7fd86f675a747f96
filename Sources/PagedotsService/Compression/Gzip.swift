import CZlib
import Locking

/// gzip (RFC 1952) with zlib, for the text responses (docs/http.md,
/// "Compression"): deterministic — zlib's own header, with no name, no
/// modification time and the same flags every time — so equal input gives
/// equal bytes on every replica with the same zlib.
///
/// Compressing sets up a zlib stream, and setting one up costs more than
/// compressing a small SVG: streams are kept in a pool, taken by whichever
/// thread compresses (a render thread, or an event loop for `/metrics`) and
/// put back, so there are never more than the threads that compress at once.
enum Gzip {
    /// zlib's default level. On these texts (an SVG of 1–60 KB, the 29 KB
    /// builder page, the 37 KB OpenAPI document) level 9 saves under 0.5 %
    /// more and takes a third longer; level 1 leaves 5–20 % more bytes.
    static let level: Int32 = 6

    /// The gzip form of `bytes`.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let stream = pool.withLock { $0.popLast() } ?? Stream()
        defer { pool.withLock { $0.append(stream) } }
        return stream.compress(bytes)
    }

    private static let pool = Locked<[Stream]>([])

    /// One zlib stream in gzip mode, reset before each use. Used by one
    /// thread at a time: the pool hands it out and takes it back under its
    /// lock (hence `@unchecked Sendable`).
    private final class Stream: @unchecked Sendable {
        private let stream: UnsafeMutablePointer<z_stream>

        init() {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // windowBits 15 + 16: zlib writes a gzip header and trailer.
            let status = deflateInit2_(
                stream, Gzip.level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
            )
            // Only a failed allocation or a mismatched zlib can get here, and
            // only at the first compression of a thread, never because of a request.
            precondition(status == Z_OK, "zlib deflateInit2 failed with status \(status)")
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        func compress(_ input: [UInt8]) -> [UInt8] {
            deflateReset(stream)
            let bound = Int(deflateBound(stream, UInt(input.count)))
            var output = [UInt8](repeating: 0, count: bound)
            let status: Int32 = input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                    stream.pointee.avail_in = UInt32(input.count)
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(bound)
                    return deflate(stream, Z_FINISH)
                }
            }
            // deflateBound guarantees room for the whole stream, header and trailer included.
            precondition(status == Z_STREAM_END, "zlib deflate failed with status \(status)")
            // A copy of its own size: a cached variant holds what the budget counts, not deflateBound's room.
            return Array(output[..<(bound - Int(stream.pointee.avail_out))])
        }
    }
}
