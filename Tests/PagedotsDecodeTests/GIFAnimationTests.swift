import PagedotsDecode
import TestSupport
import Testing

@Suite("Animated GIF: timeline and frames as browsers show them")
struct GIFAnimationTests {
    @Test("The scan gives the screen, every frame's delay and disposal, and the loop count, without decoding")
    func scan() throws {
        let reader = try GIFReader(Fixtures.bytes("animated.gif"))
        let animation = try Fixtures.bytes("animated.gif").withUnsafeBytes { bytes in
            try GIFAnimation(scanning: bytes)
        }
        #expect((animation.width, animation.height) == (24, 20))
        #expect(animation.loopCount == 2)
        #expect(animation.frames.map(\.delay) == [12, 0, 25, 7])
        #expect(animation.frames.map(\.disposal) == [.keep, .background, .previous, .keep])
        #expect(animation.frames.map(\.delay) == reader.frames.map { $0.delay ?? 0 })
        #expect(animation.frames.map(\.transparentIndex) == reader.frames.map(\.transparentIndex))
        // Browsers show a delay of 0 as 100 ms.
        #expect(animation.frames.map(\.playedMilliseconds) == [120, 100, 250, 70])
        #expect(animation.playedMilliseconds == 540)
    }

    @Test("Each frame played is the canvas giflib's reference reader composes, disposal and transparency included")
    func playback() throws {
        let bytes = Fixtures.bytes("animated.gif")
        let reader = try GIFReader(bytes)
        var frames: [GIFFramePlayer.Frame] = []
        try bytes.withUnsafeBytes { bytes in
            let player = try GIFFramePlayer(bytes)
            while let frame = try player.next() { frames.append(frame) }
            #expect(player.loopCount == 2)
            #expect(try player.next() == nil)
        }
        #expect(frames.count == reader.frames.count)
        for (played, expected) in zip(frames, reader.frames) {
            #expect(played.image.pixels == expected.canvas)
        }
    }

    @Test("A GIF with more frames, or more frame pixels in all, than the limits is refused")
    func limits() throws {
        let bytes = Fixtures.bytes("animated.gif")
        let frames = ImageSizeLimits(maxFrames: 3)
        #expect(throws: ImageDecodingError.tooManyFrames(limit: 3)) {
            try bytes.withUnsafeBytes { bytes in _ = try GIFAnimation(scanning: bytes, limits: frames) }
        }
        let pixels = ImageSizeLimits(maxAnimationPixels: 24 * 20 * 3)
        #expect(throws: ImageDecodingError.tooManyAnimationPixels(limit: 24 * 20 * 3)) {
            try bytes.withUnsafeBytes { bytes in
                let player = try GIFFramePlayer(bytes, limits: pixels)
                while try player.next() != nil {}
            }
        }
    }

    @Test("A cut animation is refused by the player; a scan of other bytes is unrecognized")
    func corrupt() {
        #expect(throws: ImageDecodingError.self) {
            try Fixtures.bytes("truncated.gif").withUnsafeBytes { bytes in
                let player = try GIFFramePlayer(bytes)
                while try player.next() != nil {}
            }
        }
        #expect(throws: ImageDecodingError.unrecognized) {
            try Fixtures.bytes("rgba.png").withUnsafeBytes { bytes in _ = try GIFAnimation(scanning: bytes) }
        }
    }
}

@Suite("Animated GIF: fuzzing's finds")
struct GIFFuzzRegressionTests {
    @Test("A frame below the screen whose disposal clears its rectangle is clipped to nothing, not a crash")
    func offScreenDisposal() throws {
        // The fuzzer's file: its second frame lies at row 32771 of a 20-row screen (cleared when the third is drawn), and its third is defective.
        let bytes = Fixtures.bytes("off-screen-disposal.gif")
        var frames = 0
        var failure: ImageDecodingError?
        bytes.withUnsafeBytes { bytes in
            do throws(ImageDecodingError) {
                let player = try GIFFramePlayer(bytes)
                while let frame = try player.next() {
                    #expect((frame.image.width, frame.image.height) == (24, 20))
                    frames += 1
                }
            } catch {
                failure = error
            }
        }
        #expect(frames == 2)
        #expect(failure == .corrupt(.gif, reason: "Image is defective, decoding aborted"))
    }
}
