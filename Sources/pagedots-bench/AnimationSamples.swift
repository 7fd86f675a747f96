#if canImport(Glibc)
import Glibc
#endif

import PagedotsCore

/// Test animations for the APNG writer, drawn from `Drawing`s made here
/// (the service's own timeline is another part): indicators of several
/// styles whose current page moves through a whole cycle, a dwell frame per
/// page and a transition of interpolated frames to the next.
struct AnimationSample {
    var name: String
    var scale: Int
    var frames: [(drawing: Drawing, milliseconds: Int)]

    /// Every sample, ~45 frames each unless the style needs more.
    static let all: [AnimationSample] = {
        let blue = RGBA.systemBlue, faded = RGBA.systemBlue.fading(to: 0.3)
        let dark = RGBA(red: 0x1C, green: 0x1C, blue: 0x1E), white = RGBA(red: 255, green: 255, blue: 255)
        let red = RGBA(red: 0xFF, green: 0x3B, blue: 0x30)
        let dots = Sketch(pages: 5)
        return [
            sample("fade-dots-1x", scale: 1, dots) { $0.fadingDots(current: blue, inactive: faded, at: $1) },
            sample("fade-dots-2x", scale: 2, dots) { $0.fadingDots(current: blue, inactive: faded, at: $1) },
            sample("fade-dots-3x", scale: 3, dots) { $0.fadingDots(current: blue, inactive: faded, at: $1) },
            sample("slide-dots-1x", scale: 1, dots) { $0.slidingDot(current: blue, inactive: faded, at: $1) },
            sample("slide-dots-2x", scale: 2, dots) { $0.slidingDot(current: blue, inactive: faded, at: $1) },
            sample("slide-dots-3x", scale: 3, dots) { $0.slidingDot(current: blue, inactive: faded, at: $1) },
            sample("pill-1x", scale: 1, dots) { $0.pill(current: blue, inactive: faded, at: $1) },
            sample("pill-2x", scale: 2, dots) { $0.pill(current: blue, inactive: faded, at: $1) },
            sample("pill-3x", scale: 3, dots) { $0.pill(current: blue, inactive: faded, at: $1) },
            sample("worm-2x", scale: 2, dots) { $0.worm(current: blue, inactive: faded, at: $1) },
            sample("fade-two-colours-2x", scale: 2, dots) { $0.fadingDots(current: red, inactive: blue, at: $1) },
            sample("progress-2x", scale: 2, Sketch(pages: 3, extra: 16), dwellFrames: 20) { $0.progress(current: blue, inactive: faded, at: $1) },
            sample("progress-dark-1x", scale: 1, Sketch(pages: 4, background: dark, extra: 16), dwellFrames: 12) {
                $0.progress(current: white, inactive: white.fading(to: 0.3), at: $1)
            },
            sample("scroll-2x", scale: 2, Sketch(pages: 12, visible: 7)) { $0.scroll(current: blue, inactive: faded, at: $1) },
            sample("outline-rings-2x", scale: 2, dots) { $0.rings(current: blue, inactive: blue, at: $1) },
            sample("outline-rings-white-3x", scale: 3, Sketch(pages: 5, background: white)) { $0.rings(current: red, inactive: red, at: $1) },
            sample("dark-bg-2x", scale: 2, Sketch(pages: 5, background: dark)) { $0.slidingDot(current: white, inactive: white.fading(to: 0.3), at: $1) },
            sample("translucent-2x", scale: 2, dots) { $0.slidingDot(current: blue.fading(to: 0.7), inactive: red.fading(to: 0.25), at: $1) },
            sample("ttb-2x", scale: 2, Sketch(pages: 5, vertical: true)) { $0.slidingDot(current: blue, inactive: faded, at: $1) },
            sample("ttb-pill-1x", scale: 1, Sketch(pages: 6, vertical: true)) { $0.pill(current: blue, inactive: faded, at: $1) },
            sample("grey-on-white-2x", scale: 2, Sketch(pages: 5, background: white)) {
                $0.fadingDots(current: RGBA(red: 0, green: 0, blue: 0), inactive: RGBA(red: 0xC7, green: 0xC7, blue: 0xCC), at: $1)
            },
            sample("squares-2x", scale: 2, dots) { $0.slidingDot(current: blue, inactive: faded, at: $1, corner: 0) },
            sample("many-dots-1x", scale: 1, Sketch(pages: 20)) { $0.slidingDot(current: blue, inactive: faded, at: $1) },
            sample("stars-2x", scale: 2, dots) { $0.stars(current: red, inactive: red.fading(to: 0.3), at: $1) },
            sample("colours-3x", scale: 3, Sketch(pages: 4)) {
                $0.fadingDots(current: RGBA(red: 0x34, green: 0xC7, blue: 0x59), inactive: RGBA(red: 0xAF, green: 0x52, blue: 0xDE, alpha: 128), at: $1)
            },
        ]
    }()

