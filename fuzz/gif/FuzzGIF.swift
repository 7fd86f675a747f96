// libFuzzer harness for the GIF encoder: compiled together with
// Sources/PagedotsGIF/*.swift and the tests' GIFReader and ExpectedPlayback
// as one module (see scripts/fuzz).
//
// The input drives an animation: its size (up to 40×20), a matte, how many
// times it plays, a few colours (alpha 0, 255 or between), and up to eight
// frames, each the one before with rectangles filled with a colour or with
// noise, and a delay. The harness encodes it twice, as it is and with the
// settings the input picks next (photographic or flat, a lossy level, a
// colour limit, up to two protected rectangles), reads each file back with
// giflib and plays it: every frame must show the input over the matte
// (frames merged where they look the same), with the summed delays and the
// loop count. Without loss, exactly; with loss, each pixel within
// `LossyMatching`'s bound, and exactly inside the protected rectangles. A
// frame with more colours than a palette holds may be quantised, and what it
// leaves on screen stays approximate until redrawn: from it on, only
// transparency must be exact.
//
// Then the rest of the input drives one image compressed lossily on its
// own: its indices, palette, transparent index, pixels to keep and level.
// giflib must read back the indices the compressor reports, each within the
// bound of its own colour, those kept and the transparent ones unchanged.

import PagedotsPixels

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let width = 1 + input.next() % 40, height = 1 + input.next() % 20
    let plays = input.next() % 4
    let matte = (red: UInt8(input.next()), green: UInt8(input.next()), blue: UInt8(input.next()))
    let colors: [[UInt8]] = (0...input.next() % 8).map { _ in
        let alpha: UInt8 = switch input.next() % 3 { case 0: 0; case 1: 255; default: UInt8(input.next()) }
        return [UInt8(input.next()), UInt8(input.next()), UInt8(input.next()), alpha]
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var frames: [(pixels: [UInt8], delayMilliseconds: Int)] = []
    for _ in 0..<input.next() % 9 {
        for _ in 0..<input.next() % 4 {
            let rect = input.rect(within: width, height)
            let noise = input.next() % 8 == 0
            let color = colors[input.next() % colors.count]
            var seed = UInt64(input.next())
            for row in rect.y..<rect.maxY {
                for column in rect.x..<rect.maxX {
                    let start = (row * width + column) * 4
                    for channel in 0..<4 {
                        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        pixels[start + channel] = noise ? UInt8(truncatingIfNeeded: seed >> 56) : color[channel]
                    }
                }
            }
        }
        frames.append((pixels, (2 + input.next() % 50) * 10))
    }
    let expected = frames.isEmpty ? [([UInt8](repeating: 0, count: width * height * 4), 0)] : ExpectedPlayback.frames(frames, matte: matte)
    let animation = Animation(width: width, height: height, plays: plays, matte: matte, frames: frames, expected: expected)
    animation.check(settings: .flat)

    var settings = input.next() % 2 == 0 ? QuantizerSettings.flat : .photographic
    settings = settings.lossy(input.next() * 4).limitingColors(to: 2 + input.next())
    settings = settings.protecting((0..<input.next() % 3).map { _ in input.rect(within: width, height) })
    animation.check(settings: settings)

    checkLossyImage(&input)
    return 0
}

/// An animation, and the frames a browser should show for it.
private struct Animation {
    let width: Int
    let height: Int
    let plays: Int
    let matte: (red: UInt8, green: UInt8, blue: UInt8)
    let frames: [(pixels: [UInt8], delayMilliseconds: Int)]
    let expected: [(canvas: [UInt8], delayMilliseconds: Int)]

    /// Encodes with `settings` and checks the file as the header says.
    func check(settings: QuantizerSettings) {
        let gif = GIFEncoder(quantizing: settings).encode(FrameList(width: width, height: height, count: frames.count) { frames[$0] }, plays: plays, matte: matte)
        let read: GIFReader
        do {
            read = try GIFReader(gif)
        } catch {
            preconditionFailure("giflib cannot read the file: \(error)")
        }
        precondition(read.width == width && read.height == height, "screen size")
        // A still (one frame after merging) has no loop extension.
        precondition(read.plays == (expected.count > 1 ? plays : 1), "plays \(read.plays), expected \(plays)")
        precondition(read.frames.count == expected.count, "\(read.frames.count) frames, expected \(expected.count)")
        let threshold = 10 * settings.loss
        var approximate = false
        for (number, (frame, wanted)) in zip(read.frames, expected).enumerated() {
            if expected.count > 1 {
                precondition(frame.delay == wanted.1 / 10, "frame \(number): delay \(String(describing: frame.delay)), expected \(wanted.1 / 10)")
            }
            approximate = approximate || distinctOpaqueColors(wanted.0) > 255
            for pixel in 0..<width * height {
                let shown = frame.canvas[4 * pixel..<4 * pixel + 4], exact = wanted.0[4 * pixel..<4 * pixel + 4]
                precondition(shown.last == exact.last, "frame \(number): transparency differs at pixel \(pixel)")
                guard !approximate && shown != exact else { continue }
                let isProtected = settings.protectedRects.contains { $0.contains(x: pixel % width, y: pixel / width) }
                precondition(threshold > 0 && !isProtected, "frame \(number) differs from the input over the matte at pixel \(pixel)")
                precondition(LossyMatching.isWithinBound(rgb(exact), rgb(shown), threshold: threshold), "frame \(number): pixel \(pixel) past the bound")
            }
        }
    }
}

