import CZlib

/// Writes straight-alpha RGBA pixels as a PNG. Keeps a zlib stream between
/// calls, so it is not `Sendable`: use one per thread.
public final class PNGEncoder {
    public init() {}

    /// The PNG file for `width × height` pixels given as RGBA bytes, rows top
    /// to bottom. The same pixels always give the same bytes.
    public func encode(rgba pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        []
    }
}