    /// A cycle through `sketch.pages` pages: per page one dwell frame (with
    /// `dwellFrames`, that many for a timer filling), then 8 transition frames
    /// of 40 ms to the next page (back to the first after the last).
    static func sample(_ name: String, scale: Int, _ sketch: Sketch, dwellFrames: Int = 1, draw: (Sketch, Position) -> [DrawItem]) -> AnimationSample {
        let transitionFrames = 8, dwell = 3000, step = 40
        var frames: [(Drawing, Int)] = []
        for page in 0 ..< sketch.pages {
            let next = (page + 1) % sketch.pages
            for fill in 0 ..< dwellFrames {
                let milliseconds = dwellFrames == 1 ? dwell - transitionFrames * step : (dwell - transitionFrames * step) / dwellFrames / 10 * 10
                frames.append((sketch.drawing(draw(sketch, Position(from: page, to: next, progress: 0, fill: Double(fill) / Double(dwellFrames)))), milliseconds))
            }
            for frame in 1 ... transitionFrames {
                // Ease in and out, as the service's transitions do.
                let linear = Double(frame) / Double(transitionFrames)
                let eased = linear * linear * (3 - 2 * linear)
                frames.append((sketch.drawing(draw(sketch, Position(from: page, to: next, progress: eased, fill: 1))), step))
            }
        }
        return AnimationSample(name: name, scale: scale, frames: frames)
    }
}

/// Where an animation is: moving from page `from` to page `to`, `progress`
/// of the way (0…1); `fill` is the timer's fill of the current page.
struct Position {
    var from: Int
    var to: Int
    var progress: Double
    var fill: Double

    /// The current indicator's place along the row, in pages.
    var place: Double { Double(from) + (Double(to) - Double(from)) * progress }

    /// How much page `page` is the current one (1 at rest on it).
    func weight(of page: Int) -> Double {
        page == from ? 1 - progress : page == to ? progress : 0
    }
}

/// The geometry of an indicator row: dots of 8 points with 8-point gaps and
/// 4 points of padding, along x (or y when vertical), in points.
struct Sketch {
    var pages: Int
    /// For a scrolling window: how many dots it shows.
    var visible: Int?
    var background = RGBA.transparent
    var vertical = false
    /// Length added to the row (the timer's longer track).
    var extra = 0.0
    let dot = 8.0, gap = 8.0, padding = 4.0

    var length: Double { Double(visible ?? pages) * (dot + gap) - gap + 2 * padding + extra }

    func drawing(_ items: [DrawItem]) -> Drawing {
        let size = vertical ? Size(width: dot + 2 * padding, height: length) : Size(width: length, height: dot + 2 * padding)
        return Drawing(size: size, background: background, items: items)
    }

    /// Where page `place` (in pages, fractions between) starts along the row.
    func start(of place: Double) -> Double { padding + place * (dot + gap) }

    /// A box `length` long from `along`, `thickness` across, centred across the row.
    func box(along: Double, length: Double, thickness: Double) -> Rect {
        let across = padding + (dot - thickness) / 2
        return vertical ? Rect(x: across, y: along, width: thickness, height: length) : Rect(x: along, y: across, width: length, height: thickness)
    }

    /// A dot at page `place`, `long` pages' worth longer.
    func dotBox(at place: Double, long: Double = 0) -> Rect {
        box(along: start(of: place), length: dot + long * (dot + gap), thickness: dot)
    }

    func inactiveDots(_ color: RGBA, corner: Double? = nil) -> [DrawItem] {
        (0 ..< pages).map { .fill(Self.roundedRect(dotBox(at: Double($0)), radius: corner ?? dot / 2), color) }
    }

    // MARK: styles

    func fadingDots(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        (0 ..< pages).map { .fill(Self.roundedRect(dotBox(at: Double($0)), radius: dot / 2), Self.mix(inactive, current, position.weight(of: $0))) }
    }

    func slidingDot(current: RGBA, inactive: RGBA, at position: Position, corner: Double? = nil) -> [DrawItem] {
        inactiveDots(inactive, corner: corner) + [.fill(Self.roundedRect(dotBox(at: position.place), radius: corner ?? dot / 2), current)]
    }

