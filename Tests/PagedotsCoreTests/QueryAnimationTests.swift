import Testing
@testable import PagedotsCore

/// The animation parameters: their values, their messages, what they reset,
/// and the limits on frames (docs/parameters.md, "Animation").
@Suite struct QueryAnimationTests {
    @Test func formatsAndTheirAnimation() throws {
        #expect(try parsedSpec("pages=3&format=gif").format == .gif)
        #expect(try parsedSpec("pages=3&format=APNG").format == .apng)
        #expect(try parsedSpec("pages=3", options: PathOptions(format: .apng, scale: 2)).scale == 2)
        #expect(ImageFormat.allCases.filter(\.isAnimated) == [.gif, .apng])
    }

    @Test func animationParametersSetTheSpec() throws {
        let spec = try parsedSpec("pages=3&format=gif&dwell=1500&transition=450&effect=fade&loop=2&fps=30&matte=000")
        #expect(spec.dwell == 1500)
        #expect(spec.transition == 450)
        #expect(spec.effect == .fade)
        #expect(spec.loop == 2)
        #expect(spec.fps == 30)
        #expect(spec.matte == RGBA(red: 0, green: 0, blue: 0))
    }

    @Test(arguments: [
        ("dwell=105", #"dwell: must be an integer from 100 to 60000, a multiple of 10 (milliseconds); got "105""#),
        ("dwell=90", #"dwell: must be an integer from 100 to 60000, a multiple of 10 (milliseconds); got "90""#),
        ("dwell=60010", #"dwell: must be an integer from 100 to 60000, a multiple of 10 (milliseconds); got "60010""#),
        ("transition=15",
         #"transition: must be an integer from 0 to 3000, a multiple of 10 (milliseconds; dwell=3000); got "15""#),
        ("dwell=500&transition=510",
         #"transition: must be an integer from 0 to 500, a multiple of 10 (milliseconds; dwell=500); got "510""#),
        ("effect=bounce", #"effect: must be one of slide, worm, fade, none; got "bounce""#),
        ("loop=101", #"loop: must be an integer from 0 to 100; got "101""#),
        ("fps=0", #"fps: must be an integer from 1 to 50; got "0""#),
        ("fps=60", #"fps: must be an integer from 1 to 50; got "60""#),
        ("matte=ffffff80",
         #"matte: must be an opaque color (it stands for the email's background, which has no transparency); got "ffffff80""#),
        ("matte=transparent",
         #"matte: must be an opaque color (it stands for the email's background, which has no transparency); got "transparent""#),
    ])
    func badValuesAreRefusedInEveryFormat(pair: String, message: String) {
        for format in ImageFormat.allCases {
            #expect(refusal("pages=3&format=\(format.rawValue)&\(pair)") == message, "\(format)")
        }
    }

    @Test func aDefaultTransitionLongerThanDwellTakesDwell() throws {
        #expect(try parsedSpec("pages=3&format=gif&dwell=200").transition == 200)
        #expect(try parsedSpec("pages=3&format=gif&dwell=200") == parsedSpec("pages=3&format=gif&dwell=200&transition=200"))
        #expect(try parsedSpec("pages=3&format=gif&dwell=500").transition == 300)
    }

    @Test func animationParametersHaveNoEffectOnStillImages() throws {
        let animated = "dwell=1000&transition=100&effect=worm&loop=3&fps=10&matte=black"
        for format in ["png", "svg"] {
            #expect(try parsedSpec("pages=3&format=\(format)&\(animated)") == parsedSpec("pages=3&format=\(format)"))
        }
        // matte is for GIF alone.
        #expect(try parsedSpec("pages=3&format=apng&matte=black") == parsedSpec("pages=3&format=apng"))
        #expect(try parsedSpec("pages=3&format=gif&matte=black") != parsedSpec("pages=3&format=gif"))
    }

    @Test func transitionHasNoEffectWithoutAMove() throws {
        #expect(try parsedSpec("pages=3&format=gif&effect=none&transition=100")
            == parsedSpec("pages=3&format=gif&effect=none"))
        #expect(try parsedSpec("pages=3&format=gif&effect=fade&transition=100")
            != parsedSpec("pages=3&format=gif&effect=fade"))
    }

    @Test func progressIsTheTimersWhenAnimated() throws {
        #expect(try parsedSpec("pages=3&style=progress&format=gif&progress=0.8")
            == parsedSpec("pages=3&style=progress&format=gif"))
        #expect(try parsedSpec("pages=3&style=progress&progress=0.8").progress == 0.8)
    }

    @Test func scaleDrawsAnimationsAsPNGs() throws {
        #expect(try parsedSpec("pages=3&format=gif&scale=3").scale == 3)
        #expect(try parsedSpec("pages=3&format=apng&scale=2").scale == 2)
        #expect(try parsedSpec("pages=3&format=svg&scale=2").scale == 1)
    }

    @Test func perPageColorsAreKeptForAnimationsOnly() throws {
        let red = RGBA(red: 255, green: 0, blue: 0), blue = RGBA(red: 0, green: 0, blue: 255)
        let gif = try parsedSpec("pages=3&current=1&format=gif&colors=red,blue")
        #expect(gif.color == blue)
        #expect(gif.pageColors == [IndicatorColors(current: red, inactive: red.fading(to: 0.3)),
                                   IndicatorColors(current: blue, inactive: blue.fading(to: 0.3))])
        #expect(try parsedSpec("pages=3&current=1&colors=red,blue").pageColors == nil)
        // One colour, or the same colour for every page, is plain `color`.
        #expect(try parsedSpec("pages=3&format=gif&colors=red,red") == parsedSpec("pages=3&format=gif&color=red"))
        // More colours than pages: the extra ones are never shown.
        #expect(try parsedSpec("pages=2&format=gif&colors=red,blue,green") == parsedSpec("pages=2&format=gif&colors=red,blue"))
        // A given inactive stays for every page; the dark theme's colours are the pages' own.
        let inactive = try parsedSpec("pages=2&format=gif&colors=red,blue&inactive=gray")
        #expect(inactive.pageColors?.map(\.inactive) == [RGBA(red: 128, green: 128, blue: 128), RGBA(red: 128, green: 128, blue: 128)])
        let dark = try parsedSpec("pages=2&format=apng&colors=007aff,white&theme=dark")
        #expect(dark.pageColors?.map(\.current) == [.systemBlueDark, .white])
        #expect(dark.color == .systemBlueDark)
    }

    // MARK: - Limits

    static let animationLimits = "image: must be at most 2000 frames and 33,554,432 pixels over all frames"

    @Test func theLimitsThemselvesAreAllowed() throws {
        // 127 cuts and the first page again: 128 frames of 512 × 512.
        let spec = try parsedSpec("pages=127&size=2&spacing=0&padding=0&width=512&height=512&effect=none&format=gif")
        #expect(AnimationTimeline(spec: spec).frameCount == 128)
        // 100 moves of 20 frames: 100 × 19 + 1.
        let many = try parsedSpec("pages=100&size=2&spacing=0&padding=0&transition=400&fps=50&format=apng")
        #expect(AnimationTimeline(spec: many).frameCount == 1901)
    }

    @Test(arguments: [
        ("pages=127&size=2&spacing=0&padding=0&width=512&height=513&effect=none&format=gif", "128 frames of 512x513 pixels"),
        ("pages=100&size=2&spacing=0&padding=0&transition=420&fps=50&format=apng", "2001 frames of 200x2 pixels"),
        ("pages=5&size=64&scale=4&transition=600&fps=50&format=gif", "146 frames of 1440x288 pixels"),
    ])
    func overTheLimitsIsRefused(query: String, got: String) {
        #expect(refusal(query) == "\(Self.animationLimits); got \(got) (lower fps, transition, pages or scale, or use effect=none)")
    }

    @Test func aStillImageWithTheSameParametersIsNotLimitedByFrames() throws {
        _ = try parsedSpec("pages=100&size=2&spacing=0&padding=0&transition=420&fps=50&format=png")
    }

    @Test func theStillLimitsComeFirst() {
        #expect(refusal("pages=1000&format=gif") == "\(QueryLimitsTests.pngLimits); got 16000x16 pixels (for a long row, try style=scroll)")
    }
}
