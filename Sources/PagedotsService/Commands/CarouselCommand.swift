import Glibc
import PagedotsCore

/// `pagedots carousel QUERY SLIDE… [-o FILE]` or `pagedots carousel QUERY
/// --carousel IN.gif [-o FILE]`: a carousel, the bytes `POST /carousel`
/// would send for the same files and query (with those presets, at that time).
enum CarouselCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var target: String?
        var output: String?
        var files: [(name: String, path: String)] = []
        var flags: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if ["-o", "--output", "--carousel"].contains(argument) {
                guard index + 1 < arguments.count else { return PagedotsCommand.fail("\(argument) needs a file name") }
                if argument == "--carousel" {
                    files.append(("carousel", arguments[index + 1]))
                } else {
                    output = arguments[index + 1]
                }
                index += 2
            } else if RenderCommand.serveFlags.contains(String(argument.prefix { $0 != "=" })) {
                let takesNext = !argument.contains("=") && index + 1 < arguments.count
                flags += takesNext ? [argument, arguments[index + 1]] : [argument]
                index += takesNext ? 2 : 1
            } else if target == nil {
                target = argument
                index += 1
            } else {
                files.append(("slide", argument))
                index += 1
            }
        }
        guard let target else { return PagedotsCommand.fail("carousel needs a QUERY, like 'style=pill&dwell=3000', then the slides") }
        let configuration: ServiceConfiguration
        switch CommandLineOption.configurationWithPresets(arguments: flags, environment: { _ in nil }) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        var read: [(name: String, bytes: [UInt8])] = []
        for file in files {
            guard let bytes = readFile(file.path, limit: configuration.server.maxUploadBytes) else {
                return PagedotsCommand.fail("cannot read \(file.path): \(String(cString: strerror(errno)))")
            }
            read.append((file.name, bytes))
        }
        let (path, query) = IndicatorQuery.split(target: Substring(target))
        let image: CarouselFile
        do throws(ServiceError) {
            let pathOptions: PathOptions?
            do {
                pathOptions = try CarouselQuery.pathOptions(forPath: path == "/indicator" ? "/carousel" : path)
            } catch {
                throw .badParameter(error)
            }
            guard let options = pathOptions else { return PagedotsCommand.fail("not a carousel path: \(path)") }
            let input: CarouselInput
            do throws(CarouselInputError) {
                input = try CarouselInput(files: read)
            } catch {
                throw .carouselInput(error)
            }
            let gate = QueryGate(
                signer: nil, presets: PresetStore(configuration.presets, file: nil, zones: configuration.zones), onlyPresets: false
            )
            let now = configuration.clock()
            let parameters = try gate.admit(query, suffixSets: options.parameters, now: now).parameters
            let request = try CarouselDrawing.request(
                for: input, parameters: parameters, options: options, calendar: CalendarContext(now: now, zones: configuration.zones)
            )
            if !request.ignoredParameters.isEmpty {
                writeError("pagedots: ignored parameters: \(request.ignoredParameters.joined(separator: ", "))\n")
            }
            image = try CarouselDrawing.draw(request, input: input, maker: ImageMaker())
        } catch {
            return PagedotsCommand.fail(error.message)
        }
        guard let output else {
            return image.copy(to: STDOUT_FILENO) ? 0 : PagedotsCommand.fail("cannot write to standard output")
        }
        let file = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard file >= 0 else { return PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        return image.copy(to: file) ? 0 : PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))")
    }
}
