/// How the rows of one candidate encoding are filtered.
enum RowFiltering {
    /// Filter type 0 on every row: best for palette indices and for images
    /// made of a few repeated shapes, whose rows repeat byte for byte.
    case none
    /// Per row, the filter type whose output has the smallest sum of
    /// absolute (signed) values: the classic heuristic, best for gradients.
    case minimumSum
}

/// An image's rows in a PNG layout, packed but not yet filtered: bytes
/// `rowBytes × height`, each row padded to a whole byte.
struct Scanlines {
    let layout: PixelLayout
    let rowBytes: Int
    let height: Int
    let bytes: [UInt8]

    /// Packs straight RGBA pixels into `layout`. An indexed layout needs the
    /// palette's indices assigned in `colors`.
    init(rgba pixels: UnsafeRawBufferPointer, width: Int, height: Int, layout: PixelLayout, colors: ColorTable?) {
        self.layout = layout
        self.rowBytes = layout.rowBytes(width: width)
        self.height = height
        // Every byte is written below: no need to zero them first.
        let count = rowBytes * height
        self.bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            switch layout {
            case .indexed(let depth):
                let table = colors ?? ColorTable()
                Self.packSamples(pixels, width: width, height: height, bitDepth: depth, into: out) { table.index(of: $0) }
            case .grey(let depth):
                let step = UInt8(255 / ((1 << depth) - 1))
                Self.packSamples(pixels, width: width, height: height, bitDepth: depth, into: out) { $0.red / step }
            case .greyAlpha:
                for index in 0..<width * height {
                    let pixel = pixels.pixel(at: index)
                    out[2 * index] = pixel.red
                    out[2 * index + 1] = pixel.alpha
                }
            case .rgb:
                for index in 0..<width * height {
                    let pixel = pixels.pixel(at: index)
                    out[3 * index] = pixel.red
                    out[3 * index + 1] = pixel.green
                    out[3 * index + 2] = pixel.blue
                }
            case .rgba:
                UnsafeMutableRawBufferPointer(out).copyMemory(from: pixels)
            }
            initialized = count
        }
    }

    /// One sample of `bitDepth` bits per pixel, most significant bits first.
    /// A pixel equal to the one before reuses its sample (runs are common, and
    /// a palette look-up is a hash probe).
    @inline(__always)
    private static func packSamples(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int,
        into out: UnsafeMutableBufferPointer<UInt8>, sample: (PackedPixel) -> UInt8
    ) {
        var previous = pixels.pixel(at: 0)
        var previousSample = sample(previous)
        var outIndex = 0
        for y in 0..<height {
            var accumulator: UInt8 = 0
            var bits = 0
            for x in 0..<width {
                let pixel = pixels.pixel(at: y * width + x)
                if pixel != previous {
                    previous = pixel
                    previousSample = sample(pixel)
                }
                if bitDepth == 8 {
                    out[outIndex] = previousSample
                    outIndex += 1
                    continue
                }
                accumulator = accumulator << bitDepth | previousSample
                bits += bitDepth
                if bits == 8 {
                    out[outIndex] = accumulator
                    outIndex += 1
                    accumulator = 0
                    bits = 0
                }
            }
            if bits > 0 {
                out[outIndex] = accumulator << (8 - bits)
                outIndex += 1
            }
        }
    }

    /// The rows with a filter-type byte before each, as IDAT compresses them.
    func filtered(_ filtering: RowFiltering) -> [UInt8] {
        let lineBytes = rowBytes + 1
        // Row -1 is zeros.
        let zeroRow = [UInt8](repeating: 0, count: filtering == .none ? 0 : rowBytes)
        let stride = layout.filterStride
        // Every byte is written below: no need to zero them first.
        return [UInt8](unsafeUninitializedCapacity: lineBytes * height) { out, initialized in
            bytes.withUnsafeBufferPointer { raw in
                zeroRow.withUnsafeBufferPointer { zeros in
                    for y in 0..<height {
                        let row = UnsafeBufferPointer(rebasing: raw[y * rowBytes ..< (y + 1) * rowBytes])
                        let line = UnsafeMutableBufferPointer(rebasing: out[y * lineBytes + 1 ..< (y + 1) * lineBytes])
                        switch filtering {
                        case .none:
                            out[y * lineBytes] = 0
                            _ = line.initialize(fromContentsOf: row)
                        case .minimumSum:
                            let prior = y == 0 ? zeros : UnsafeBufferPointer(rebasing: raw[(y - 1) * rowBytes ..< y * rowBytes])
                            out[y * lineBytes] = Self.filterCheapest(row, prior: prior, stride: stride, into: line)
                        }
                    }
                }
            }
            initialized = lineBytes * height
        }
    }

    /// Writes into `line` the filter type whose output for `row` has the
    /// smallest sum of absolute values, and returns that type. Scores are
    /// counted without writing, and a type stops counting once it cannot win.
    private static func filterCheapest(
        _ row: UnsafeBufferPointer<UInt8>, prior: UnsafeBufferPointer<UInt8>, stride: Int,
        into line: UnsafeMutableBufferPointer<UInt8>
    ) -> UInt8 {
        var bestType = 0
        var bestScore = Int.max
        for type in 0..<5 {
            let score = filter(type, row, prior: prior, stride: stride, stoppingAt: bestScore, into: nil)
            if score < bestScore {
                bestScore = score
                bestType = type
            }
        }
        _ = filter(bestType, row, prior: prior, stride: stride, stoppingAt: .max, into: line)
        return UInt8(bestType)
    }

    /// Applies PNG filter `type` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) to
    /// `row`, writing the output into `out` when given, and returns the sum of
    /// the outputs' absolute values as signed bytes, or some sum of at least
    /// `limit` once the running sum reaches it.
    private static func filter(
        _ type: Int, _ row: UnsafeBufferPointer<UInt8>, prior: UnsafeBufferPointer<UInt8>, stride: Int,
        stoppingAt limit: Int, into out: UnsafeMutableBufferPointer<UInt8>?
    ) -> Int {
        // One specialised loop per type: the predictor closures inline.
        switch type {
        case 0: applyFilter(row, prior: prior, stride: stride, limit: limit, into: out) { _, _, _ in 0 }
        case 1: applyFilter(row, prior: prior, stride: stride, limit: limit, into: out) { left, _, _ in left }
        case 2: applyFilter(row, prior: prior, stride: stride, limit: limit, into: out) { _, up, _ in up }
        case 3: applyFilter(row, prior: prior, stride: stride, limit: limit, into: out) { left, up, _ in UInt8((UInt16(left) + UInt16(up)) >> 1) }
        default: applyFilter(row, prior: prior, stride: stride, limit: limit, into: out, predictor: paeth)
        }
    }

    /// `row` minus `predictor(left, up, upperLeft)` for every byte (bytes
    /// left of the first pixel count as 0); see `filter`.
    @inline(__always)
    private static func applyFilter(
        _ row: UnsafeBufferPointer<UInt8>, prior: UnsafeBufferPointer<UInt8>, stride: Int, limit: Int,
        into out: UnsafeMutableBufferPointer<UInt8>?, predictor: (UInt8, UInt8, UInt8) -> UInt8
    ) -> Int {
        var score = 0
        var i = 0
        while i < row.count {
            // Checking the limit every 64 bytes keeps the inner loop simple.
            let end = min(i + 64, row.count)
            while i < end {
                let value = i >= stride
                    ? row[i] &- predictor(row[i - stride], prior[i], prior[i - stride])
                    : row[i] &- predictor(0, prior[i], 0)
                out?[i] = value
                score &+= Int(Int8(bitPattern: value).magnitude)
                i += 1
            }
            if score >= limit {
                return score
            }
        }
        return score
    }

    /// The Paeth predictor: whichever of left, up, upper-left is closest to left + up − upper-left.
    @inline(__always)
    private static func paeth(_ left: UInt8, _ up: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(up) - Int(upperLeft)
        let toLeft = abs(estimate - Int(left)), toUp = abs(estimate - Int(up)), toUpperLeft = abs(estimate - Int(upperLeft))
        if toLeft <= toUp && toLeft <= toUpperLeft { return left }
        return toUp <= toUpperLeft ? up : upperLeft
    }
}
