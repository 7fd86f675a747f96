@testable import PagedotsGIF
import PagedotsPixels
import Testing
import TestSupport

@Suite("Passes over the frames, and the same bytes every time")
struct PassTests {
    /// Frame indices in the order the encoder asks for them.
    final class Requests {
        var indices: [Int] = []
    }

    func encode(_ animation: TestAnimation, encoder: GIFEncoder, requests: Requests) -> [UInt8] {
        encoder.encode(FrameList(width: animation.width, height: animation.height, count: animation.frames.count) {
            requests.indices.append($0)
            return animation.frames[$0]
        }, plays: 0, matte: (255, 255, 255))
    }

    @Test("small changes: one pass; past the memory limit: two, each in order, the same file")
    func passes() throws {
        let animation = TestAnimation.slidingDot(count: 3, diameter: 6, steps: 3)
        let onePass = Requests(), twoPasses = Requests()
        let first = encode(animation, encoder: GIFEncoder(), requests: onePass)
        let lowLimit = GIFEncoder()
        lowLimit.storedPixelLimit = { _ in 0 }
        let second = encode(animation, encoder: lowLimit, requests: twoPasses)
        let all = Array(animation.frames.indices)
        #expect(onePass.indices == all)
        #expect(twoPasses.indices == all + all)
        #expect(first == second)
        try expectPlaysBack(animation, encoder: lowLimit)
    }

    @Test("a frame repeating an earlier one's pixels elsewhere is written as its remembered image: the same file as without memory",
          arguments: ["dots at 1x", "dots at 2x on a background", "dots at 3x", "patterns on their own palettes"])
    func rememberedImages(name: String) throws {
        let animation = switch name {
        case "dots at 1x": TestAnimation.slidingDot(count: 5, diameter: 6, steps: 4)
        case "dots at 2x on a background": TestAnimation.slidingDot(count: 4, diameter: 12, steps: 6, background: [20, 20, 24])
        case "dots at 3x": TestAnimation.slidingDot(count: 3, diameter: 18, steps: 3, color: [255, 45, 85])
        default: Self.movingPatterns()
        }
        let forgetful = GIFEncoder(budget: CacheBudget(allowances: [.patches: 0, .steps: 0]))
        #expect(animation.encode() == animation.encode(encoder: forgetful))
        try expectPlaysBack(animation)
    }

    /// Two blocks of 150 colours each, which together do not fit one
    /// palette, taking turns and moving right by whole pixels, so that
    /// frames on their own palettes repeat too.
    static func movingPatterns() -> TestAnimation {
        var animation = TestAnimation(width: 48, height: 15)
        for step in 0..<8 {
            let left = step / 2 * 4, second = step % 2
            animation.append { x, y in
                let inside = (left..<left + 10).contains(x)
                let color = (y * 10 + x - left) * 7 % 256
                return inside ? [UInt8(color), UInt8(60 + second * 120), UInt8(255 - color), 255] : [0, 0, 0, 0]
            }
        }
        return animation
    }

    @Test("boxes from the frame source, exact, loose or the whole canvas, give the same file as none, in one pass and in two",
          arguments: ["exact", "loose", "canvas"], [false, true])
    func changedBoxes(kind: String, twoPasses: Bool) {
        var animation = TestAnimation.slidingDot(count: 3, diameter: 8, steps: 3)
        // A frame the same as the one before (an empty box), and one of other bytes under alpha 0.
        animation.frames.insert(animation.frames[2], at: 3)
        var hidden = animation.frames[5]
        hidden.pixels[0] ^= 1
        animation.frames.insert(hidden, at: 6)
        let (width, height) = (animation.width, animation.height)
        let asked = Requests()
        func box(_ index: Int) -> PixelRect {
            asked.indices.append(index)
            let exact = Self.changedBox(from: animation.frames[index - 1].pixels, to: animation.frames[index].pixels, width: width)
            switch kind {
            case "exact": return exact
            case "loose": return PixelRect(x: exact.x - 3, y: exact.y - 2, width: exact.width + 5, height: exact.height + 40)
            default: return PixelRect(x: 0, y: 0, width: width, height: height)
            }
        }
        let encoder = GIFEncoder()
        if twoPasses {
            encoder.storedPixelLimit = { _ in 0 }
        }
        let hinted = encoder.encode(
            FrameList(width: width, height: height, count: animation.frames.count, frameAt: { animation.frames[$0] }, changedBoxAt: box),
            plays: 0, matte: (255, 255, 255)
        )
        #expect(hinted == animation.encode())
        let later = Array(animation.frames.indices.dropFirst())
        #expect(asked.indices == (twoPasses ? later + later : later), "asked for every frame but the first, in order")
    }

