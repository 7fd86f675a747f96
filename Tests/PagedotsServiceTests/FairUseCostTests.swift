@testable import HTTPServer
import PagedotsCore
@testable import PagedotsService
import Testing
import TestSupport

/// Fair use by cost (docs/operating.md, "Fair use"): an animation takes a
/// token per started 1,048,576 pixel-frames, a still one; one that costs
/// more than the bucket holds is drawn only from a full bucket.
@Suite struct FairUseCostTests {
    @Test func tokensPerStartedMebipixelFrame() {
        #expect(FairUseCost.tokens(width: 1, height: 1, frames: 1) == 1)
        #expect(FairUseCost.tokens(width: 1024, height: 1024, frames: 1) == 1)
        #expect(FairUseCost.tokens(width: 1024, height: 1024, frames: 2) == 2)
        #expect(FairUseCost.tokens(width: 1025, height: 1024, frames: 1) == 2)
        #expect(FairUseCost.tokens(width: 4096, height: 1024, frames: 8) == 32)
        #expect(FairUseCost.tokens(width: 0, height: 0, frames: 0) == 1)
    }

    @Test func theCostOfARequestIsKnownBeforeDrawing() throws {
        // The default pill at 2x: 176 × 32 pixels, 36 frames: one token.
        let pill = try IndicatorQuery.parse(query: "pages=5&style=pill&scale=2&format=gif")
        #expect(pill.pixelFrames == 176 * 32 * AnimationTimeline(spec: pill.spec).frameCount)
        #expect(FairUseCost.tokens(for: pill) == 1)
        // 1600 × 160 pixels: 256,000 a frame.
        let big = try IndicatorQuery.parse(query: "pages=10&size=32&scale=4&format=apng")
        let frames = AnimationTimeline(spec: big.spec).frameCount
        #expect(big.pixelFrames == 1600 * 160 * frames)
        #expect(FairUseCost.tokens(for: big) == (256_000 * frames + 1_048_575) / 1_048_576)
        #expect(FairUseCost.tokens(for: big) > 2)
        // A still is one token, however large.
        let still = try IndicatorQuery.parse(query: "pages=10&size=32&scale=4")
        #expect(still.pixelFrames == 256_000 && FairUseCost.tokens(for: still) == 1)
    }

    @Test func aBucketGivesSeveralTokensAtOnceOrWaitsUntilFullForMoreThanItHolds() {
        let clock = ManualClock()
        let limiter = MissRateLimiter(perSecond: 2, clock: clock.read)  // a burst of 4
        let alice = MissRateLimiterTests.alice
        #expect(limiter.take(3, for: alice) == .allowed)
        #expect(limiter.take(2, for: alice) == .refused(retryAfter: 1))
        #expect(limiter.take(1, for: alice) == .allowed)
        #expect(limiter.take(1, for: alice) == .refused(retryAfter: 1))
        // Empty; four tokens are back after two seconds.
        clock.advance(seconds: 2)
        #expect(limiter.take(4, for: alice) == .allowed)
        // More than the bucket holds: only from a full bucket, which it leaves in debt.
        clock.advance(seconds: 1.5)
        #expect(limiter.take(10, for: alice) == .refused(retryAfter: 1))
        clock.advance(seconds: 0.5)
        #expect(limiter.take(10, for: alice) == .allowed)
        // In debt for five seconds: 10 tokens taken from 4, a token comes every half second.
        #expect(limiter.take(1, for: alice) == .refused(retryAfter: 4))
        clock.advance(seconds: 3.5)
        #expect(limiter.take(1, for: alice) == .allowed)
        #expect(limiter.take(1, for: MissRateLimiterTests.bob) == .allowed)
    }

    @Test("An animation takes its cost from its client's bucket; a hit takes nothing")
    func animationsCostTheirPixels() throws {
        let (service, clock) = FairUseTests.service()  // one token a second, a burst of two
        let alice = FairUseTests.alice
        let costly = "pages=2&width=1024&height=1024&effect=none&format=gif"
        let tokens = FairUseCost.tokens(for: try IndicatorQuery.parse(query: Substring(costly)))
        #expect(tokens > 2)
        // More than the bucket holds, from a full bucket: drawn, and the bucket is in debt.
        #expect(FairUseTests.status(service, FairUseTests.request(costly, from: alice)) == 200)
        #expect(FairUseTests.status(service, FairUseTests.request(costly + "&utm_source=again", from: alice)) == 200)
        let answers = RecordedAnswers()
        #expect(FairUseTests.status(service, FairUseTests.request("pages=3", from: alice), answers: answers) == 429)
        #expect(answers.head("pages=3 \(alice)").contains("\r\nRetry-After: \(tokens - 1)\r\n"))
        clock.advance(seconds: Double(tokens - 1))
        #expect(FairUseTests.status(service, FairUseTests.request("pages=3", from: alice)) == 200)
        // Another costly animation while the bucket is not full: refused until it is.
        let other = "pages=3&width=1024&height=1024&effect=none&format=gif"
        let refused = RecordedAnswers()
        #expect(FairUseTests.status(service, FairUseTests.request(other, from: alice), answers: refused) == 429)
        #expect(refused.head("\(other) \(alice)").contains("\r\nRetry-After: 2\r\n"))
        clock.advance(seconds: 2)
        #expect(FairUseTests.status(service, FairUseTests.request(other, from: alice)) == 200)
    }
}
