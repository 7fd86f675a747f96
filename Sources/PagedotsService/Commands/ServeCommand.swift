import Locking
import Glibc
import HTTPServer
import PagedotsCore

/// `pagedots serve`: runs the HTTP service until SIGTERM or SIGINT.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let configuration: ServiceConfiguration
        switch CommandLineOption.configurationWithPresets(arguments: arguments) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        // Block the stop signals, and SIGHUP, in every thread the server
        // starts; one thread waits for them: a stop begins the drain, SIGHUP
        // reads the presets again.
        var handledSignals = sigset_t()
        sigemptyset(&handledSignals)
        for handled in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handledSignals, handled) }
        pthread_sigmask(SIG_BLOCK, &handledSignals, nil)
        signal(SIGPIPE, SIG_IGN)
        RenderPool.mapLargeAllocationsApart()

        let service = PagedotsService(configuration: configuration)
        if let problem = service.startProblem { return PagedotsCommand.fail(problem) }
        let metrics = service.metrics
        let log = AccessLog(
            format: configuration.accessLog, loops: configuration.server.eventLoops,
            lineDropped: { metrics.recordLogLineDropped() }
        )
        service.problems.attach { log.logProblem($0) }
        let observer = ObserverGroup([service.observer, log])
        let server = HTTPServer(configuration: configuration.server, handler: service, observer: observer)
        do {
            try server.start()
        } catch {
            return PagedotsCommand.fail(error.description)
        }
        let signals = handledSignals
        let threadsStarted = log.startWriting() && DetachedThread.start {
            var received: Int32 = 0
            var set = signals
            while sigwait(&set, &received) == 0, received == SIGHUP {
                ServeCommand.reportReload(service.reloadPresets())
            }
            server.shutdown()
        }
        guard threadsStarted else {
            server.shutdown()
            server.wait()
            return PagedotsCommand.fail("cannot start the log and signal threads")
        }
        writeError("pagedots \(pagedotsVersion) listening on http://\(configuration.server.host):\(server.port) "
            + "(\(configuration.server.eventLoops) threads, cache \(configuration.cacheBytes >> 20) MiB)\n")
        if TimeZoneDatabase.system.nameCount == 0 {
            Self.logLine("no time zone database in \(TimeZoneDatabase.system.directory) (install tzdata): tz other than UTC is refused")
        }
        server.wait()
        // The drain is over and every response logged: the last lines are
        // written, unless the log outputs take none for a drain timeout more.
        _ = log.finish(within: configuration.server.drainTimeout)
        return 0
    }

    /// One line on the error log about a `SIGHUP`.
    private static func reportReload(_ outcome: Result<Int, PresetsFileError>?) {
        switch outcome {
        case nil: logLine("SIGHUP: no --presets file to read again")
        case .success(let count)?: logLine("presets read again: \(count) preset\(count == 1 ? "" : "s")")
        case .failure(let error)?: logLine("presets not changed: \(error)")
        }
    }

    /// `pagedots: <time> <text>` on standard error, as the error log writes its lines.
    private static func logLine(_ text: String) {
        writeError("pagedots: \(CivilTime.iso8601(wallClockSeconds())) \(text)\n")
    }
}
