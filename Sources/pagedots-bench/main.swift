// Benchmark driver for the scripts under bench/ (not shipped in the image).
#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: pagedots-bench encode QUERIES_FILE OUTDIR   pagedots' PNG encoder vs Cairo's writer, same pixels
           pagedots-bench render QUERY...              µs per image, render + encode (ImageMaker)
           pagedots-bench render-unique QUERY          the same, every image a new one (QUERY&color= counted up)
           pagedots-bench ratio ANCHOR QUERY...        each image's time as a ratio to ANCHOR's, measured in
                                                       rounds of one block of each image in turn (ROUNDS, BLOCK_MS)
           pagedots-bench draw QUERY...                µs per animation, its frames drawn alone (no encoding)
           pagedots-bench frames QUERY OUTDIR          an animation's frames as OUTDIR/frame-NNN.png, delays on stdout
           pagedots-bench animation-samples URLS_FILE OUTDIR
                                                       each URL's animation as GIF and APNG, its frames, times
    QUERY: a query, or a URL or path and query (/indicator@2x.gif?pages=5: the path's scale and format count).
    QUERIES_FILE, URLS_FILE: one a line; blank lines and lines starting with # are skipped.
    Env: RUNS (timed runs, median taken; default 5; animation-samples: 0 times nothing),
         RUN_MS (ms per timed run; default 60), CLOCK=wall to time wall-clock instead of the thread's CPU time;
         ratio: ROUNDS (default 60), BLOCK_MS (ms per block; default 10).
    """

func fail(_ message: String) -> Never {
    let line = Array("pagedots-bench: \(message)\n".utf8)
    _ = write(2, line, line.count)
    exit(2)
}

func flushOutput() {
    fflush(nil)
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws(FileError) {
    guard let file = fopen(path, "wb") else { throw FileError(path: path) }
    defer { fclose(file) }
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw FileError(path: path) }
}

/// The lines of a text file that are not blank or comments (starting with `#`), trimmed at the start.
func readQueries(_ path: String) throws(FileError) -> [Substring] {
    guard let file = fopen(path, "rb") else { throw FileError(path: path) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        .map { $0.trimmingPrefix(while: \.isWhitespace) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

struct FileError: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot read or write \(path)" }
}

func environmentInt(_ name: String, default value: Int) -> Int {
    getenv(name).flatMap { Int(String(cString: $0)) } ?? value
}

let arguments = CommandLine.arguments.dropFirst()
let stopwatch = Stopwatch(
    runs: max(1, environmentInt("RUNS", default: 5)),
    runTime: .milliseconds(environmentInt("RUN_MS", default: 60)),
    clock: getenv("CLOCK").map { String(cString: $0) } == "wall" ? .wall : .threadCPU
)
do {
    switch arguments.first {
    case "encode" where arguments.count == 3:
        try benchmarkEncoding(queries: readQueries(String(arguments.dropFirst().first ?? "")), outputDirectory: String(arguments.last ?? "."), stopwatch: stopwatch)
    case "render" where arguments.count >= 2:
        benchmarkRendering(queries: arguments.dropFirst().map { Substring($0) }, stopwatch: stopwatch)
    case "ratio" where arguments.count >= 3:
        try benchmarkRatios(
            anchor: Substring(arguments.dropFirst().first ?? ""), queries: arguments.dropFirst(2).map { Substring($0) }, stopwatch: stopwatch,
            rounds: max(1, environmentInt("ROUNDS", default: 60)), blockTime: .milliseconds(max(1, environmentInt("BLOCK_MS", default: 10)))
        )
    case "render-unique" where arguments.count == 2:
        try benchmarkRenderingUnique(query: Substring(arguments.last ?? ""), stopwatch: stopwatch)
    case "draw" where arguments.count >= 2:
        try benchmarkDrawing(queries: arguments.dropFirst().map { Substring($0) }, stopwatch: stopwatch)
    case "frames" where arguments.count == 3:
        try writeAnimationFrames(query: Substring(arguments.dropFirst().first ?? ""), outputDirectory: String(arguments.last ?? "."))
    case "animation-samples" where arguments.count == 3:
        try benchmarkAnimationSamples(
            urls: readQueries(String(arguments.dropFirst().first ?? "")), outputDirectory: String(arguments.last ?? "."),
            stopwatch: environmentInt("RUNS", default: 5) == 0 ? nil : stopwatch
        )
    default:
        fail(usage)
    }
} catch {
    fail("\(error)")
}
