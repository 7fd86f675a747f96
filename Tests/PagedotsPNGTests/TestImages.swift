#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Deterministic test images as straight RGBA bytes.
struct TestImage {
    var width: Int
    var height: Int
    var rgba: [UInt8]

    /// Each pixel from `color(x, y)`.
    init(width: Int, height: Int, color: (Int, Int) -> [UInt8]) {
        self.width = width
        self.height = height
        rgba = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                rgba += color(x, y)
            }
        }
    }

    /// Pixels drawn at random (seeded) from `palette`.
    static func randomPick(width: Int, height: Int, from palette: [[UInt8]], seed: UInt64) -> TestImage {
        var random = SplitMix64(seed: seed)
        return TestImage(width: width, height: height) { _, _ in palette[Int(random.next() % UInt64(palette.count))] }
    }

    /// `count` distinct colours made from `seed`, each RGBA.
    static func distinctColors(_ count: Int, seed: UInt64, grey: Bool = false, opaque: Bool = false) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var seen = Set<[UInt8]>()
        var colors: [[UInt8]] = []
        while colors.count < count {
            let bits = random.next()
            let r = UInt8(truncatingIfNeeded: bits), a = opaque ? 255 : UInt8(truncatingIfNeeded: bits >> 24)
            let color = grey ? [r, r, r, a] : [r, UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16), a]
            if seen.insert(color).inserted {
                colors.append(color)
            }
        }
        return colors
    }

    /// Five-pointed stars of one colour in a row on a transparent canvas,
    /// `size` pixels apart, their edges antialiased by 8×8 samples a pixel
    /// (up to 64 alpha levels, as the renderer's stars have); like
    /// indicator dots, the first opaque and the others at 30 %.
    static func stars(count: Int, size: Int, color: [UInt8] = [255, 204, 0]) -> TestImage {
        let outer = Double(size) * 0.45, inner = outer * 0.382
        let corners = (0..<10).map { index in
            let angle = Double(index) * .pi / 5 - .pi / 2
            let radius = index.isMultiple(of: 2) ? outer : inner
            return (x: radius * cos(angle), y: radius * sin(angle))
        }
        func inside(_ x: Double, _ y: Double) -> Bool {
            // Even-odd crossings of the ten edges.
            var crossings = false
            for index in corners.indices {
                let a = corners[index], b = corners[(index + 1) % corners.count]
                if (a.y > y) != (b.y > y) && x < a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y) {
                    crossings.toggle()
                }
            }
            return crossings
        }
        return TestImage(width: size * count, height: size) { x, y in
            var covered = 0
            for sample in 0..<64 {
                let sx = Double(x % size) + (Double(sample % 8) + 0.5) / 8 - Double(size) / 2
                let sy = Double(y) + (Double(sample / 8) + 0.5) / 8 - Double(size) / 2
                covered += inside(sx, sy) ? 1 : 0
            }
            let alpha = (Double(covered) / 64 * (x < size ? 255 : 77)).rounded()
            return alpha == 0 ? [0, 0, 0, 0] : color + [UInt8(alpha)]
        }
    }

    /// Soft-edged bars: in every row, `count` ramps of one colour from
    /// nearly transparent to its full alpha, 32 pixels each, the first to
    /// opaque and the others to 30 % — dozens of translucent colours in rows
    /// that repeat, where PLTE and tRNS outweigh the rows.
    static func ramps(count: Int, height: Int) -> TestImage {
        TestImage(width: 32 * count, height: height) { x, _ in
            let alpha = (Double(x % 32 + 1) / 32 * (x < 32 ? 255 : 77)).rounded()
            return [0, 122, 255, UInt8(alpha)]
        }
    }

    /// Something like an indicator: a transparent canvas with antialiased
    /// discs of one colour, the current one opaque and the others at 30 %.
    static func dots(count: Int, diameter: Int) -> TestImage {
        let step = diameter * 2
        return TestImage(width: step * count, height: diameter * 2) { x, y in
            let cx = Double(x % step) + 0.5 - Double(step) / 2, cy = Double(y) + 0.5 - Double(diameter)
            let coverage = max(0, min(1, Double(diameter) / 2 - (cx * cx + cy * cy).squareRoot() + 0.5))
            let alpha = UInt8((coverage * (x / step == 0 ? 255 : 77)).rounded())
            // Fully transparent pixels have RGB 0, as Cairo un-premultiplies them.
            return alpha == 0 ? [0, 0, 0, 0] : [0, 122, 255, alpha]
        }
    }
}