    func pill(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        inactiveDots(inactive) + [.fill(Self.roundedRect(dotBox(at: position.place - 0.25, long: 0.5), radius: dot / 2), current)]
    }

    /// The head reaches the next page in the first half, the tail follows in the second.
    func worm(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        let from = Double(position.from), to = Double(position.to)
        let head = from + (to - from) * min(1, position.progress * 2), tail = from + (to - from) * max(0, position.progress * 2 - 1)
        return inactiveDots(inactive) + [.fill(Self.roundedRect(dotBox(at: min(head, tail), long: abs(head - tail)), radius: dot / 2), current)]
    }

    /// The iOS 17 timer: the current page is a track one page longer, which
    /// fills; moving on, one track shrinks as the next grows.
    func progress(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        var items: [DrawItem] = []
        var along = padding
        for page in 0 ..< pages {
            let length = dot + position.weight(of: page) * (dot + gap)
            let track = Self.roundedRect(box(along: along, length: length, thickness: dot), radius: dot / 2)
            items.append(.fill(track, inactive))
            if page == position.from {
                let filled = box(along: along, length: length * position.fill, thickness: dot)
                items.append(.clipped(Self.roundedRect(filled, radius: 0), [.fill(track, current)]))
            }
            along += length + gap
        }
        return items
    }

    /// A window of `visible` dots that keeps the current one in the middle;
    /// dots shrink towards the window's ends.
    func scroll(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        let window = Double(visible ?? pages)
        let first = min(max(0, position.place - (window - 1) / 2), Double(pages) - window)
        return (0 ..< pages).compactMap { page in
            let along = Double(page) - first
            guard along > -1, along < window else { return nil }
            let size = dot * min(1, max(0.4, min(along + 1, window - along) / 2))
            let rect = box(along: start(of: along) + (dot - size) / 2, length: size, thickness: size)
            return .fill(Self.roundedRect(rect, radius: size / 2), Self.mix(inactive, current, position.weight(of: page)))
        }
    }

    func rings(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        (0 ..< pages).map { .stroke(Self.roundedRect(dotBox(at: Double($0)).insetBy(0.5), radius: dot / 2 - 0.5), lineWidth: 1, inactive) }
            + [.fill(Self.roundedRect(dotBox(at: position.place), radius: dot / 2), current)]
    }

    func stars(current: RGBA, inactive: RGBA, at position: Position) -> [DrawItem] {
        (0 ..< pages).map { .fill(Self.star(in: dotBox(at: Double($0))), Self.mix(inactive, current, position.weight(of: $0))) }
    }

    // MARK: paths and colours

    /// A rectangle with quarter-ellipse corners of `radius` (a circle or capsule at half the short side).
    static func roundedRect(_ rect: Rect, radius: Double) -> Path {
        let r = min(radius, rect.width / 2, rect.height / 2), k = r * 0.4477152501692064
        let (left, top, right, bottom) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        return Path([
            .move(Point(x: left + r, y: top)), .line(Point(x: right - r, y: top)),
            .curve(Point(x: right - k, y: top), Point(x: right, y: top + k), Point(x: right, y: top + r)), .line(Point(x: right, y: bottom - r)),
            .curve(Point(x: right, y: bottom - k), Point(x: right - k, y: bottom), Point(x: right - r, y: bottom)), .line(Point(x: left + r, y: bottom)),
            .curve(Point(x: left + k, y: bottom), Point(x: left, y: bottom - k), Point(x: left, y: bottom - r)), .line(Point(x: left, y: top + r)),
            .curve(Point(x: left, y: top + k), Point(x: left + k, y: top), Point(x: left + r, y: top)), .close,
        ])
    }

    /// A five-pointed star filling `rect`.
    static func star(in rect: Rect) -> Path {
        let points = (0 ..< 10).map { index -> PathElement in
            let angle = Double(index) * Double.pi / 5 - Double.pi / 2, radius = index % 2 == 0 ? 0.5 : 0.2
            let point = Point(x: rect.midX + cos(angle) * radius * rect.width, y: rect.midY + sin(angle) * radius * rect.height)
            return index == 0 ? .move(point) : .line(point)
        }
        return Path(points + [.close])
    }

    /// `a` blended towards `b` by `t`, channel by channel.
    static func mix(_ a: RGBA, _ b: RGBA, _ t: Double) -> RGBA {
        func channel(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * t).rounded()) }
        return RGBA(red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue), alpha: channel(a.alpha, b.alpha))
    }
}
