import CGif

/// A GIF's screen as a browser paints it: each frame drawn over what the
/// previous frame's disposal left (its transparent index leaving pixels as
/// they are, indexes beyond its colour table too), clipped to the screen,
/// on a canvas that starts transparent.
struct GIFCanvas {
    private(set) var image: DecodedImage
    /// The frame drawn last, whose disposal comes before the next frame.
    private var last: GIFFrameInfo?
    /// The canvas before the last frame, kept only when that frame's disposal is `previous`.
    private var beforeLast: [UInt8]?

    init(width: Int, height: Int) {
        image = DecodedImage(transparentWidth: width, height: height)
    }

    /// Applies the last frame's disposal, then draws `frame` from `stream`'s current image.
    mutating func draw(_ frame: GIFFrameInfo, from stream: GIFStream) throws(ImageDecodingError) {
        dispose()
        if frame.disposal == .previous { beforeLast = image.pixels }
        last = frame
        let visible = max(0, min(frame.left + frame.width, image.width) - frame.left)
        let (width, height) = (image.width, image.height)
        var failure: ImageDecodingError?
        image.pixels.withUnsafeMutableBytes { canvas in
            do throws(ImageDecodingError) {
                try stream.readRows(frame) { y, indexes, colors in
                let row = frame.top + y
                    guard row < height, visible > 0 else { return }
                    var out = (row * width + frame.left) * 4
                    for x in 0..<visible {
                        let index = Int(indexes[x])
                        if index != frame.transparentIndex, index < colors.count {
                            let color = colors[index]
                            canvas[out] = color.Red
                            canvas[out + 1] = color.Green
                            canvas[out + 2] = color.Blue
                            canvas[out + 3] = 255
                        }
                        out += 4
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private mutating func dispose() {
        guard let last else { return }
        switch last.disposal {
        case .keep:
            break
        case .background:
            // The rectangle clipped to the screen, which it may lie partly or wholly outside.
            let right = min(last.left + last.width, image.width)
            let bottom = min(last.top + last.height, image.height)
            guard last.left < right, last.top < bottom else { break }
            for row in last.top..<bottom {
                let start = (row * image.width + last.left) * 4
                image.pixels.withUnsafeMutableBufferPointer { $0[start..<(start + (right - last.left) * 4)].update(repeating: 0) }
            }
        case .previous:
            if let beforeLast { image.pixels = beforeLast }
        }
        beforeLast = nil
    }
}
