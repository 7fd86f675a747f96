/// A JPEG's EXIF orientation (TIFF 6.0 tag 274): how the stored pixels are
/// turned or mirrored to be shown upright. Browsers apply it
/// (`image-orientation: from-image`), and so do the decoders here.
struct JPEGOrientation: Equatable {
    /// 1 (as stored) to 8.
    let rawValue: Int

    static let upright = JPEGOrientation(rawValue: 1)

    private init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Whether width and height trade places (5 to 8 turn by a quarter).
    var swapsSides: Bool { rawValue >= 5 }

    /// The orientation in the `Exif` APP1 segment of the JPEG in `bytes`;
    /// upright when there is none, or when it cannot be read (anything out
    /// of bounds or out of range is ignored, never trusted).
    init(exifIn bytes: UnsafeRawBufferPointer) {
        self = Self.segments(in: bytes).lazy.compactMap(Self.orientation(inAPP1:)).first ?? .upright
    }

    /// The APP1 segments' contents, before the first scan.
    private static func segments(in bytes: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer] {
        var found: [UnsafeRawBufferPointer] = []
        var index = 2 // after SOI
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xFF { // fill byte
                index += 1
                continue
            }
            // SOS or EOI: no more headers. TEM and RSTn have no length.
            if marker == 0xDA || marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { break }
            if marker == 0xE1 { found.append(UnsafeRawBufferPointer(rebasing: bytes[(index + 4)..<(index + 2 + length)])) }
            index += 2 + length
        }
        return found
    }

    /// The orientation in one APP1 segment, if it is EXIF and has one.
    private static func orientation(inAPP1 segment: UnsafeRawBufferPointer) -> JPEGOrientation? {
        guard segment.count >= 14, segment.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: segment[6...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            let field = tiff[offset..<(offset + size)]
            return (littleEndian ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let directory = read(4, 4), let entries = read(directory, 2) else { return nil }
        for entry in 0..<entries {
            let start = directory + 2 + entry * 12
            // Tag 274, type SHORT, count 1: the value sits in the entry's first two value bytes.
            guard let tag = read(start, 2) else { return nil }
            guard tag == 274 else { continue }
            guard read(start + 2, 2) == 3, read(start + 4, 4) == 1, let value = read(start + 8, 2), (1...8).contains(value) else {
                return nil
            }
            return JPEGOrientation(rawValue: value)
        }
        return nil
    }
}
