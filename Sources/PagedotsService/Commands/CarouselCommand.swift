import Glibc
import PagedotsCore
import PagedotsFetch

/// `pagedots carousel QUERY SLIDE… [-o FILE]` or `pagedots carousel QUERY
/// --carousel IN.gif [-o FILE]`: a carousel, the bytes `POST /carousel`
/// would send for the same files and query (with those presets, at that
/// time). A slide (or carousel) given as an `http(s)://` URL is fetched
/// under the rules `GET /carousel?slide=URL` keeps (`--allow-source`,
/// `--allow-private-sources`, `--max-source-mb`, `--source-timeout`).
enum CarouselCommand {
    /// The flags of `serve` that this command takes too.
    static let serveFlags: Set<String> = RenderCommand.serveFlags.union([
        "--allow-source", "--allow-private-sources", "--max-source-mb", "--source-timeout",
    ])

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
            } else if serveFlags.contains(String(argument.prefix { $0 != "=" })) {
                let isSwitch = CommandLineOption.all.first { $0.flag == argument }?.isSwitch ?? false
                let takesNext = !isSwitch && !argument.contains("=") && index + 1 < arguments.count
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
        let read: [(name: String, bytes: [UInt8])]
        switch Self.read(files, configuration: configuration) {
        case .success(let value): read = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
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
            let drawn = try CarouselDrawing.draw(request, input: input, maker: ImageMaker())
            image = drawn.file
            if let encoding = drawn.encoding {
                writeError("pagedots: \(request.layout.points.text) points, \(image.count) bytes: \(encoding.headerText)\n")
            }
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

    /// The bytes of each file, or of each URL fetched under `configuration`'s
    /// rules (in parallel); the first that cannot be had, in one line.
    private static func read(
        _ files: [(name: String, path: String)], configuration: ServiceConfiguration
    ) -> Result<[(name: String, bytes: [UInt8])], CommandError> {
        let isURL = { (path: String) in path.lowercased().hasPrefix("http://") || path.lowercased().hasPrefix("https://") }
        var fetched: [String: [UInt8]] = [:]
        let urls = files.map(\.path).filter(isURL)
        if !urls.isEmpty {
            switch fetch(urls, configuration: configuration) {
            case .success(let bytes): fetched = bytes
            case .failure(let error): return .failure(error)
            }
        }
        var read: [(name: String, bytes: [UInt8])] = []
        for file in files {
            if let bytes = fetched[file.path] {
                read.append((file.name, bytes))
                continue
            }
            guard let bytes = readFile(file.path, limit: configuration.server.maxUploadBytes) else {
                return .failure(CommandError(message: "cannot read \(file.path): \(String(cString: strerror(errno)))"))
            }
            read.append((file.name, bytes))
        }
        return .success(read)
    }

    /// Each of `texts` fetched as a URL slide, by its text; or the first refusal.
    private static func fetch(_ texts: [String], configuration: ServiceConfiguration) -> Result<[String: [UInt8]], CommandError> {
        let allowed = configuration.allowedSources
        let addresses = AddressPolicy(allowPrivate: configuration.allowPrivateSources)
        guard !allowed.isEmpty else {
            return .failure(CommandError(message: "\(texts[0]): URL slides are not enabled: give --allow-source PREFIX"))
        }
        var urls: [SourceURL] = []
        for text in texts {
            do throws(SourceURLError) {
                let url = try SourceURL(text)
                guard allowed.allows(url) else { return .failure(CommandError(message: "\(text): not an allowed source (see --allow-source)")) }
                if let address = url.address, let refusal = addresses.refusal(of: address) {
                    return .failure(CommandError(message: "\(text): \(url.host) is \(refusal), which is not fetched"))
                }
                urls.append(url)
            } catch {
                return .failure(CommandError(message: "\(text): \(error)"))
            }
        }
        let policy = FetchPolicy.urlSlides(
            allowed: allowed, addresses: addresses, maxBytes: configuration.maxSourceBytes, timeout: configuration.sourceTimeout
        )
        // OpenSSL may write to a connection its origin closed.
        signal(SIGPIPE, SIG_IGN)
        let fetcher: Fetcher
        do throws(FetcherError) {
            fetcher = try Fetcher(policy: policy)
        } catch {
            return .failure(CommandError(message: "cannot fetch URL slides: \(error)"))
        }
        var bytes: [String: [UInt8]] = [:]
        for (text, outcome) in zip(texts, fetcher.fetchAll(urls.map { FetchRequest(url: $0.text) })) {
            switch outcome.result {
            case .failure(let failure):
                return .failure(CommandError(message: "\(text): \(failure.message)"))
            case .success(let response) where !(200...299).contains(response.status):
                return .failure(CommandError(message: "\(text): its source answered \(response.status)"))
            case .success(let response):
                bytes[text] = response.body
            }
        }
        return .success(bytes)
    }
}

/// Why a subcommand stops, in one line.
struct CommandError: Error {
    var message: String
}
