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

func format(_ microseconds: Double) -> String {
    let tenths = Int((microseconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

extension String {
    func leftPadded(to length: Int, with pad: Character) -> String {
        String(repeating: pad, count: max(0, length - count)) + self
    }
}
