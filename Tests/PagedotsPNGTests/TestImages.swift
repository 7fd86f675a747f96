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

