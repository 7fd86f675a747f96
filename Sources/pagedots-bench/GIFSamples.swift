#if canImport(Glibc)
import Glibc
#endif
import PagedotsCore
import PagedotsGIF
import PagedotsPNG
import PagedotsRender

/// A test animation for the GIF encoder: a drawing for each frame of a
/// carousel cycle, as the animated indicators will be (the real timeline is
/// built elsewhere; these stand in for it).
struct GIFSample {
    var name: String
    var scale: Int
    var matte: RGBA = RGBA(red: 255, green: 255, blue: 255)
    /// What each frame shows and how long, in milliseconds.
    var frames: [(step: Step, delay: Int)]
    var draw: (Step) -> Drawing

    /// A moment of the cycle: the move from page `from` to page `to`, `t` of
    /// the way (0 at rest on `from`).
    struct Step {
        var from: Int
        var to: Int
        var t: Double
    }

    /// Every page in turn: a dwell, then `steps` frames that move to the next
    /// page within `transition` ms (the last arrives), the cycle ending where
    /// it began. Frames last whole hundredths of a second, at least 20 ms.
    static func slideTimeline(pages: Int, steps: Int = 8, dwell: Int = 3000, transition: Int = 300) -> [(step: Step, delay: Int)] {
        var frames: [(step: Step, delay: Int)] = []
        let slots = transition / 10
        for page in 0..<pages {
            let next = (page + 1) % pages
            frames.append((Step(from: page, to: next, t: 0), dwell - transition))
            for step in 1...steps {
                let delay = (slots * step / steps - slots * (step - 1) / steps) * 10
                frames.append((Step(from: page, to: next, t: Double(step) / Double(steps)), delay))
            }
        }
        return frames
    }

    /// Cuts from page to page (no transition), ending on the first page again.
    static func cutTimeline(pages: Int, dwell: Int = 3000) -> [(step: Step, delay: Int)] {
        (0..<pages).map { (Step(from: $0, to: $0, t: 0), $0 == pages - 1 ? dwell - 20 : dwell) } + [(Step(from: 0, to: 0, t: 0), 20)]
    }

    /// The iOS 17 timer: the current capsule fills over the dwell in `fills`
    /// frames, then the move.
    static func progressTimeline(pages: Int, fills: Int = 20, dwell: Int = 3000, transition: Int = 300) -> [(step: Step, delay: Int)] {
        slideTimeline(pages: pages, dwell: dwell, transition: transition).flatMap { frame -> [(step: Step, delay: Int)] in
            guard frame.step.t == 0 else { return [frame] }
            // t < 0 means "filling": −1 empty … 0 full, on page `from`.
            let slots = frame.delay / 10
            return (0..<fills).map { fill in
                let delay = (slots * (fill + 1) / fills - slots * fill / fills) * 10
                return (Step(from: frame.step.from, to: frame.step.to, t: Double(fill) / Double(fills) - 1), delay)
            }
        }
    }
}

/// Shapes for the samples, in points: outlines made of short straight
/// segments (Cairo's antialiasing makes them look round).
enum SampleShapes {
    /// Segments per quarter circle.
    static let arcSegments = 12

    /// A rectangle with quarter-circle corners of `radius` (at most half the
    /// short side): a circle in a square at full radius, a capsule otherwise.
    static func rounded(_ rect: Rect, radius: Double) -> Path {
        let r = min(radius, rect.width / 2, rect.height / 2)
        let centres = [(rect.x + rect.width - r, rect.y + rect.height - r), (rect.x + r, rect.y + rect.height - r),
                       (rect.x + r, rect.y + r), (rect.x + rect.width - r, rect.y + r)]
        var points: [Point] = []
        for (corner, (cx, cy)) in centres.enumerated() {
            for segment in 0...arcSegments {
                let angle = (Double(corner) + Double(segment) / Double(arcSegments)) * .pi / 2
                points.append(Point(x: cx + r * cos(angle), y: cy + r * sin(angle)))
            }
        }
        return Path([.move(points[0])] + points.dropFirst().map { .line($0) } + [.close])
    }

    static func ellipse(_ rect: Rect) -> Path {
        rounded(rect, radius: .infinity)
    }

    static func star(_ rect: Rect) -> Path {
        let points = (0..<10).map { k -> Point in
            let angle = Double(k) * .pi / 5 - .pi / 2, radius = (k % 2 == 0 ? 0.5 : 0.2) * rect.width
            return Point(x: rect.midX + radius * cos(angle), y: rect.midY + radius * sin(angle))
        }
        return Path([.move(points[0])] + points.dropFirst().map { .line($0) } + [.close])
    }

    static func mix(_ a: RGBA, _ b: RGBA, _ t: Double) -> RGBA {
        func channel(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) * (1 - t) + Double(y) * t).rounded()) }
        return RGBA(red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue), alpha: channel(a.alpha, b.alpha))
    }
}

