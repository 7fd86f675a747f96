import Glibc
import PagedotsCore

/// A flag of `pagedots serve`, with its environment fallback.
public struct CommandLineOption: Sendable {
    /// `--name`.
    public var flag: String
    /// The environment variable read when the flag is absent.
    public var environment: String
    public var valueName: String
    public var help: String
    /// A secret: an error message gives the value's length, not its text.
    var isSecret = false
    /// May be given more than once: the values are joined with commas, as
    /// the environment variable lists them.
    var isRepeatable = false
    /// Takes no value on the command line (its presence means `true`); the
    /// environment variable says `1`/`true` or `0`/`false`.
    var isSwitch = false
    /// Left out of `--help` (documented in docs/operating.md instead).
    var isHidden = false
    let apply: @Sendable (inout ServiceConfiguration, String) -> String?

    /// Every flag of `pagedots serve`, in the order `--help` lists them.
    public static let all: [CommandLineOption] = [
        CommandLineOption(flag: "--host", environment: "PAGEDOTS_HOST", valueName: "ADDRESS",
                          help: "address to listen on (default 127.0.0.1; the Docker image sets 0.0.0.0)") { config, value in
            guard !value.isEmpty else { return "must be an IPv4 address or host name" }
            config.server.host = value
            return nil
        },
        CommandLineOption(flag: "--port", environment: "PORT", valueName: "N",
                          help: "TCP port (default 8080; 0 picks a free one)") { config, value in
            integer(value, in: 0...65535).map { config.server.port = $0 }.failure("must be an integer from 0 to 65535")
        },
        CommandLineOption(flag: "--cache-mb", environment: "PAGEDOTS_CACHE_MB", valueName: "MIB",
                          help: "image cache budget in MiB of stored responses (default 64; 0 disables caching)") { config, value in
            integer(value, in: 0...1_048_576).map { config.cacheBytes = $0 << 20 }.failure("must be an integer from 0 to 1048576")
        },
        CommandLineOption(flag: "--threads", environment: "PAGEDOTS_THREADS", valueName: "N",
                          help: "event-loop threads and still-image render threads, each, and one fewer (at least 1) for animations (default: one per core)") { config, value in
            integer(value, in: 1...256).map {
                config.server.eventLoops = $0
                config.renderThreads = $0
            }.failure("must be an integer from 1 to 256")
        },
        CommandLineOption(flag: "--render-queue", environment: "PAGEDOTS_RENDER_QUEUE", valueName: "N",
                          help: "still-image misses that may wait for a render thread, and an eighth as many animations; more get 503 (default 256)") { config, value in
            integer(value, in: 1...1_000_000).map { config.renderQueueLimit = $0 }.failure("must be an integer from 1 to 1000000")
        },
        CommandLineOption(flag: "--max-connections", environment: "PAGEDOTS_MAX_CONNECTIONS", valueName: "N",
                          help: "open client connections at most; one more is answered 503 and closed (default 10000)") { config, value in
            integer(value, in: 1...1_000_000).map { config.server.maxConnections = $0 }.failure("must be an integer from 1 to 1000000")
        },
        CommandLineOption(flag: "--header-timeout", environment: "PAGEDOTS_HEADER_TIMEOUT", valueName: "SECONDS",
                          help: "deadline for a request head from its first byte; then 408 (default 10)") { config, value in
            seconds(value).map { config.server.headerTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--idle-timeout", environment: "PAGEDOTS_IDLE_TIMEOUT", valueName: "SECONDS",
                          help: "close connections idle this long between requests (default 5)") { config, value in
            seconds(value).map { config.server.idleTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--send-timeout", environment: "PAGEDOTS_SEND_TIMEOUT", valueName: "SECONDS",
                          help: "abandon a response the client takes no byte of for this long, resetting the connection (default 30)") { config, value in
            seconds(value).map { config.server.sendTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--body-timeout", environment: "PAGEDOTS_BODY_TIMEOUT", valueName: "SECONDS",
                          help: "deadline for an upload's body (POST /carousel) from the end of its head; then 408 (default 30)") { config, value in
            seconds(value).map { config.server.bodyTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--max-upload-mb", environment: "PAGEDOTS_MAX_UPLOAD_MB", valueName: "MIB",
                          help: "largest upload body (POST /carousel) in MiB, larger is 413; four times this is held at most, all uploads together (default 32)") { config, value in
            integer(value, in: 1...1024).map {
                config.server.maxUploadBytes = $0 << 20
                config.server.maxHeldUploadBytes = 4 * ($0 << 20)
            }.failure("must be an integer from 1 to 1024")
        },
        CommandLineOption(flag: "--drain-timeout", environment: "PAGEDOTS_DRAIN_TIMEOUT", valueName: "SECONDS",
                          help: "on SIGTERM/SIGINT, wait this long for requests in flight (default 10)") { config, value in
            seconds(value).map { config.server.drainTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--access-log", environment: "PAGEDOTS_ACCESS_LOG", valueName: "FORMAT",
                          help: "one line per response on standard output: combined, json or off (default combined)") { config, value in
            guard let format = AccessLogFormat(rawValue: value.lowercased()) else { return "must be combined, json or off" }
            config.accessLog = format
            return nil
        },
        CommandLineOption(flag: "--client-miss-rate", environment: "PAGEDOTS_CLIENT_MISS_RATE", valueName: "N",
                          help: "new images a second one client address may cause, a burst of twice that; more get 429 (default 100; 0: no limit)") { config, value in
            rate(value).map { config.clientMissRate = $0 }.failure("must be a number from 0 to 1000000, like 100 or 0.5")
        },
        CommandLineOption(flag: "--trusted-proxy", environment: "PAGEDOTS_TRUSTED_PROXY", valueName: "CIDR",
                          help: "a proxy whose X-Forwarded-For names the client, as 10.0.0.0/8 or fd00::/8; repeatable, env comma-separated (default: none)",
                          isRepeatable: true) { config, value in
            // An empty value is an empty list (`-e PAGEDOTS_TRUSTED_PROXY=`).
            let items = value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false)
            let ranges = items.compactMap { AddressRange($0.trimmingSpacesAndTabs) }
            guard ranges.count == items.count else { return "must be IPv4 or IPv6 addresses or CIDR blocks, like 10.0.0.0/8 or fd00::/8" }
            config.trustedProxies = TrustedProxies(ranges)
            return nil
        },
        CommandLineOption(flag: "--signing-key", environment: "PAGEDOTS_SIGNING_KEY", valueName: "KEY",
                          help: "require image URLs signed with this key (HMAC-SHA256; see pagedots sign); repeatable to rotate keys: any is accepted, the first signs; env comma-separated (default: none)",
                          isSecret: true, isRepeatable: true) { config, value in
            let keys = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard keys.allSatisfy({ $0.utf8.count >= 16 }) else { return "must be at least 16 characters (each key)" }
            config.signer = URLSigner(keys: keys)
            return nil
        },
        CommandLineOption(flag: "--presets", environment: "PAGEDOTS_PRESETS", valueName: "FILE",
                          help: "a JSON object of preset names to queries, which preset=NAME stands for; SIGHUP reads it again (default: none)") { config, value in
            guard !value.isEmpty else { return "must be the path of a JSON file" }
            config.presetsFile = PresetsFile(path: value)
            return nil
        },
        CommandLineOption(flag: "--only-presets", environment: "PAGEDOTS_ONLY_PRESETS", valueName: "",
                          help: "image URLs must name a preset and may set only pages, current, start, every, tz, labels, format, scale, expires and sig; others get 403",
                          isSwitch: true) { config, value in
            switchValue(value).map { config.onlyPresets = $0 }.failure(switchProblem)
        },
        CommandLineOption(flag: "--allow-source", environment: "PAGEDOTS_ALLOW_SOURCES", valueName: "PREFIX",
                          help: "fetch URL slides (GET /carousel?slide=URL) that start with this prefix, like https://cdn.example/img/ or https://*.example/; repeatable, env comma-separated (default: none, URL slides refused)",
                          isRepeatable: true) { config, value in
            do throws(SourcePrefixError) {
                config.allowedSources = try SourceAllowList(value.split(separator: ",").map { $0.trimmingSpacesAndTabs })
                return nil
            } catch {
                return error.description
            }
        },
        CommandLineOption(flag: "--allow-private-sources", environment: "PAGEDOTS_ALLOW_PRIVATE_SOURCES", valueName: "",
                          help: "let URL slides come from loopback and private addresses (an internal CDN); other non-public addresses stay refused",
                          isSwitch: true) { config, value in
            switchValue(value).map { config.allowPrivateSources = $0 }.failure(switchProblem)
        },
        CommandLineOption(flag: "--max-source-mb", environment: "PAGEDOTS_MAX_SOURCE_MB", valueName: "MIB",
                          help: "largest URL slide in MiB, counted as it arrives; larger is 413 (default 16)") { config, value in
            integer(value, in: 1...1024).map { config.maxSourceBytes = $0 << 20 }.failure("must be an integer from 1 to 1024")
        },
        CommandLineOption(flag: "--source-timeout", environment: "PAGEDOTS_SOURCE_TIMEOUT", valueName: "SECONDS",
                          help: "deadline for fetching one URL slide, redirects included; then 504 (default 10)") { config, value in
            seconds(value).map { config.sourceTimeout = $0 }.failure("must be a number of seconds above 0, like 2.5")
        },
        CommandLineOption(flag: "--source-cache-mb", environment: "PAGEDOTS_SOURCE_CACHE_MB", valueName: "MIB",
                          help: "fetched URL slides kept for reuse and revalidation, in MiB, in temporary files (else memory) (default 64; 0 keeps none)") { config, value in
            integer(value, in: 0...1_048_576).map { config.sourceCacheBytes = $0 << 20 }.failure("must be an integer from 0 to 1048576")
        },
        CommandLineOption(flag: "--now", environment: "PAGEDOTS_NOW", valueName: "TIME",
                          help: "the time calendar pages and expiring URLs are judged at, fixed: 2025-12-03T09:00Z (tests and previews)",
                          isHidden: true) { config, value in
            guard case .instant(let time) = StartTime(value.utf8, seconds: true) else {
                return "must be a date and time with an offset, like 2025-12-03T09:00:00Z or 2025-12-03T10:00+01:00"
            }
            config.fixedNow = time
            return nil
        },
    ]

    /// The configuration from `arguments` (flags after `serve`) and, for
    /// flags not given, `environment`; or a one-line error.
    public static func configuration(
        arguments: [String],
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    ) -> Result<ServiceConfiguration, OptionError> {
        var config = ServiceConfiguration()
        var given: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            var flag = arguments[index]
            var value: String?
            if let equals = flag.firstIndex(of: "=") {
                value = String(flag[flag.index(after: equals)...])
                flag = String(flag[..<equals])
            }
            guard let option = all.first(where: { $0.flag == flag }) else {
                return .failure(OptionError(message: "unknown option \(arguments[index]); see pagedots --help"))
            }
            if option.isSwitch {
                guard value == nil else { return .failure(OptionError(message: "\(flag) takes no value")) }
                value = "1"
            } else if value == nil {
                index += 1
                guard index < arguments.count else {
                    return .failure(OptionError(message: "\(flag) needs a value (\(option.valueName))"))
                }
                value = arguments[index]
            }
            given[flag] = option.isRepeatable ? [given[flag], value].compactMap { $0 }.joined(separator: ",") : value
            index += 1
        }
        for option in all {
            let source: String
            let value: String
            if let flagValue = given[option.flag] {
                (source, value) = (option.flag, flagValue)
            } else if let environmentValue = environment(option.environment) {
                (source, value) = (option.environment, environmentValue)
            } else {
                continue
            }
            if let problem = option.apply(&config, value) {
                let shown = option.isSecret ? "\(value.utf8.count) characters" : "\"\(value)\""
                return .failure(OptionError(message: "\(source): \(problem); got \(shown)"))
            }
        }
        return .success(config)
    }

    /// `configuration(arguments:environment:)` with its presets file read
    /// (`loadPresets`): what `serve` and `render` start from.
    public static func configurationWithPresets(
        arguments: [String],
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    ) -> Result<ServiceConfiguration, OptionError> {
        configuration(arguments: arguments, environment: environment).flatMap { configuration in
            var configuration = configuration
            do throws(PresetsFileError) {
                try configuration.loadPresets()
            } catch {
                return .failure(OptionError(message: error.description))
            }
            return .success(configuration)
        }
    }

    /// The `--help` text for these options (the hidden ones left out).
    public static var helpText: String {
        let shown = all.filter { !$0.isHidden }
        let usage = { (option: CommandLineOption) in option.isSwitch ? option.flag : "\(option.flag) \(option.valueName)" }
        let width = shown.map { usage($0).count }.max() ?? 0
        return shown.map { option in
            let padding = String(repeating: " ", count: width - usage(option).count + 2)
            return "  \(usage(option))\(padding)\(option.help) [env \(option.environment)]"
        }.joined(separator: "\n")
    }

    /// A switch's value: `1`, `true` or `yes`, or `0`, `false`, `no` or nothing (any case).
    static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no", "": false
        default: nil
        }
    }

    /// What a switch's value must be.
    static let switchProblem = "must be 1 or true, or 0 or false"

    /// A whole number in `range`, ASCII digits only.
    static func integer(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    /// A plain decimal number of seconds above zero (`2.5`).
    static func seconds(_ text: String) -> Double? {
        decimal(text).flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil }
    }

    /// A plain decimal rate from 0 to 1,000,000 (`100`, `0.5`).
    static func rate(_ text: String) -> Double? {
        decimal(text).flatMap { $0 <= 1_000_000 ? $0 : nil }
    }

    /// A plain decimal number: digits, optionally a point and more digits.
    private static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        return Double(text)
    }
}

/// A bad flag or environment value, in one line.
public struct OptionError: Error, Sendable {
    public var message: String
}

private extension Optional<Void> {
    /// nil when the value was applied, else the problem.
    func failure(_ problem: String) -> String? {
        self == nil ? problem : nil
    }
}
