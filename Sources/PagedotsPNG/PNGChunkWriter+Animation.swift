/// The chunks that make a PNG an APNG, and the colour key its RGB frames blend with.
extension PNGChunkWriter {
    /// acTL: how many frames, and how many times they play (0: forever).
    mutating func appendAnimationControl(frameCount: Int, plays: UInt32) {
        appendChunk("acTL") { data in
            Self.appendBigEndian(UInt32(frameCount), to: &data)
            Self.appendBigEndian(plays, to: &data)
        }
    }

    /// fcTL: a frame's region, delay, dispose and blend operations.
    mutating func appendFrameControl(_ control: FrameControl, sequence: UInt32) {
        appendChunk("fcTL") { data in
            for field in [sequence, UInt32(control.rect.width), UInt32(control.rect.height), UInt32(control.rect.x), UInt32(control.rect.y)] {
                Self.appendBigEndian(field, to: &data)
            }
            let delay = control.delay
            data.append(contentsOf: [UInt8(delay.numerator >> 8), UInt8(delay.numerator & 0xFF), UInt8(delay.denominator >> 8), UInt8(delay.denominator & 0xFF)])
            data.append(contentsOf: [control.dispose.rawValue, control.blend.rawValue])
        }
    }

    /// fdAT: a later frame's zlib stream, after its sequence number.
    mutating func appendFrameData(_ stream: [UInt8], sequence: UInt32) {
        appendChunk("fdAT") { data in
            Self.appendBigEndian(sequence, to: &data)
            data.append(contentsOf: stream)
        }
    }

    /// tRNS for an RGB image: the colour key, each sample as 16 bits.
    mutating func appendColorKey(_ key: PackedPixel) {
        appendChunk("tRNS") { data in
            data.append(contentsOf: [0, key.red, 0, key.green, 0, key.blue])
        }
    }
}
