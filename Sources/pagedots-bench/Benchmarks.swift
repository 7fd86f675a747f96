import PagedotsCore
import PagedotsPNG
import PagedotsRender
import PagedotsService

/// The spec of a render target (a bare query, an image path with a query,
/// or a whole URL) as `pagedots render` takes it; `format`, when given, in
/// place of the path's.
func parseSpec(_ line: Substring, format: ImageFormat? = nil) throws(ParameterError) -> IndicatorSpec {
    let (path, query) = IndicatorQuery.split(target: line)
    guard var options = try IndicatorQuery.pathOptions(forPath: path) else { fail("not an image path: \(line)") }
    if let format {
        options.format = format
    }
    return try IndicatorQuery.parse(query: query, options: options).spec
}

/// `encode QUERIES OUTDIR`: per query, pagedots' encoder against Cairo's
/// writer on the same pixels; writes both files as OUTDIR/NNN-{pagedots,cairo}.png.
func benchmarkEncoding(queries: [Substring], outputDirectory: String, stopwatch: Stopwatch) throws {
    let renderer = RasterRenderer()
    let encoder = PNGEncoder()
    print("# n  WxH  pagedots_bytes  cairo_bytes  pagedots_us  cairo_us  type  query")
    for (number, query) in queries.enumerated() {
        let spec = try parseSpec(query)
        let image = renderer.render(IndicatorLayout.drawing(for: spec), scale: spec.scale)
        let cairo = CairoPNGWriter(rgba: image.pixels, width: image.width, height: image.height)
        let ours = encoder.encode(rgba: image.pixels, width: image.width, height: image.height)
        let theirs = cairo.write()
        let name = String(number + 1).leftPadded(to: 3, with: "0")
        try writeFile("\(outputDirectory)/\(name)-pagedots.png", ours)
        try writeFile("\(outputDirectory)/\(name)-cairo.png", theirs)
        let oursTime = stopwatch.microsecondsPerCall { encoder.encode(rgba: image.pixels, width: image.width, height: image.height).count }
        let theirsTime = stopwatch.microsecondsPerCall { cairo.write().count }
        print(name, "\(image.width)x\(image.height)", ours.count, theirs.count, format(oursTime), format(theirsTime), colorTypeName(ours), query)
        flushOutput()
    }
}

/// `render QUERY…`: µs per image for the whole pipeline (spec → drawing →
/// pixels → PNG) in a tight loop on one thread, as the server runs it. A
/// query that pagedots refuses (e.g. over the size limit) gets a `refused` row.
func benchmarkRendering(queries: [Substring], stopwatch: Stopwatch) {
    let maker = ImageMaker()
    print("# WxH  bytes  us_per_image  query")
    for query in queries {
        let spec: IndicatorSpec
        do {
            spec = try parseSpec(query)
        } catch {
            // Keep the row, so that rows still line up with the anchor's.
            print("refused", "-", "-", query, "#", error.description)
            continue
        }
        let sample = maker.makeImage(for: spec).bytes
        let time = stopwatch.microsecondsPerCall { maker.makeImage(for: spec).bytes.count }
        print(imageSize(sample), sample.count, format(time), query)
        flushOutput()
    }
}

