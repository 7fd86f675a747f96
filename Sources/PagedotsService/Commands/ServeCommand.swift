import Glibc
import HTTPServer

/// `pagedots serve`: runs the HTTP service until SIGTERM or SIGINT.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let configuration: ServiceConfiguration
        switch CommandLineOption.configuration(arguments: arguments) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        // Block the stop signals in every thread the server starts; one
        // thread waits for them and begins the drain.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        signal(SIGPIPE, SIG_IGN)

        let service = PagedotsService(configuration: configuration)
        let metrics = service.metrics
        let log = AccessLog(
            format: configuration.accessLog, loops: configuration.server.eventLoops,
            lineDropped: { metrics.recordLogLineDropped() }
        )
        let observer = ObserverGroup([service.observer, log])
        let server = HTTPServer(configuration: configuration.server, handler: service, observer: observer)
        do {
            try server.start()
        } catch {
            return PagedotsCommand.fail(error.description)
        }
        let signals = stopSignals
        let threadsStarted = log.startWriting() && DetachedThread.start {
            var received: Int32 = 0
            var set = signals
            sigwait(&set, &received)
            server.shutdown()
        }
        guard threadsStarted else {
            server.shutdown()
            server.wait()
            return PagedotsCommand.fail("cannot start the log and signal threads")
        }
        writeError("pagedots \(pagedotsVersion) listening on http://\(configuration.server.host):\(server.port) "
            + "(\(configuration.server.eventLoops) threads, cache \(configuration.cacheBytes >> 20) MiB)\n")
        server.wait()
        // The drain is over and every response logged: the last lines are
        // written, unless the log outputs take none for a drain timeout more.
        _ = log.finish(within: configuration.server.drainTimeout)
        return 0
    }
}
