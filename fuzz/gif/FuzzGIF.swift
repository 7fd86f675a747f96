// libFuzzer harness for the GIF encoder: compiled together with
// Sources/PagedotsGIF/*.swift and the tests' GIFReader and ExpectedPlayback
// as one module (see scripts/fuzz).
//
// The input drives an animation: its size (up to 40×20), a matte, how many
// times it plays, a few colours (alpha 0, 255 or between), and up to eight
// frames, each the one before with rectangles filled with a colour or with
// noise, and a delay. The harness encodes it, reads the file back with
// giflib and plays it: every frame must show exactly the input over the
// matte (frames merged where they look the same), with the summed delays and
// the loop count. A frame with more colours than a palette holds may be
// quantised, and what it leaves on screen stays approximate until redrawn:
// from it on, only transparency must be exact.

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
            let x = input.next() % width, y = input.next() % height
            let w = 1 + input.next() % (width - x), h = 1 + input.next() % (height - y)
            let noise = input.next() % 8 == 0
            let color = colors[input.next() % colors.count]
            var seed = UInt64(input.next())
            for row in y..<y + h {
                for column in x..<x + w {
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

    let gif = GIFEncoder().encode(FrameList(width: width, height: height, count: frames.count) { frames[$0] }, plays: plays, matte: matte)
    let read: GIFReader
    do {
        read = try GIFReader(gif)
    } catch {
        preconditionFailure("giflib cannot read the file: \(error)")
    }
    precondition(read.width == width && read.height == height, "screen size")
    let expected = frames.isEmpty ? [([UInt8](repeating: 0, count: width * height * 4), 0)] : ExpectedPlayback.frames(frames, matte: matte)
    // A still (one frame after merging) has no loop extension.
    precondition(read.plays == (expected.count > 1 ? plays : 1), "plays \(read.plays), expected \(plays)")
    precondition(read.frames.count == expected.count, "\(read.frames.count) frames, expected \(expected.count)")
    var approximate = false
    for (number, (frame, wanted)) in zip(read.frames, expected).enumerated() {
        if expected.count > 1 {
            precondition(frame.delay == wanted.1 / 10, "frame \(number): delay \(String(describing: frame.delay)), expected \(wanted.1 / 10)")
        }
        approximate = approximate || distinctOpaqueColors(wanted.0) > 255
        if !approximate {
            precondition(frame.canvas == wanted.0, "frame \(number) differs from the input over the matte")
        } else {
            for index in stride(from: 3, to: frame.canvas.count, by: 4) {
                precondition(frame.canvas[index] == wanted.0[index], "frame \(number): transparency differs at pixel \(index / 4)")
            }
        }
    }
    return 0
}

/// Distinct opaque colours of a composited frame.
private func distinctOpaqueColors(_ canvas: [UInt8]) -> Int {
    var colors = Set<UInt32>()
    for start in stride(from: 0, to: canvas.count, by: 4) where canvas[start + 3] != 0 {
        colors.insert(UInt32(canvas[start]) | UInt32(canvas[start + 1]) << 8 | UInt32(canvas[start + 2]) << 16)
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
}
