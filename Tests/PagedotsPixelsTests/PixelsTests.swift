import PagedotsPixels
import Testing

@Suite("PixelRect: one meaning of empty")
struct PixelRectTests {
    @Test("every empty rectangle is .empty, is left out of unions, and stays empty moved or cut")
    func empty() {
        let elsewhere = PixelRect(x: 7, y: 3, width: 0, height: 5)
        let rect = PixelRect(x: 2, y: 2, width: 4, height: 3)
        #expect(elsewhere == .empty && elsewhere.isEmpty && elsewhere.area == 0)
        #expect(Set([elsewhere, .empty, PixelRect(x: -1, y: 9, width: 3, height: -2)]).count == 1)
        #expect(elsewhere.union(rect) == rect && rect.union(elsewhere) == rect && elsewhere.union(.empty) == .empty)
        #expect(elsewhere.moved(by: 3, 4) == .empty && elsewhere.moved(by: 3, 4).x == 0)
        #expect(rect.intersection(PixelRect(x: 6, y: 2, width: 2, height: 2)) == .empty)
        #expect(!PixelRect.empty.contains(x: 0, y: 0))
    }

    @Test("union, intersection and move of rectangles that are not empty")
    func arithmetic() {
        let a = PixelRect(x: 2, y: 2, width: 4, height: 3), b = PixelRect(x: 5, y: 0, width: 3, height: 3)
        #expect(a.union(b) == PixelRect(x: 2, y: 0, width: 6, height: 5))
        #expect(a.intersection(b) == PixelRect(x: 5, y: 2, width: 1, height: 1))
        #expect(a.moved(by: -2, 1) == PixelRect(x: 0, y: 3, width: 4, height: 3))
        #expect(a.contains(x: 5, y: 4) && !a.contains(x: 6, y: 4) && a.maxX == 6 && a.maxY == 5)
    }

    @Test("PixelBounds grows to the pixels it is shown; none gives .empty")
    func bounds() {
        var bounds = PixelBounds()
        #expect(bounds.rect == .empty)
        bounds.include(row: 4, from: 3, count: 2)
        bounds.include(row: 1, from: 6)
        #expect(bounds.rect == PixelRect(x: 3, y: 1, width: 4, height: 4))
    }
}

@Suite("The changed-rectangle search")
struct ChangedRectTests {
    /// The smallest box holding the pixels whose bytes differ, found pixel by pixel.
    static func naive(_ old: [UInt8], _ new: [UInt8], width: Int) -> PixelRect {
        var bounds = PixelBounds()
        for index in stride(from: 0, to: new.count, by: 4) where old[index..<index + 4] != new[index..<index + 4] {
            bounds.include(row: index / 4 / width, from: index / 4 % width)
        }
        return bounds.rect
    }

    @Test("finds what a pixel-by-pixel search finds, within the canvas or a box that holds the changes")
    func matchesNaive() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let width = Int.random(in: 1...23, using: &generator), height = Int.random(in: 1...9, using: &generator)
            let old = (0..<width * height * 4).map { _ in UInt8.random(in: 0...3, using: &generator) }
            var new = old
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                new[Int.random(in: new.indices, using: &generator)] ^= 1
            }
            let expected = Self.naive(old, new, width: width)
            let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
            #expect(PixelRect.changed(from: old, to: new, width: width, within: canvas) == expected)
            let loose = expected.isEmpty ? canvas : PixelRect(x: expected.x - 2, y: expected.y - 1, width: expected.width + 5, height: expected.height + 3)
            #expect(PixelRect.changed(from: old, to: new, width: width, within: loose) == expected)
        }
    }

    @Test("equal canvases, an empty box and canvases of two sizes give .empty")
    func nothing() {
        let pixels = [UInt8](repeating: 9, count: 64)
        var other = pixels
        other[5] = 0
        #expect(PixelRect.changed(from: pixels, to: pixels, width: 4, within: PixelRect(x: 0, y: 0, width: 4, height: 4)) == .empty)
        #expect(PixelRect.changed(from: pixels, to: other, width: 4, within: .empty) == .empty)
        #expect(PixelRect.changed(from: pixels, to: Array(other.prefix(60)), width: 4, within: PixelRect(x: 0, y: 0, width: 4, height: 4)) == .empty)
        #expect(PixelRect.changed(from: pixels, to: other, width: 4, within: PixelRect(x: 0, y: 0, width: 4, height: 4)) == PixelRect(x: 1, y: 0, width: 1, height: 1))
    }
}

