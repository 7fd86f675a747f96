/// How far a lighter picture looks from the exact one: a cheap stand-in for
/// SSIMULACRA2 that a carousel's budget planner can afford on samples, with
/// its two virtues: it does not take a GIF's dither (fine noise that averages
/// out) for damage, and it sees banding and blur (errors that do not).
///
/// Both pictures are straight RGBA of one size; pixels inside `excluded` are
/// left out (the indicator's box, which is never made lighter). The
/// differences are taken in luma and chroma (BT.601 weights, chroma at half
/// weight) and pooled three ways, each as a mean absolute value:
/// - `fine`: per pixel (dither, lossy smears, blur alike);
/// - `coarse`: over 4 × 4 blocks (what survives averaging: banding, colour
///   shifts, smears; a dither's noise mostly cancels);
/// - `detailLoss`: how much local contrast (the luma step to the right and
///   below) the lighter picture lost where the exact one had it (blur).
///
/// `score` folds them into one number on SSIMULACRA2's scale (100 is the
/// same picture; `bench/carousel` fits its weights and checks that
/// SSIMULACRA2 ranks the planner's choices alike).
public struct LookDistance: Sendable, Equatable {
    public var fine: Double
    public var coarse: Double
    public var detailLoss: Double

    /// The weights of `score`, fitted to SSIMULACRA2 on photographs.
    static let weights = (fine: 0.9, coarse: 4.0, detailLoss: 2.2)

    /// The distance of `candidate` from `exact`, both `width × height`.
    public init(exact: [UInt8], candidate: [UInt8], width: Int, height: Int, excluded: PixelRect = .empty) {
        precondition(exact.count == width * height * 4 && candidate.count == exact.count, "two pictures of \(width)×\(height)")
        let exactLuma = Self.luma(exact), candidateLuma = Self.luma(candidate)
        let blocksAcross = (width + 3) / 4, blocksDown = (height + 3) / 4
        var blockSums = [Double](repeating: 0, count: blocksAcross * blocksDown * 3)
        var blockCounts = [Int](repeating: 0, count: blocksAcross * blocksDown)
        var fineSum = 0.0, lossSum = 0.0, counted = 0, steps = 0
        for y in 0..<height {
            for x in 0..<width where !excluded.contains(x: x, y: y) {
                let index = y * width + x, offset = index * 4
                let dy = Double(candidateLuma[index] - exactLuma[index])
                // Chroma as the blue and red differences from luma.
                let du = Double(Int(candidate[offset + 2]) - Int(exact[offset + 2])) - dy
                let dv = Double(Int(candidate[offset]) - Int(exact[offset])) - dy
                fineSum += abs(dy) + Self.chromaWeight * (abs(du) + abs(dv))
                counted += 1
                let block = (y / 4) * blocksAcross + x / 4
                blockSums[block * 3] += dy
                blockSums[block * 3 + 1] += du
                blockSums[block * 3 + 2] += dv
                blockCounts[block] += 1
                // Local contrast: the luma step to the right and the one down, where both pixels count.
                if x + 1 < width, !excluded.contains(x: x + 1, y: y) {
                    lossSum += Double(max(0, abs(exactLuma[index + 1] - exactLuma[index]) - abs(candidateLuma[index + 1] - candidateLuma[index])))
                    steps += 1
                }
                if y + 1 < height, !excluded.contains(x: x, y: y + 1) {
                    lossSum += Double(max(0, abs(exactLuma[index + width] - exactLuma[index]) - abs(candidateLuma[index + width] - candidateLuma[index])))
                    steps += 1
                }
            }
        }
        var coarseSum = 0.0, blocks = 0
        for block in blockCounts.indices where blockCounts[block] > 0 {
            let count = Double(blockCounts[block])
            let (dy, du, dv) = (blockSums[block * 3] / count, blockSums[block * 3 + 1] / count, blockSums[block * 3 + 2] / count)
            coarseSum += abs(dy) + Self.chromaWeight * (abs(du) + abs(dv))
            blocks += 1
        }
        fine = counted > 0 ? fineSum / Double(counted) : 0
        coarse = blocks > 0 ? coarseSum / Double(blocks) : 0
        detailLoss = steps > 0 ? lossSum / Double(steps) : 0
    }

    /// Each chroma difference's weight beside luma's.
    private static let chromaWeight = 0.25

    /// Each pixel's luma (BT.601), 0…255.
    private static func luma(_ pixels: [UInt8]) -> [Float] {
        (0..<(pixels.count / 4)).map { index in
            let offset = index * 4
            return 0.299 * Float(pixels[offset]) + 0.587 * Float(pixels[offset + 1]) + 0.114 * Float(pixels[offset + 2])
        }
    }

    /// On SSIMULACRA2's scale: 100 for the same picture, lower the further.
    public var score: Double {
        100 - Self.weights.fine * fine - Self.weights.coarse * coarse - Self.weights.detailLoss * detailLoss
    }
}

extension RGBAResampling {
    /// `source` (`width × height`, straight RGBA) resampled bilinearly to
    /// `newWidth × newHeight`, each new pixel's centre mapped onto the
    /// source's (edges clamped): a lighter carousel's smaller frame brought
    /// back to the size it is compared at.
    public static func bilinear(_ source: [UInt8], width: Int, height: Int, toWidth newWidth: Int, height newHeight: Int) -> [UInt8] {
        precondition(source.count == width * height * 4 && width > 0 && height > 0, "a picture of \(width)×\(height)")
        if newWidth == width && newHeight == height { return source }
        // Where each new column and row falls: the two source ones and the
        // second's weight, in 256ths.
        func taps(_ count: Int, from sourceCount: Int) -> [(Int, Int, Int)] {
            let ratio = Double(sourceCount) / Double(count)
            return (0..<count).map { index in
                let position = min(max((Double(index) + 0.5) * ratio - 0.5, 0), Double(sourceCount - 1))
                let first = Int(position)
                return (first, min(first + 1, sourceCount - 1), Int(((position - Double(first)) * 256).rounded()))
            }
        }
        let columns = taps(newWidth, from: width), rows = taps(newHeight, from: height)
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        source.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                var out = 0
                for (top, bottom, down) in rows {
                    let topRow = top * width * 4, bottomRow = bottom * width * 4
                    for (left, right, across) in columns {
                        for channel in 0..<4 {
                            let upper = Int(source[topRow + left * 4 + channel]) * (256 - across) + Int(source[topRow + right * 4 + channel]) * across
                            let lower = Int(source[bottomRow + left * 4 + channel]) * (256 - across) + Int(source[bottomRow + right * 4 + channel]) * across
                            output[out] = UInt8((upper * (256 - down) + lower * down + 32768) >> 16)
                            out += 1
                        }
                    }
                }
            }
        }
        return output
    }
}

/// Pictures resampled to another size.
public enum RGBAResampling {}
