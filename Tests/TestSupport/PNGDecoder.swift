import CZlib

/// A decoded PNG: its header fields, the chunks it held and its pixels as
/// straight RGBA, 8 bits a channel (16-bit samples keep their high byte).
public struct DecodedPNG: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes, rows top to bottom.
    public var rgba: [UInt8]
    /// IHDR's colour type: 0 grey, 2 RGB, 3 indexed, 4 grey+alpha, 6 RGBA.
    public var colorType: UInt8
    /// IHDR's bit depth.
    public var bitDepth: UInt8
    /// Every chunk's type, in file order.
    public var chunkTypes: [String]
    /// The PLTE entries as RGB triples (empty without a PLTE).
    public var palette: [[UInt8]]
    /// The tRNS chunk's data (empty without one).
    public var transparency: [UInt8]
    /// Each row's filter type (0 none, 1 sub, 2 up, 3 average, 4 Paeth).
    public var filterTypes: [UInt8]
}

/// Why a PNG could not be decoded: one line a test can print.
public struct PNGDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A small, strict PNG decoder for tests: checks the signature, chunk
/// framing and CRCs and the chunk order rules, inflates with zlib, undoes
/// all five filters and expands every colour type and bit depth to RGBA.
/// Interlaced files are refused (pagedots never writes them).
public enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes a whole PNG file.
    public static func decode(_ bytes: [UInt8]) throws(PNGDecodingError) -> DecodedPNG {
        let chunks = try readChunks(bytes)
        try checkOrder(chunks.map(\.type))
        let header = try Header(chunks[0].data)
        let palette = chunks.first { $0.type == "PLTE" }?.data ?? []
        let transparency = chunks.first { $0.type == "tRNS" }?.data ?? []
        try header.check(palette: palette, transparency: transparency)
        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let lineBytes = 1 + header.rowBytes
        let filtered = try inflate(compressed, expectedCount: lineBytes * header.height)
        let rows = try unfilter(filtered, rowBytes: header.rowBytes, height: header.height, stride: header.filterStride)
        return DecodedPNG(
            width: header.width, height: header.height,
            rgba: try header.expand(rows, palette: palette, transparency: transparency),
            colorType: header.colorType, bitDepth: header.bitDepth,
            chunkTypes: chunks.map(\.type),
            palette: stride(from: 0, to: palette.count, by: 3).map { Array(palette[$0 ..< $0 + 3]) },
            transparency: transparency,
            filterTypes: (0..<header.height).map { filtered[$0 * lineBytes] }
        )
    }

    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    /// Splits the file into chunks, checking the signature, lengths and CRCs.
    static func readChunks(_ bytes: [UInt8]) throws(PNGDecodingError) -> [Chunk] {
        guard bytes.starts(with: signature) else { throw PNGDecodingError("not a PNG: bad signature") }
        var chunks: [Chunk] = []
        var offset = signature.count
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw PNGDecodingError("truncated chunk header at byte \(offset)") }
            let length = Int(bigEndian32(bytes, at: offset))
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= bytes.count else {
                throw PNGDecodingError("chunk at byte \(offset) runs past the end of the file")
            }
            let typeBytes = Array(bytes[offset + 4 ..< offset + 8])
            guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                throw PNGDecodingError("chunk type at byte \(offset) is not four ASCII letters")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let stored = bigEndian32(bytes, at: offset + 8 + length)
            let computed = bytes.withUnsafeBufferPointer { buffer in
                UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress.map { $0 + offset + 4 }, UInt32(4 + length)))
            }
            guard stored == computed else { throw PNGDecodingError("\(type): CRC mismatch") }
            chunks.append(Chunk(type: type, data: Array(bytes[offset + 8 ..< offset + 8 + length])))
            offset += 12 + length
        }
        return chunks
    }

    /// IHDR first, at most one PLTE and tRNS and both before the IDATs (tRNS
    /// after PLTE), the IDATs consecutive, IEND last, no unknown critical chunk.
    static func checkOrder(_ types: [String]) throws(PNGDecodingError) {
        guard types.first == "IHDR" else { throw PNGDecodingError("the first chunk is not IHDR") }
        guard types.last == "IEND", types.filter({ $0 == "IEND" }).count == 1 else {
            throw PNGDecodingError("IEND is missing or not the last chunk")
        }
        for type in ["IHDR", "PLTE", "tRNS"] where types.filter({ $0 == type }).count > 1 {
            throw PNGDecodingError("more than one \(type)")
        }
        guard let firstData = types.firstIndex(of: "IDAT"), let lastData = types.lastIndex(of: "IDAT") else {
            throw PNGDecodingError("no IDAT")
        }
        guard types[firstData...lastData].allSatisfy({ $0 == "IDAT" }) else { throw PNGDecodingError("IDAT chunks are not consecutive") }
        if let plte = types.firstIndex(of: "PLTE"), plte > firstData { throw PNGDecodingError("PLTE after IDAT") }
        if let trns = types.firstIndex(of: "tRNS") {
            if trns > firstData { throw PNGDecodingError("tRNS after IDAT") }
            if let plte = types.firstIndex(of: "PLTE"), trns < plte { throw PNGDecodingError("tRNS before PLTE") }
        }
        let known: Set = ["IHDR", "PLTE", "IDAT", "IEND"]
        if let unknown = types.first(where: { $0.first?.isUppercase == true && !known.contains($0) }) {
            throw PNGDecodingError("unknown critical chunk \(unknown)")
        }
    }

    static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Inflates a zlib stream that must hold exactly `expectedCount` bytes.
    static func inflate(_ compressed: [UInt8], expectedCount: Int) throws(PNGDecodingError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PNGDecodingError("zlib inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        // One spare byte shows data beyond what the header allows.
        var output = [UInt8](repeating: 0, count: expectedCount + 1)
        var input = compressed
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
            throw PNGDecodingError("IDAT does not inflate to \(expectedCount) bytes: \(message)")
        }
        guard stream.avail_in == 0 else { throw PNGDecodingError("data after the end of the zlib stream") }
        let produced = output.count - Int(stream.avail_out)
        guard produced == expectedCount else {
            throw PNGDecodingError("IDAT inflates to \(produced) bytes, expected \(expectedCount)")
        }
        return Array(output.prefix(expectedCount))
    }

    /// Undoes the per-row filters; returns rows without their type bytes.
    static func unfilter(_ data: [UInt8], rowBytes: Int, height: Int, stride: Int) throws(PNGDecodingError) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let type = data[y * (rowBytes + 1)]
            let source = y * (rowBytes + 1) + 1
            let row = y * rowBytes
            for i in 0..<rowBytes {
                let left = i >= stride ? rows[row + i - stride] : 0
                let up = y > 0 ? rows[row - rowBytes + i] : 0
                let upperLeft = y > 0 && i >= stride ? rows[row - rowBytes + i - stride] : 0
                let predictor: UInt8
                switch type {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = UInt8((Int(left) + Int(up)) / 2)
                case 4: predictor = paeth(left, up, upperLeft)
                default: throw PNGDecodingError("row \(y) has filter type \(type)")
                }
                rows[row + i] = data[source + i] &+ predictor
            }
        }
        return rows
    }

    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}

