@testable import PagedotsGIF
import Testing
import TestSupport

@Suite("Passes over the frames, and the same bytes every time")
struct PassTests {
    /// Frame indices in the order the encoder asks for them.
    final class Requests {
        var indices: [Int] = []
    }

    func encode(_ animation: TestAnimation, encoder: GIFEncoder, requests: Requests) -> [UInt8] {
        encoder.encode(width: animation.width, height: animation.height, plays: 0, matte: (255, 255, 255), frameCount: animation.frames.count) {
            requests.indices.append($0)
            return animation.frames[$0]
        }
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

    @Test("an encoder reused, and a new one, write the same bytes")
    func deterministic() {
        let encoder = GIFEncoder()
        let a = TestAnimation.slidingDot(count: 4, steps: 3), b = TestAnimation.slidingDot(count: 2, diameter: 10, steps: 2, background: [0, 0, 0])
        let firstA = a.encode(encoder: encoder), firstB = b.encode(encoder: encoder)
        #expect(a.encode(encoder: encoder) == firstA)
        #expect(b.encode(encoder: GIFEncoder()) == firstB)
    }
}
