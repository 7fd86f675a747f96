import Testing
@testable import PagedotsService

@Suite struct CommandLineOptionTests {
    func configuration(_ arguments: [String], environment: [String: String] = [:]) -> Result<ServiceConfiguration, OptionError> {
        CommandLineOption.configuration(arguments: arguments) { environment[$0] }
    }

    @Test func defaultsMatchTheSpec() throws {
        let config = try configuration([]).get()
        #expect(config.server.host == "127.0.0.1")
        #expect(config.server.port == 8080)
        #expect(config.cacheBytes == 64 << 20)
        #expect(config.server.headerTimeout == 10)
        #expect(config.server.idleTimeout == 5)
        #expect(config.server.drainTimeout == 10)
        #expect(config.server.sendTimeout == 30)
        #expect(config.clientMissRate == 100)
        #expect(config.trustedProxies.ranges.isEmpty)
    }

    @Test func fairUseFlags() throws {
        let flags = try configuration(["--client-miss-rate", "2.5", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy=fd00::/8, 192.0.2.1"]).get()
        #expect(flags.clientMissRate == 2.5)
        #expect(flags.trustedProxies.ranges == ["10.0.0.0/8", "fd00::/8", "192.0.2.1"].map { AddressRange($0) })
        let environment = try configuration([], environment: [
            "PAGEDOTS_CLIENT_MISS_RATE": "0", "PAGEDOTS_TRUSTED_PROXY": "127.0.0.1/32,::1",
        ]).get()
        #expect(environment.clientMissRate == 0)
        #expect(environment.trustedProxies.ranges == ["127.0.0.1/32", "::1"].map { AddressRange($0) })
        // Flags replace the environment's list.
        let both = try configuration(["--trusted-proxy", "10.0.0.0/8"], environment: ["PAGEDOTS_TRUSTED_PROXY": "127.0.0.1"]).get()
        #expect(both.trustedProxies.ranges == [AddressRange("10.0.0.0/8")])
        #expect(try configuration([], environment: ["PAGEDOTS_TRUSTED_PROXY": ""]).get().trustedProxies.ranges.isEmpty)
    }

    @Test("--send-timeout and PAGEDOTS_SEND_TIMEOUT set the send timeout, in decimal seconds")
    func sendTimeout() throws {
        #expect(try configuration(["--send-timeout", "2.5"]).get().server.sendTimeout == 2.5)
        #expect(try configuration([], environment: ["PAGEDOTS_SEND_TIMEOUT": "7"]).get().server.sendTimeout == 7)
        #expect(try configuration(["--send-timeout=1"], environment: ["PAGEDOTS_SEND_TIMEOUT": "7"]).get().server.sendTimeout == 1)
    }

    @Test("--max-upload-mb and --body-timeout (and their variables) bound uploads: 32 MiB, four held at once, 30 s by default")
    func uploadFlags() throws {
        let defaults = try configuration([]).get().server
        #expect(defaults.maxUploadBytes == 32 << 20)
        #expect(defaults.maxHeldUploadBytes == 128 << 20)
        #expect(defaults.bodyTimeout == 30)
        let flags = try configuration(["--max-upload-mb", "8", "--body-timeout=2.5"]).get().server
        #expect(flags.maxUploadBytes == 8 << 20)
        #expect(flags.maxHeldUploadBytes == 32 << 20)
        #expect(flags.bodyTimeout == 2.5)
        let environment = try configuration([], environment: ["PAGEDOTS_MAX_UPLOAD_MB": "1", "PAGEDOTS_BODY_TIMEOUT": "60"]).get().server
        #expect(environment.maxUploadBytes == 1 << 20)
        #expect(environment.bodyTimeout == 60)
        for (arguments, message) in [
            (["--max-upload-mb", "0"], "--max-upload-mb: must be an integer from 1 to 1024; got \"0\""),
            (["--max-upload-mb", "1.5"], "--max-upload-mb: must be an integer from 1 to 1024; got \"1.5\""),
            (["--body-timeout", "0"], "--body-timeout: must be a number of seconds above 0, like 2.5; got \"0\""),
        ] {
            guard case .failure(let error) = configuration(arguments) else {
                Issue.record("expected an error for \(arguments)")
                continue
            }
            #expect(error.message == message)
        }
    }

    @Test("URL slides' flags: prefixes repeated or comma-separated, a prefix without / after its host refused, limits")
    func sourceFlags() throws {
        let flags = try configuration([
            "--allow-source", "https://cdn.example/img/", "--allow-source=https://*.shop.example/", "--allow-private-sources",
            "--max-source-mb", "4", "--source-timeout", "2.5", "--source-cache-mb", "0",
        ]).get()
        #expect(flags.allowedSources.prefixes.map(\.text) == ["https://cdn.example/img/", "https://*.shop.example/"])
        #expect(flags.allowPrivateSources && flags.maxSourceBytes == 4 << 20 && flags.sourceTimeout == 2.5 && flags.sourceCacheBytes == 0)
        let environment = try configuration([], environment: ["PAGEDOTS_ALLOW_SOURCES": "https://a.example/, https://b.example/x/"]).get()
        #expect(environment.allowedSources.prefixes.count == 2 && !environment.allowPrivateSources)
        #expect(try configuration([]).get().allowedSources.isEmpty)
        for (arguments, message) in [
            (["--allow-source", "https://cdn.example"],
             "--allow-source: allowed source \"https://cdn.example\": a prefix must end its host (and port) with /; got \"https://cdn.example\""),
            (["--max-source-mb", "0"], "--max-source-mb: must be an integer from 1 to 1024; got \"0\""),
            (["--source-timeout", "-1"], "--source-timeout: must be a number of seconds above 0, like 2.5; got \"-1\""),
        ] {
            guard case .failure(let error) = configuration(arguments) else {
                Issue.record("expected an error for \(arguments)")
                continue
            }
            #expect(error.message == message)
        }
    }

    @Test func flagsInBothFormsAndEnvironmentFallbacks() throws {
        let config = try configuration(
            ["--port", "9000", "--cache-mb=2", "--idle-timeout", "2.5"],
            environment: ["PORT": "1234", "PAGEDOTS_HOST": "0.0.0.0", "PAGEDOTS_THREADS": "3"]
        ).get()
        #expect(config.server.port == 9000)
        #expect(config.server.host == "0.0.0.0")
        #expect(config.cacheBytes == 2 << 20)
        #expect(config.server.idleTimeout == 2.5)
        #expect(config.server.eventLoops == 3)
        #expect(config.renderThreads == 3)
    }

    @Test(arguments: [
        (["--port", "99999"], [String: String](), "--port: must be an integer from 0 to 65535; got \"99999\""),
        (["--port"], [:], "--port needs a value (N)"),
        (["--bogus"], [:], "unknown option --bogus; see pagedots --help"),
        ([], ["PORT": "http"], "PORT: must be an integer from 0 to 65535; got \"http\""),
        (["--idle-timeout", "-1"], [:], "--idle-timeout: must be a number of seconds above 0, like 2.5; got \"-1\""),
        (["--header-timeout", "1e3"], [:], "--header-timeout: must be a number of seconds above 0, like 2.5; got \"1e3\""),
        ([], ["PAGEDOTS_SEND_TIMEOUT": "0"], "PAGEDOTS_SEND_TIMEOUT: must be a number of seconds above 0, like 2.5; got \"0\""),
        (["--threads", "0"], [:], "--threads: must be an integer from 1 to 256; got \"0\""),
        (["--cache-mb", "+5"], [:], "--cache-mb: must be an integer from 0 to 1048576; got \"+5\""),
        (["--client-miss-rate", "-1"], [:], "--client-miss-rate: must be a number from 0 to 1000000, like 100 or 0.5; got \"-1\""),
        (["--client-miss-rate", "1e3"], [:], "--client-miss-rate: must be a number from 0 to 1000000, like 100 or 0.5; got \"1e3\""),
        ([], ["PAGEDOTS_CLIENT_MISS_RATE": "2000000"], "PAGEDOTS_CLIENT_MISS_RATE: must be a number from 0 to 1000000, like 100 or 0.5; got \"2000000\""),
        (["--trusted-proxy", "10.0.0.0/33"], [:], "--trusted-proxy: must be IPv4 or IPv6 addresses or CIDR blocks, like 10.0.0.0/8 or fd00::/8; got \"10.0.0.0/33\""),
        (["--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "proxy.local"], [:],
         "--trusted-proxy: must be IPv4 or IPv6 addresses or CIDR blocks, like 10.0.0.0/8 or fd00::/8; got \"10.0.0.0/8,proxy.local\""),
        ([], ["PAGEDOTS_TRUSTED_PROXY": "10.0.0.0/8,"], "PAGEDOTS_TRUSTED_PROXY: must be IPv4 or IPv6 addresses or CIDR blocks, like 10.0.0.0/8 or fd00::/8; got \"10.0.0.0/8,\""),
        // A key is a secret: the message gives its length, never its text.
        (["--signing-key", "hunter2"], [:], "--signing-key: must be at least 16 characters (each key); got 7 characters"),
        ([], ["PAGEDOTS_SIGNING_KEY": "hunter2"], "PAGEDOTS_SIGNING_KEY: must be at least 16 characters (each key); got 7 characters"),
        // Several keys are joined with commas: the length is that of the list.
        (["--signing-key", "a key of sixteen+", "--signing-key", "short"], [:],
         "--signing-key: must be at least 16 characters (each key); got 23 characters"),
        (["--only-presets=yes"], [:], "--only-presets takes no value"),
        ([], ["PAGEDOTS_ONLY_PRESETS": "maybe"], "PAGEDOTS_ONLY_PRESETS: must be 1 or true, or 0 or false; got \"maybe\""),
        (["--now", "2025-12-03T09:00"], [:],
         "--now: must be a date and time with an offset, like 2025-12-03T09:00:00Z or 2025-12-03T10:00+01:00; got \"2025-12-03T09:00\""),
        (["--presets", ""], [:], "--presets: must be the path of a JSON file; got \"\""),
    ])
    func badValuesGiveOneLine(arguments: [String], environment: [String: String], message: String) {
        guard case .failure(let error) = configuration(arguments, environment: environment) else {
            Issue.record("expected an error for \(arguments) \(environment)")
            return
        }
        #expect(error.message == message)
    }

    @Test(arguments: [
        (["--help"], true), (["-h"], true), (["help"], true), (["serve", "--help"], true),
        (["render", "--help"], true), (["sign", "pages=5", "-h"], true), (["--port", "8080", "--help"], true),
        ([], false), (["serve", "--port", "8080"], false), (["render", "pages=5&current=2"], false),
    ])
    func helpIsAskedForAnywhere(arguments: [String], asks: Bool) {
        #expect(PagedotsCommand.asksForHelp(arguments) == asks)
    }

    @Test func helpNamesEveryFlagAndVariableButTheHiddenOnes() {
        let help = PagedotsCommand.helpText
        for option in CommandLineOption.all {
            #expect(help.contains(option.flag) != option.isHidden, "\(option.flag)")
            #expect(help.contains(option.environment) != option.isHidden, "\(option.environment)")
        }
        #expect(CommandLineOption.all.filter(\.isHidden).map(\.flag) == ["--now"])
    }

    @Test func campaignFlags() throws {
        let flags = try configuration([
            "--signing-key", "the new key of 16+", "--signing-key=the old key of 16+", "--presets", "/etc/presets.json",
            "--only-presets", "--now", "2025-12-03T10:00:30+01:00",
        ]).get()
        #expect(flags.signer?.keyCount == 2)
        #expect(flags.presetsFile?.path == "/etc/presets.json")
        #expect(flags.onlyPresets)
        #expect(flags.fixedNow == 1_764_752_430)
        #expect(flags.clock() == 1_764_752_430)
        let environment = try configuration([], environment: [
            "PAGEDOTS_SIGNING_KEY": "the new key of 16+,the old key of 16+,a third key of 16+", "PAGEDOTS_PRESETS": "p.json",
            "PAGEDOTS_ONLY_PRESETS": "true", "PAGEDOTS_NOW": "2025-12-03T09:00:30Z",
        ]).get()
        #expect(environment.signer?.keyCount == 3)
        #expect(environment.presetsFile?.path == "p.json" && environment.onlyPresets && environment.fixedNow == 1_764_752_430)
        let defaults = try configuration([]).get()
        #expect(defaults.signer == nil && defaults.presetsFile == nil && !defaults.onlyPresets && defaults.fixedNow == nil)
        #expect(try configuration([], environment: ["PAGEDOTS_ONLY_PRESETS": "0"]).get().onlyPresets == false)
    }
}