/// `ratio ANCHOR QUERY…`: each query's time (render + encode, as `render`)
/// as a ratio to the anchor's, measured in rounds that time a block of
/// every image in turn (`Stopwatch.interleavedMicrosecondsPerCall`): the
/// median over rounds of the round's ratio, with its quartiles, and the
/// median µs per image.
func benchmarkRatios(anchor: Substring, queries: [Substring], stopwatch: Stopwatch, rounds: Int, blockTime: Duration) throws(ParameterError) {
    let maker = ImageMaker()
    let specs = try ([anchor] + queries).map { query throws(ParameterError) in try parseSpec(query) }
    let samples = specs.map { maker.makeImage(for: $0).bytes }
    let times = stopwatch.interleavedMicrosecondsPerCall(specs.map { spec in { maker.makeImage(for: spec).bytes.count } }, rounds: rounds, blockTime: blockTime)
    func median(_ values: [Double], at fraction: Double = 0.5) -> Double {
        values.sorted()[min(values.count - 1, Int(Double(values.count - 1) * fraction + 0.5))]
    }
    print("# \(rounds) rounds of one block of each image (~\(blockTime) each); us_per_image: median over rounds; ratio: median over rounds of the image's time / the anchor's in the same round, with its quartiles")
    print("# WxH  bytes  us_per_image  ratio  q1  q3  query")
    for (number, query) in ([anchor] + queries).enumerated() {
        let ratios = times.map { $0[number] / $0[0] }
        let row = [median(times.map { $0[number] }), median(ratios), median(ratios, at: 0.25), median(ratios, at: 0.75)]
        print(imageSize(samples[number]), samples[number].count, format(row[0]), row[1...].map { format($0, places: 2) }.joined(separator: " "), query)
    }
    flushOutput()
}

/// `render-unique QUERY`: µs per image, as `render`, but every image is one
/// not drawn before: QUERY with `&color=` counted up from 000001, as
/// bench/requests.lua asks the server for its misses. Drawing the same few
/// images over and over lets the CPU's caches and branch predictors learn
/// them (4–5 % faster here), which a server drawing only new images never gets.
/// The specs are parsed before timing (parsing is not the renderer's work).
func benchmarkRenderingUnique(query: Substring, stopwatch: Stopwatch) throws {
    let maker = ImageMaker()
    // More than a run draws: no image comes twice while the CPU still remembers it.
    let specs = try (1...uniqueImageCount).map { count throws(ParameterError) in
        try parseSpec(query + "&color=" + String(count, radix: 16).leftPadded(to: 6, with: "0"))
    }
    var next = 0
    let time = stopwatch.microsecondsPerCall {
        next = (next + 1) % specs.count
        return maker.makeImage(for: specs[next]).bytes.count
    }
    print("# us_per_image  distinct_images")
    print(format(time), specs.count)
}

/// Distinct images `render-unique` draws in turn.
let uniqueImageCount = 8192

/// "WxH" of a GIF's logical screen or a PNG's IHDR; "-" for an SVG.
func imageSize(_ image: [UInt8]) -> String {
    if image.starts(with: Array("GIF8".utf8)) {
        // Two little-endian 16-bit fields after the six-byte signature.
        guard image.count >= 10 else { return "?" }
        return "\(Int(image[6]) | Int(image[7]) << 8)x\(Int(image[8]) | Int(image[9]) << 8)"
    }
    return image.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? pngSize(image) : "-"
}

/// "WxH" from a PNG's IHDR.
func pngSize(_ png: [UInt8]) -> String {
    guard png.count >= 24 else { return "?" }
    let field = { (offset: Int) in png[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return "\(field(16))x\(field(20))"
}

/// A short name for a PNG's colour type and depth, as in pngcheck: pal8, grey4, rgba8.
func colorTypeName(_ png: [UInt8]) -> String {
    guard png.count >= 26 else { return "?" }
    let names: [UInt8: String] = [0: "grey", 2: "rgb", 3: "pal", 4: "greya", 6: "rgba"]
    return "\(names[png[25]] ?? "?")\(png[24])"
}

/// `value` with `places` decimals (one by default), for non-negative figures.
func format(_ value: Double, places: Int = 1) -> String {
    var unit = 1
    for _ in 0..<places { unit *= 10 }
    let scaled = Int((value * Double(unit)).rounded())
    let decimals = String(scaled % unit).leftPadded(to: places, with: "0")
    return places == 0 ? "\(scaled)" : "\(scaled / unit).\(decimals)"
}

extension String {
    func leftPadded(to length: Int, with pad: Character) -> String {
        String(repeating: pad, count: max(0, length - count)) + self
    }
}
