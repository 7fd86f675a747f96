// libFuzzer harness for the image URL parser: compiled together with
// Sources/PagedotsCore/*.swift as one module (see scripts/fuzz).
//
// Input: a path, a newline, a query (without `?`); no newline: the whole
// input is the query of `/indicator`. The harness checks that parsing never
// traps, gives the same answer twice, and that an accepted request can be
// laid out (the drawing the renderer would get) within the image limits, and
// hashes the same (the spec is the cache's key) every time. An accepted
// animation's timeline keeps the frame limits, lasts pages × dwell in delays
// of whole centiseconds of 20 ms or more, starts and ends on the still, and
// draws every frame with finite coordinates on the still's canvas.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (path, query): (Substring, Substring) = text.firstIndex(of: "\n").map {
        (text[..<$0], text[text.index(after: $0)...])
    } ?? ("/indicator", text[...])
    let first: Result<IndicatorRequest, ParameterError>
    do throws(ParameterError) {
        guard let options = try IndicatorQuery.pathOptions(forPath: path) else { return 0 }
        first = .success(try IndicatorQuery.parse(query: query, options: options))
    } catch {
        precondition(!error.description.contains("\n"), "a 400's reason must be one line")
        return 0
    }
    guard case .success(let request) = first else { return 0 }
    let options = (try? IndicatorQuery.pathOptions(forPath: path)).flatMap { $0 } ?? PathOptions()
    let again = try? IndicatorQuery.parse(query: query, options: options)
    precondition(again == request, "parsing is not deterministic")
    precondition(request.spec.hashValue == again?.spec.hashValue, "the spec, the cache's key, hashes differently")
    let drawing = IndicatorLayout.drawing(for: request.spec)
    let side = Double(ImageLimits.maxSide)
    precondition(drawing.size.width > 0 && drawing.size.width <= side && drawing.size.height > 0 && drawing.size.height <= side,
                 "canvas \(drawing.size) outside the limits")
    drawing.items.forEach(checkFinite)
    if request.spec.format.isAnimated { checkAnimation(request.spec, still: drawing) }
    return 0
}

/// The timeline of an accepted animation keeps its promises.
private func checkAnimation(_ spec: IndicatorSpec, still: Drawing) {
    let timeline = AnimationTimeline(spec: spec)
    let planned = timeline.frameCount
    precondition(planned >= 1 && planned <= ImageLimits.maxFrames, "\(planned) frames planned")
    let frames = timeline.frames()
    precondition(!frames.isEmpty && frames.count <= planned, "\(frames.count) frames for \(planned) planned")
    precondition(frames.reduce(0) { $0 + $1.delay } == spec.pages * spec.dwell, "the delays do not add up to pages × dwell")
    precondition(frames.allSatisfy { $0.delay >= AnimationTimeline.minimumDelay && $0.delay % 10 == 0 }, "a delay is not whole centiseconds of 20 ms or more")
    let rest = Moment.rest(page: spec.current, fill: 0)
    precondition(frames.first?.moment == rest && frames.last?.moment == rest, "the cycle does not start and end on current")
    for frame in frames {
        let drawing = timeline.drawing(of: frame)
        precondition(drawing.size == still.size, "a frame's canvas differs from the still's")
        drawing.items.forEach(checkFinite)
    }
}

/// Every coordinate the renderer would get is a finite number.
private func checkFinite(_ item: DrawItem) {
    func check(_ path: Path) {
        for element in path.elements {
            switch element {
            case .move(let point), .line(let point):
                precondition(point.x.isFinite && point.y.isFinite, "non-finite point")
            case .curve(let a, let b, let c):
                precondition([a.x, a.y, b.x, b.y, c.x, c.y].allSatisfy(\.isFinite), "non-finite curve")
            case .close:
                break
            }
        }
    }
    switch item {
    case .fill(let path, _): check(path)
    case .stroke(let path, let width, _):
        check(path)
        precondition(width.isFinite && width > 0, "bad line width")
    case .clipped(let path, let items):
        check(path)
        items.forEach(checkFinite)
    case .text(let run):
        precondition([run.box.x, run.box.y, run.box.width, run.box.height, run.fontSize].allSatisfy(\.isFinite), "non-finite text box")
    }
}