/// A row (or column) of dots and what moves along it.
struct DotRow {
    var count = 5
    var size = 8.0
    var spacing = 8.0
    var padding = 4.0
    var vertical = false
    var color = RGBA.systemBlue
    var inactive = RGBA.systemBlue.fading(to: 0.3)
    var background = RGBA.transparent

    var canvas: Size {
        let long = Double(count) * size + Double(count - 1) * spacing + 2 * padding, short = size + 2 * padding
        return vertical ? Size(width: short, height: long) : Size(width: long, height: short)
    }

    /// The box of a shape `length` long centred on position `position` (in dots) along the row.
    func box(at position: Double, length: Double? = nil) -> Rect {
        let long = length ?? size
        let centre = padding + size / 2 + position * (size + spacing)
        return vertical
            ? Rect(x: padding, y: centre - long / 2, width: size, height: long)
            : Rect(x: centre - long / 2, y: padding, width: long, height: size)
    }

    func drawing(_ items: [DrawItem]) -> Drawing {
        Drawing(size: canvas, background: background, items: items)
    }

    /// Inactive dots everywhere, then `current` on top.
    func dots(shape: (Rect) -> Path = SampleShapes.ellipse, current: [DrawItem]) -> Drawing {
        drawing((0..<count).map { .fill(shape(box(at: Double($0))), inactive) } + current)
    }

    static func position(_ step: GIFSample.Step) -> Double {
        Double(step.from) + (Double(step.to) - Double(step.from)) * max(step.t, 0)
    }
}