/// One image compressed lossily, as the input says, and read back with giflib.
private func checkLossyImage(_ input: inout FuzzInput) {
    let width = 1 + input.next() % 64, height = 1 + input.next() % 32
    let colors = (0..<(2 + input.next() % 63)).map { _ in UInt32(input.next()) | UInt32(input.next()) << 8 | UInt32(input.next()) << 16 }
    let transparentIndex = input.next() % 2 == 0 ? input.next() % colors.count : nil
    let loss = input.next() * 4
    // Runs of indices, each from a few neighbouring ones, so that strings nearly repeat.
    var indices: [UInt8] = []
    while indices.count < width * height {
        let base = input.next() % colors.count, spread = 1 + input.next() % 4
        for step in 0..<(1 + input.next() % 16) {
            indices.append(UInt8((base + step % spread) % colors.count))
        }
    }
    indices.removeLast(indices.count - width * height)
    let kept = input.rect(within: width, height)
    let exactPixels = (0..<indices.count).map { kept.contains(x: $0 % width, y: $0 / width) }
    let file = GIFFileWriter(width: width, height: height, globalColors: nil, globalSize: 0, backgroundIndex: 0, lzw: LZWCompressor())
    if let transparentIndex {
        file.appendGraphicControl(delayCentiseconds: 0, disposal: .keep, transparentIndex: transparentIndex)
    }
    var written = indices
    let matching = LossyMatching(loss: loss, colors: colors, transparentIndex: transparentIndex, exactPixels: exactPixels)
    let tableSize = 1 << max(1, Int.bitWidth - (colors.count - 1).leadingZeroBitCount)
    file.appendImage(rect: PixelRect(x: 0, y: 0, width: width, height: height), localColors: colors, localSize: tableSize, codeBits: 0,
                     indices: &written, lossy: matching)
    file.finish()
    var gif: [UInt8] = []
    file.flush { gif += $0 }
    let canvas: [UInt8]
    do {
        guard let frame = try GIFReader(gif).frames.first else { preconditionFailure("no image read back") }
        canvas = frame.canvas
    } catch {
        preconditionFailure("giflib cannot read the image: \(error)")
    }
    for pixel in indices.indices {
        let own = Int(indices[pixel]), read = Int(written[pixel])
        precondition((own == transparentIndex) == (read == transparentIndex), "pixel \(pixel): transparency changed")
        precondition(canvas[4 * pixel + 3] == (read == transparentIndex ? 0 : 255), "pixel \(pixel): not read back as reported")
        guard read != transparentIndex else { continue }
        precondition(rgb(canvas[4 * pixel..<4 * pixel + 4]) == colors[read], "pixel \(pixel): not read back as reported")
        precondition(!exactPixels[pixel] || read == own, "pixel \(pixel): kept pixel changed")
        precondition(LossyMatching.isWithinBound(colors[own], colors[read], threshold: 10 * loss), "pixel \(pixel): past the bound")
    }
}

/// The RGB of four RGBA bytes.
private func rgb(_ rgba: ArraySlice<UInt8>) -> UInt32 {
    let start = rgba.startIndex
    return UInt32(rgba[start]) | UInt32(rgba[start + 1]) << 8 | UInt32(rgba[start + 2]) << 16
}

/// Distinct opaque colours of a composited frame.
private func distinctOpaqueColors(_ canvas: [UInt8]) -> Int {
    var colors = Set<UInt32>()
    for start in stride(from: 0, to: canvas.count, by: 4) where canvas[start + 3] != 0 {
        colors.insert(rgb(canvas[start..<start + 4]))
    }
    return colors.count
}

/// The fuzzer's bytes, one at a time; zeros once they run out.
private struct FuzzInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func next() -> Int {
        defer { offset += 1 }
        return offset < bytes.count ? Int(bytes[offset]) : 0
    }

    /// A rectangle of at least one pixel inside `width` × `height`.
    mutating func rect(within width: Int, _ height: Int) -> PixelRect {
        let x = next() % width, y = next() % height
        return PixelRect(x: x, y: y, width: 1 + next() % (width - x), height: 1 + next() % (height - y))
    }
}