/// IHDR's fields, checked.
struct Header {
    var width: Int
    var height: Int
    var bitDepth: UInt8
    var colorType: UInt8

    /// Samples per pixel for each colour type.
    static let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
    /// The bit depths each colour type allows.
    static let depths: [UInt8: Set<UInt8>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]

    init(_ data: [UInt8]) throws(PNGDecodingError) {
        guard data.count == 13 else { throw PNGDecodingError("IHDR has \(data.count) bytes, not 13") }
        width = Int(PNGDecoder.bigEndian32(data, at: 0))
        height = Int(PNGDecoder.bigEndian32(data, at: 4))
        bitDepth = data[8]
        colorType = data[9]
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw PNGDecodingError("IHDR size \(width)×\(height) is not allowed")
        }
        guard Header.depths[colorType]?.contains(bitDepth) == true else {
            throw PNGDecodingError("IHDR colour type \(colorType) with bit depth \(bitDepth) is not allowed")
        }
        guard data[10] == 0, data[11] == 0 else { throw PNGDecodingError("IHDR compression or filter method is not 0") }
        guard data[12] == 0 else { throw PNGDecodingError("interlaced images are not supported") }
    }

    var bitsPerPixel: Int { (Header.channels[colorType] ?? 1) * Int(bitDepth) }
    var rowBytes: Int { (width * bitsPerPixel + 7) / 8 }
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// PLTE only with a colour type that uses it (required for indexed), and
    /// a tRNS of the size the colour type gives it.
    func check(palette: [UInt8], transparency: [UInt8]) throws(PNGDecodingError) {
        switch colorType {
        case 3:
            guard !palette.isEmpty, palette.count % 3 == 0, palette.count / 3 <= 1 << Int(bitDepth) else {
                throw PNGDecodingError("PLTE has \(palette.count) bytes, not 3 × 1…\(1 << Int(bitDepth)) entries")
            }
            guard transparency.count <= palette.count / 3 else { throw PNGDecodingError("tRNS is longer than PLTE") }
        case 0, 4:
            guard palette.isEmpty else { throw PNGDecodingError("PLTE in a greyscale image") }
        default:
            guard palette.isEmpty || palette.count % 3 == 0 else { throw PNGDecodingError("PLTE length is not a multiple of 3") }
        }
        let allowed: Int? = [0: 2, 2: 6, 3: transparency.count][colorType]
        if !transparency.isEmpty && allowed != transparency.count {
            throw PNGDecodingError("tRNS of \(transparency.count) bytes with colour type \(colorType)")
        }
    }

    /// Sample `index` (counted in samples) of a row: depths below 8 are
    /// packed most significant bits first; 16-bit samples give their high byte.
    func sample(_ rows: [UInt8], row: Int, index: Int) -> Int {
        let depth = Int(bitDepth)
        if depth == 16 { return Int(rows[row * rowBytes + index * 2]) << 8 | Int(rows[row * rowBytes + index * 2 + 1]) }
        let bit = index * depth
        let byte = rows[row * rowBytes + bit / 8]
        return Int(byte >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
    }

    /// A sample scaled to 8 bits.
    func eightBit(_ value: Int) -> UInt8 {
        switch bitDepth {
        case 16: UInt8(value >> 8)
        case 8: UInt8(value)
        default: UInt8(value * 255 / ((1 << Int(bitDepth)) - 1))
        }
    }

    func expand(_ rows: [UInt8], palette: [UInt8], transparency: [UInt8]) throws(PNGDecodingError) -> [UInt8] {
        let channels = Header.channels[colorType] ?? 1
        // A grey or RGB colour key as samples at the image's depth (16 bits each).
        let key = colorType == 3 ? [] : stride(from: 0, to: transparency.count - 1, by: 2).map { Int(transparency[$0]) << 8 | Int(transparency[$0 + 1]) }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let samples = (0..<channels).map { sample(rows, row: y, index: x * channels + $0) }
                let pixel: [UInt8]
                switch colorType {
                case 3:
                    let index = samples[0]
                    guard index < palette.count / 3 else { throw PNGDecodingError("pixel (\(x), \(y)) has index \(index) beyond PLTE") }
                    let alpha = index < transparency.count ? transparency[index] : 255
                    pixel = [palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha]
                case 0:
                    let grey = eightBit(samples[0])
                    pixel = [grey, grey, grey, samples == key ? 0 : 255]
                case 4:
                    let grey = eightBit(samples[0])
                    pixel = [grey, grey, grey, eightBit(samples[1])]
                case 2:
                    pixel = samples.map(eightBit) + [samples == key ? 0 : 255]
                default:
                    pixel = samples.map(eightBit)
                }
                let offset = (y * width + x) * 4
                rgba.replaceSubrange(offset ..< offset + 4, with: pixel)
            }
        }
        return rgba
    }
}
