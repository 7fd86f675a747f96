import PagedotsDecode

/// The `pagedots` command line: `serve` (the default), `render`, `carousel`, `sign`, `health`.
public enum PagedotsCommand {
    /// Runs the subcommand named by `arguments` (without the program name)
    /// and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        if asksForHelp(arguments) {
            writeOut(helpText)
            return 0
        }
        let command = arguments.first ?? "serve"
        let rest = Array(arguments.dropFirst())
        switch command {
        case "serve": return ServeCommand.run(rest)
        case "render": return RenderCommand.run(rest)
        case "carousel": return CarouselCommand.run(rest)
        case "health": return HealthCommand.run(rest)
        case "sign": return SignCommand.run(rest)
        case "--version":
            writeOut("pagedots \(pagedotsVersion)\n")
            return 0
        default:
            if command.hasPrefix("--") { return ServeCommand.run(arguments) }
            return fail("unknown command \(command); see pagedots --help")
        }
    }

    /// `pagedots help`, or `--help`/`-h` anywhere: `pagedots serve --help`
    /// and `pagedots render --help` help too, rather than failing.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.first == "help" || arguments.contains("--help") || arguments.contains("-h")
    }

    static let helpText = """
    pagedots \(pagedotsVersion): page indicators (carousel dots) as PNG and SVG over HTTP.

    Usage:
      pagedots [serve] [OPTIONS]          serve HTTP (the default)
      pagedots render QUERY [-o FILE] [--presets FILE]
                                          write one image, the same bytes the server sends
                                          (QUERY like 'pages=5&current=2' or '/indicator@2x.png?pages=5';
                                          without -o, to standard output)
      pagedots carousel QUERY SLIDE... [-o FILE] [--presets FILE] [--allow-source PREFIX ...]
      pagedots carousel QUERY --carousel IN.gif [-o FILE]
                                          write a carousel of the slides (\(ImageKind.allNames); files,
                                          or http(s) URLs fetched as GET /carousel?slide=URL fetches them,
                                          under --allow-source) or of a carousel GIF with its indicator,
                                          the same bytes as POST /carousel (QUERY like
                                          'style=pill&budget=1M' or '/carousel.apng?change=fade')
      pagedots sign QUERY [--signing-key KEY]
                                          print QUERY with its &sig= appended, under the first key
                                          (keys also from PAGEDOTS_SIGNING_KEY)
      pagedots health [--host H] [--port P]
                                          exit 0 if the server there answers /healthz (Docker HEALTHCHECK)
      pagedots --help | --version

    Options of serve (each falls back to its environment variable, then to its default):
    \(CommandLineOption.helpText)

    SIGTERM or SIGINT stops accepting at once, finishes the requests that have arrived,
    and exits 0 within the drain timeout. SIGHUP reads the --presets file again.

    """

    /// Prints `message` as `pagedots: message` on standard error; returns 1.
    static func fail(_ message: String) -> Int32 {
        writeError("pagedots: \(message)\n")
        return 1
    }
}