    @Test("a move repeating an earlier move elsewhere is replayed by the differ: the same patches as planned afresh",
          arguments: [1, 2, 3])
    func replayedMoves(scale: Int) {
        let animation = TestAnimation.slidingDot(count: 4, diameter: 6 * scale, steps: 4, background: scale == 2 ? [20, 20, 24] : nil)
        func patches(recordedPixelLimit: Int) -> [FramePatch] {
            var differ = FrameDiffer(width: animation.width, height: animation.height, matte: Matte(red: 255, green: 255, blue: 255),
                                     loops: true, budget: CacheBudget(allowances: [.steps: 4 * recordedPixelLimit]))
            var patches: [FramePatch] = []
            for (index, frame) in animation.frames.enumerated() {
                let canvas = PixelRect(x: 0, y: 0, width: animation.width, height: animation.height)
                let rect = index == 0 ? canvas : PixelRect.changed(from: animation.frames[index - 1].pixels, to: frame.pixels, width: animation.width, within: canvas)
                if let patch = differ.add(frame.pixels, changedWithin: rect, delayMilliseconds: frame.delayMilliseconds) {
                    patches.append(patch)
                }
            }
            if let patch = differ.finish() { patches.append(patch) }
            return patches
        }
        let replayed = patches(recordedPixelLimit: 1 << 16), planned = patches(recordedPixelLimit: 0)
        #expect(replayed.count == planned.count)
        for (a, b) in zip(replayed, planned) {
            #expect(a.rect == b.rect && a.disposal == b.disposal && a.delayMilliseconds == b.delayMilliseconds && a.pixels == b.pixels)
        }
        #expect(planned.allSatisfy { $0.sameAs == nil })
        let replays = replayed.indices.filter { replayed[$0].sameAs != nil }
        #expect(replays.count >= 4, "the moves after the first are replayed")
        for index in replays {
            #expect(replayed[index].pixels == replayed[replayed[index].sameAs ?? 0].pixels, "a replay says which patch it repeats")
        }
        // The encoder gives the same file with and without replays.
        func encode(rememberedPixelLimit: Int) -> [UInt8] {
            let encoder = GIFEncoder(budget: CacheBudget(allowances: [.patches: 4 * rememberedPixelLimit, .steps: 4 * rememberedPixelLimit]))
            let frames = FrameList(
                width: animation.width, height: animation.height, count: animation.frames.count, frameAt: { animation.frames[$0] },
                changedBoxAt: { Self.changedBox(from: animation.frames[$0 - 1].pixels, to: animation.frames[$0].pixels, width: animation.width) }
            )
            return encoder.encode(frames, plays: 0, matte: (255, 255, 255))
        }
        #expect(encode(rememberedPixelLimit: 1 << 16) == encode(rememberedPixelLimit: 0))
    }

    /// The smallest box holding the pixels whose bytes differ (`PixelRect.changed`), of no area when none do.
    static func changedBox(from old: [UInt8], to new: [UInt8], width: Int) -> PixelRect {
        PixelRect.changed(from: old, to: new, width: width, within: PixelRect(x: 0, y: 0, width: width, height: new.count / 4 / width))
    }

    @Test("an encoder reused, and a new one, write the same bytes")
    func deterministic() {
        let encoder = GIFEncoder()
        let a = TestAnimation.slidingDot(count: 4, steps: 3), b = TestAnimation.slidingDot(count: 2, diameter: 10, steps: 2, background: [0, 0, 0])
        let firstA = a.encode(encoder: encoder), firstB = b.encode(encoder: encoder)
        #expect(a.encode(encoder: encoder) == firstA)
        #expect(b.encode(encoder: GIFEncoder()) == firstB)
    }
}