extension GIFSample {
    /// The sample set that bench/gifsize measures: every style of motion, 1x to 3x.
    static var all: [GIFSample] {
        var samples: [GIFSample] = []
        func slide(_ name: String, scale: Int, row: DotRow = DotRow(), shape: @escaping (Rect) -> Path = SampleShapes.ellipse,
                   timeline: [(step: Step, delay: Int)]? = nil) {
            samples.append(GIFSample(name: name, scale: scale, frames: timeline ?? slideTimeline(pages: row.count)) { step in
                row.dots(shape: shape, current: [.fill(shape(row.box(at: DotRow.position(step))), row.color)])
            })
        }
        slide("dots-slide-1x", scale: 1)
        slide("dots-slide-2x", scale: 2)
        slide("dots-slide-3x", scale: 3)
        slide("dots-10-pages-1x", scale: 1, row: DotRow(count: 10))
        slide("dots-3-pages-2x", scale: 2, row: DotRow(count: 3))
        slide("dark-bg-2x", scale: 2, row: DotRow(color: RGBA(red: 255, green: 255, blue: 255), inactive: RGBA(red: 255, green: 255, blue: 255, alpha: 77),
                                                   background: RGBA(red: 28, green: 28, blue: 30)))
        slide("alpha-colors-2x", scale: 2, row: DotRow(color: RGBA(red: 255, green: 45, blue: 85, alpha: 153), inactive: RGBA(red: 255, green: 45, blue: 85, alpha: 51)))
        slide("ttb-column-2x", scale: 2, row: DotRow(vertical: true))
        slide("light-bg-3x", scale: 3, row: DotRow(size: 10, spacing: 10, background: RGBA(red: 242, green: 242, blue: 247)))
        slide("squares-2x", scale: 2, shape: { SampleShapes.rounded($0, radius: 2) })
        slide("stars-2x", scale: 2, row: DotRow(size: 12, color: RGBA(red: 255, green: 204, blue: 0), inactive: RGBA(red: 142, green: 142, blue: 147)),
              shape: SampleShapes.star)
        slide("cut-2x", scale: 2, timeline: cutTimeline(pages: 5))

        let row = DotRow()
        samples.append(GIFSample(name: "pill-slide-2x", scale: 2, frames: slideTimeline(pages: 5)) { step in
            row.dots(current: [.fill(SampleShapes.rounded(row.box(at: DotRow.position(step), length: 20), radius: 4), row.color)])
        })
        samples.append(GIFSample(name: "worm-2x", scale: 2, frames: slideTimeline(pages: 5)) { step in
            let from = Double(step.from), to = Double(step.to), t = max(step.t, 0)
            // The head reaches the next dot in the first half; the tail follows in the second.
            let head = from + (to - from) * min(1, 2 * t), tail = from + (to - from) * max(0, 2 * t - 1)
            let a = row.box(at: min(head, tail)), b = row.box(at: max(head, tail))
            return row.dots(current: [.fill(SampleShapes.rounded(Rect(x: a.x, y: a.y, width: b.x + b.width - a.x, height: a.height), radius: 4), row.color)])
        })
        func fade(_ name: String, scale: Int, row: DotRow) {
            samples.append(GIFSample(name: name, scale: scale, frames: slideTimeline(pages: row.count)) { step in
                let t = max(step.t, 0)
                return row.drawing((0..<row.count).map { dot -> DrawItem in
                    let weight = dot == step.from ? 1 - t : dot == step.to ? t : 0
                    return .fill(SampleShapes.ellipse(row.box(at: Double(dot))), SampleShapes.mix(row.inactive, row.color, weight))
                })
            })
        }
        fade("fade-2x", scale: 2, row: DotRow(color: RGBA(red: 52, green: 199, blue: 89), inactive: RGBA(red: 142, green: 142, blue: 147, alpha: 128)))
        fade("fade-bg-3x", scale: 3, row: DotRow(color: RGBA(red: 255, green: 149, blue: 0), inactive: RGBA(red: 60, green: 60, blue: 67),
                                                   background: RGBA(red: 255, green: 255, blue: 255)))
        let colors = [RGBA(red: 255, green: 59, blue: 48), RGBA(red: 255, green: 149, blue: 0), RGBA(red: 52, green: 199, blue: 89),
                      RGBA(red: 0, green: 122, blue: 255), RGBA(red: 175, green: 82, blue: 222)]
        samples.append(GIFSample(name: "page-colors-2x", scale: 2, frames: slideTimeline(pages: 5)) { step in
            let color = SampleShapes.mix(colors[step.from], colors[step.to], max(step.t, 0))
            return row.dots(current: [.fill(SampleShapes.ellipse(row.box(at: DotRow.position(step))), color)])
        })
        samples.append(GIFSample(name: "rings-2x", scale: 2, frames: slideTimeline(pages: 5)) { step in
            row.drawing((0..<row.count).map { .stroke(SampleShapes.ellipse(row.box(at: Double($0)).insetBy(0.75)), lineWidth: 1.5, row.color) }
                + [.fill(SampleShapes.ellipse(row.box(at: DotRow.position(step))), row.color)])
        })
        let window = DotRow(count: 5)
        samples.append(GIFSample(name: "scroll-window-2x", scale: 2, frames: slideTimeline(pages: 12)) { step in
            // Twelve pages, five dots visible, the current one kept in the middle.
            let position = DotRow.position(step), first = min(max(position - 2, 0), 7)
            return window.drawing((0..<12).map { page -> DrawItem in
                let box = window.box(at: Double(page) - first)
                let distance = abs(Double(page) - position)
                let size = distance > 2.5 ? 0.6 : 1.0
                let scaled = Rect(x: box.midX - box.width * size / 2, y: box.midY - box.height * size / 2, width: box.width * size, height: box.height * size)
                return .fill(SampleShapes.ellipse(scaled), SampleShapes.mix(window.color, window.inactive, min(1, distance)))
            })
        })
        samples.append(GIFSample(name: "underline-bar-2x", scale: 2, frames: slideTimeline(pages: 4)) { step in
            let segment = 30.0, size = Size(width: segment * 4 + 8, height: 12)
            let track: [DrawItem] = (0..<4).map { .fill(SampleShapes.rounded(Rect(x: 4 + Double($0) * segment + 2, y: 7, width: segment - 4, height: 3), radius: 1.5),
                                                        RGBA(red: 60, green: 60, blue: 67, alpha: 40)) }
            let x = 4 + DotRow.position(step) * segment + 2
            return Drawing(size: size, background: .transparent, items: track + [.fill(SampleShapes.rounded(Rect(x: x, y: 7, width: segment - 4, height: 3), radius: 1.5), .systemBlue)])
        })
        samples.append(GIFSample(name: "fraction-text-2x", scale: 2, frames: cutTimeline(pages: 7)) { step in
            Drawing(size: Size(width: 60, height: 20), background: .transparent, items: [
                .text(TextRun(text: "\(step.from + 1)\u{2009}/\u{2009}7", box: Rect(x: 0, y: 0, width: 60, height: 20), fontSize: 12, weight: .semibold, color: .systemBlue)),
            ])
        })

        // Real indicators from pagedots' layout, page by page.
        func spec(_ query: String, timeline: [(step: Step, delay: Int)], name: String) {
            guard let base = try? IndicatorQuery.parse(query: Substring(query)).spec else { return }
            samples.append(GIFSample(name: name, scale: base.scale, frames: timeline) { step in
                var spec = base
                spec.current = step.from
                if step.t < 0 {
                    spec.progress = step.t + 1
                }
                return IndicatorLayout.drawing(for: spec)
            })
        }
        spec("pages=5&style=pill&scale=2", timeline: cutTimeline(pages: 5), name: "layout-pill-cut-2x")
        spec("pages=4&style=bar&labels=One,Two,Three,Four&scale=2", timeline: cutTimeline(pages: 4), name: "layout-bar-labels-cut-2x")
        spec("pages=6&colors=ff3b30,ff9500,34c759,007aff,5856d6,af52de&scale=3", timeline: cutTimeline(pages: 6), name: "layout-colors-cut-3x")
        spec("pages=5&style=progress&scale=2", timeline: progressTimeline(pages: 5).map { ($0.step, $0.delay) }, name: "layout-progress-fill-2x")
        spec("pages=5&shape=heart&fill=outline&scale=2&bg=1c1c1e", timeline: cutTimeline(pages: 5), name: "layout-hearts-outline-dark-cut-2x")
        return samples
    }
}
