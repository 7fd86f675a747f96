import Glibc
import PagedotsCore

/// `pagedots render QUERY [-o FILE] [--presets FILE] [--now TIME]`: one
/// image, the bytes the server would send (with those presets, at that time).
enum RenderCommand {
    /// The flags of `serve` that `render` takes too.
    static let serveFlags: Set<String> = ["--presets", "--now"]

    static func run(_ arguments: [String]) -> Int32 {
        var target: String?
        var output: String?
        var flags: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-o" || argument == "--output" {
                guard index + 1 < arguments.count else { return PagedotsCommand.fail("\(argument) needs a file name") }
                output = arguments[index + 1]
                index += 2
            } else if serveFlags.contains(String(argument.prefix { $0 != "=" })) {
                let takesNext = !argument.contains("=") && index + 1 < arguments.count
                flags += takesNext ? [argument, arguments[index + 1]] : [argument]
                index += takesNext ? 2 : 1
            } else if target == nil {
                target = argument
                index += 1
            } else {
                return PagedotsCommand.fail("render takes one QUERY; got also \"\(argument)\"")
            }
        }
        guard let target else { return PagedotsCommand.fail("render needs a QUERY, like 'pages=5&current=2'") }
        let configuration: ServiceConfiguration
        switch CommandLineOption.configurationWithPresets(arguments: flags, environment: { _ in nil }) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        let (path, query) = IndicatorQuery.split(target: Substring(target))
        let request: IndicatorRequest
        do throws(ServiceError) {
            let pathOptions: PathOptions?
            do {
                pathOptions = try IndicatorQuery.pathOptions(forPath: path)
            } catch {
                throw .badParameter(error)
            }
            guard let options = pathOptions else { return PagedotsCommand.fail("not an image path: \(path)") }
            let gate = QueryGate(
                signer: nil, presets: PresetStore(configuration.presets, file: nil, zones: configuration.zones), onlyPresets: false
            )
            let now = configuration.clock()
            let parameters = try gate.admit(query, suffixSets: options.parameters, now: now).parameters
            do {
                request = try IndicatorQuery.parse(query: parameters, options: options, calendar: CalendarContext(now: now, zones: configuration.zones))
            } catch {
                throw .badParameter(error)
            }
        } catch {
            return PagedotsCommand.fail(error.message)
        }
        if !request.ignoredParameters.isEmpty {
            writeError("pagedots: ignored parameters: \(request.ignoredParameters.joined(separator: ", "))\n")
        }
        let image = ImageMaker().makeImage(for: request.spec)
        guard let output else {
            return writeAll(image.bytes, to: STDOUT_FILENO) ? 0 : PagedotsCommand.fail("cannot write to standard output")
        }
        let file = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard file >= 0 else { return PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        return writeAll(image.bytes, to: file) ? 0 : PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))")
    }
}