@Suite("DigestKey and CacheBudget")
struct CacheTests {
    @Test("keys are equal when their elements and tags are, whatever part the digest samples")
    func keys() {
        let pixels: [UInt32] = Array(0..<100)
        var changed = pixels
        changed[1] = 7  // a pixel that a stride of 3 does not sample
        #expect(DigestKey(pixels, tag: 4, stride: 3) == DigestKey(Array(pixels), tag: 4, stride: 3))
        #expect(DigestKey(pixels, tag: 4, stride: 3) != DigestKey(changed, tag: 4, stride: 3))
        #expect(DigestKey(pixels, tag: 4) != DigestKey(pixels, tag: 5))
        #expect(DigestKey([UInt8](), tag: 0) == DigestKey([UInt8](), tag: 0) && DigestKey([UInt8]([1]), tag: 0) != DigestKey([UInt8]([2]), tag: 0))
        let cache: [DigestKey<UInt32>: Int] = [DigestKey(pixels, tag: 4, stride: 3): 1]
        #expect(cache[DigestKey(pixels, tag: 4, stride: 3)] == 1 && cache[DigestKey(changed, tag: 4, stride: 3)] == nil)
    }

    @Test("each cache takes from an allowance of its own; reset empties the caches and gives everything back")
    func budget() {
        let budget = CacheBudget(allowances: [.regions: 100, .streams: 0])
        #expect(budget.allowance(of: .steps) == CacheBudget.defaultAllowances[.steps])
        #expect(budget.take(60, for: .regions) && !budget.take(41, for: .regions) && budget.take(40, for: .regions))
        #expect(!budget.take(1, for: .streams) && budget.take(0, for: .streams))
        #expect(budget.take(10, for: .patches) && budget.held(by: .regions) == 100 && budget.totalHeld == 110)
        budget.giveBack(30, for: .regions)
        #expect(budget.fits(30, for: .regions) && !budget.fits(31, for: .regions))
        var forgotten = 0
        budget.onReset { forgotten += 1 }
        budget.reset()
        #expect(forgotten == 1 && budget.totalHeld == 0 && budget.fits(100, for: .regions))
    }
}

@Suite("Look distance and resampling for the budget planner")
struct LookDistanceTests {
    /// A picture of `width × height` whose pixel at (x, y) is `color(x, y)` (RGB, opaque).
    static func picture(_ width: Int, _ height: Int, _ color: (Int, Int) -> [UInt8]) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in color(x, y) + [255] } }
    }

    @Test("The same picture scores 100; fine dither costs less than banding of the same size; the excluded box is left out")
    func ranking() {
        let gradient = Self.picture(64, 32) { x, _ in [UInt8(x * 4), UInt8(x * 4), UInt8(x * 4)] }
        #expect(LookDistance(exact: gradient, candidate: gradient, width: 64, height: 32).score == 100)
        // Dither: ±6 alternating pixel by pixel; banding: 8-pixel steps, the error a ramp up to ±6 too.
        let dithered = Self.picture(64, 32) { x, y in
            let level = x * 4 + ((x + y) % 2 == 0 ? 6 : -6)
            return Array(repeating: UInt8(min(max(level, 0), 255)), count: 3)
        }
        let banded = Self.picture(64, 32) { x, _ in Array(repeating: UInt8((x / 3) * 12), count: 3) }
        let dither = LookDistance(exact: gradient, candidate: dithered, width: 64, height: 32)
        let bands = LookDistance(exact: gradient, candidate: banded, width: 64, height: 32)
        #expect(dither.coarse < bands.coarse)
        #expect(dither.score > bands.score, "\(dither) \(bands)")
        // A blurred picture loses detail.
        let stripes = Self.picture(64, 32) { x, _ in Array(repeating: UInt8(x % 2 == 0 ? 40 : 200), count: 3) }
        let grey = Self.picture(64, 32) { _, _ in [120, 120, 120] }
        #expect(LookDistance(exact: stripes, candidate: grey, width: 64, height: 32).detailLoss > 60)
        #expect(LookDistance(exact: grey, candidate: stripes, width: 64, height: 32).detailLoss == 0)
        // Differences only inside the excluded box do not count.
        var marked = gradient
        for y in 4..<8 { for x in 4..<8 { marked[(y * 64 + x) * 4] = 0 } }
        #expect(LookDistance(exact: gradient, candidate: marked, width: 64, height: 32, excluded: PixelRect(x: 4, y: 4, width: 4, height: 4)).score == 100)
        #expect(LookDistance(exact: gradient, candidate: marked, width: 64, height: 32).score < 100)
    }

    @Test("Bilinear resampling: the same size unchanged; doubled, a flat picture stays flat and a ramp stays a ramp")
    func bilinear() {
        let ramp = Self.picture(4, 2) { x, _ in [UInt8(x * 60), 0, 0] }
        #expect(RGBAResampling.bilinear(ramp, width: 4, height: 2, toWidth: 4, height: 2) == ramp)
        let flat = Self.picture(3, 3) { _, _ in [10, 20, 30] }
        #expect(RGBAResampling.bilinear(flat, width: 3, height: 3, toWidth: 7, height: 5) == Self.picture(7, 5) { _, _ in [10, 20, 30] })
        let doubled = RGBAResampling.bilinear(ramp, width: 4, height: 2, toWidth: 8, height: 4)
        let reds = (0..<8).map { doubled[$0 * 4] }
        // Edges clamped, then halfway points: 0 0 15 45 75 105 135 165 180 180 in source terms.
        #expect(reds == [0, 15, 45, 75, 105, 135, 165, 180])
    }
}
