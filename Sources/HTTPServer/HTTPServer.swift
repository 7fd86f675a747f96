import Dispatch
import Locking

/// Why the server could not start, in one line.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A generic HTTP/1.1 server over non-blocking sockets and epoll: one event
/// loop thread per `HTTPServerConfiguration.eventLoops`, each accepting on its
/// own `SO_REUSEPORT` socket and serving its connections to the end.
public final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var port = 0
        var started = false
        var stopRequested = false
    }

    private let configuration: HTTPServerConfiguration
    private let context: ServerContext
    private let state = Locked(State())
    /// Entered once per running loop thread; left when the thread ends.
    private let running = DispatchGroup()

    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, observer: (any HTTPServerObserver)? = nil) {
        self.configuration = configuration
        context = ServerContext(configuration: configuration, handler: handler, observer: observer)
    }

    /// Binds and listens; after it returns, `port` is the bound port. Throws a
    /// one-line error for an invalid configuration, a bad host or a port in use.
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        try state.withLock { (state) throws(HTTPServerError) in
            guard !state.started, !state.stopRequested else {
                throw HTTPServerError("the server was already started or shut down")
            }
            let (listeners, port) = try Socket.listen(
                host: configuration.host, port: configuration.port, count: configuration.eventLoops
            )
            var loops: [EventLoop] = []
            for (index, listener) in listeners.enumerated() {
                do throws(SystemError) {
                    loops.append(try EventLoop.make(context: context, index: index, listener: listener))
                } catch {
                    listeners[(index + 1)...].forEach(closeDescriptor)
                    throw HTTPServerError("cannot start the event loops: \(error)")
                }
            }
            for loop in loops {
                running.enter()
                guard loop.startThread(onExit: { [running] in running.leave() }) else {
                    running.leave()
                    loops.forEach { $0.requestStop() }
                    throw HTTPServerError("cannot start the event-loop threads")
                }
            }
            state.loops = loops
            state.port = port
            state.started = true
        }
    }

    /// The bound port (useful after asking for port 0); 0 before `start`.
    public var port: Int {
        state.withLock { $0.port }
    }

    /// Blocks until the server has stopped (after `shutdown` and the drain).
    /// Returns at once if the server never started.
    public func wait() {
        running.wait()
    }

    /// Begins a graceful stop; safe from any thread, idempotent: stops
    /// accepting at once, closes idle connections, answers every request whose
    /// head has arrived (with `Connection: close`), and closes what is left
    /// after `drainTimeout`.
    public func shutdown() {
        let loops = state.withLock { state in
            state.stopRequested = true
            return state.loops
        }
        loops.forEach { $0.requestStop() }
    }
}
