import CZlib

/// Lays out a PNG file: the signature, then chunks framed as length, type,
/// data and the CRC-32 of type and data.
struct PNGChunkWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Length, type and CRC: what each chunk adds to its data.
    static let framingBytes = 12

    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(contentsOf: Self.signature)
    }

    /// Hands the bytes laid out so far to `write` and lets go of them
    /// (between chunks): a large file need not be held whole.
    mutating func flush(to write: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes(write)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends a chunk whose data `writeData` appends to the buffer it is given.
    mutating func appendChunk(_ type: StaticString, writeData: (inout [UInt8]) -> Void) {
        let lengthIndex = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        let typeIndex = bytes.count
        type.withUTF8Buffer { bytes.append(contentsOf: $0) }
        writeData(&bytes)
        let dataLength = bytes.count - typeIndex - 4
        Self.storeBigEndian(UInt32(dataLength), in: &bytes, at: lengthIndex)
        let crc = bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress.map { $0 + typeIndex }, UInt32(bytes.count - typeIndex)))
        }
        bytes.append(contentsOf: [0, 0, 0, 0])
        Self.storeBigEndian(crc, in: &bytes, at: bytes.count - 4)
    }

    /// Appends the IHDR chunk: no interlacing, the standard compression and filter methods.
    mutating func appendHeader(width: Int, height: Int, layout: PixelLayout) {
        appendChunk("IHDR") { data in
            Self.appendBigEndian(UInt32(width), to: &data)
            Self.appendBigEndian(UInt32(height), to: &data)
            data.append(contentsOf: [UInt8(layout.bitDepth), layout.colorType, 0, 0, 0])
        }
    }

    /// Appends PLTE, and tRNS when some colours are translucent.
    mutating func appendPalette(_ palette: Palette) {
        appendChunk("PLTE") { data in
            for color in palette.colors {
                data.append(contentsOf: [color.red, color.green, color.blue])
            }
        }
        if palette.translucentCount > 0 {
            appendChunk("tRNS") { data in
                data.append(contentsOf: palette.colors.prefix(palette.translucentCount).map(\.alpha))
            }
        }
    }

    static func appendBigEndian(_ value: UInt32, to data: inout [UInt8]) {
        data.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    private static func storeBigEndian(_ value: UInt32, in data: inout [UInt8], at index: Int) {
        data[index] = UInt8(value >> 24)
        data[index + 1] = UInt8(value >> 16 & 0xFF)
        data[index + 2] = UInt8(value >> 8 & 0xFF)
        data[index + 3] = UInt8(value & 0xFF)
    }
}
