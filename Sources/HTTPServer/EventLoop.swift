import CLinux
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a response goes: a connection slot on a loop, the slot's generation
/// (a reused slot is another connection), and the request's number on it.
struct ResponseAddress: Sendable {
    var slot: UInt32
    var generation: UInt32
    var sequence: UInt64
}

/// What all the loops of one server share.
final class ServerContext: Sendable {
    let handler: any HTTPHandler
    let observer: (any HTTPServerObserver)?
    let settings: ConnectionSettings
    let maxConnections: Int
    let drainTimeout: TimeSpan
    let readBufferBytes: Int
    let readsPerTurn: Int
    let acceptBatch: Int
    let eventsPerWait: Int
    /// Client connections open on all loops (those being refused included).
    let openConnections = Atomic<Int>(0)

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, observer: (any HTTPServerObserver)?) {
        self.handler = handler
        self.observer = observer
        settings = ConnectionSettings(
            configuration, keepsAccessRecords: observer?.wantsAccessRecords ?? false,
            acceptsBody: { [handler] in handler.acceptsBody(of: $0) }
        )
        maxConnections = configuration.maxConnections
        drainTimeout = TimeSpan(seconds: configuration.drainTimeout)
        readBufferBytes = configuration.readBufferBytes
        readsPerTurn = configuration.readsPerTurn
        acceptBatch = configuration.acceptBatch
        eventsPerWait = configuration.eventsPerWait
    }
}

/// One client connection, as its loop holds it.
private final class Connection {
    let descriptor: Int32
    let generation: UInt32
    /// For access records and the error lines of refused requests.
    let peer: SocketAddress
    /// `peer` as text, made once for the connection's records.
    lazy var peerText = peer.description
    /// The connection's state machine, in memory of its own: the loop calls
    /// it a dozen times a request, and through a class's stored `var` each
    /// call would be checked for exclusive access at run time.
    let machine: UnsafeMutablePointer<HTTPConnection>
    /// Edge-triggered readiness: the socket may have input / may take output.
    var canRead = true
    var canWrite = true
    /// The peer shut down its side: read until end of input, even after a short read.
    var hungUp = false
    /// Queued in `awaitingService`.
    var awaitsService = false
    /// Queued in `resumingNextTurn`.
    var resumesNextTurn = false
    /// `peer`'s IP address for its requests, made once.
    lazy var peerAddress = peer.addressBytes

    init(descriptor: Int32, generation: UInt32, peer: SocketAddress, machine: HTTPConnection) {
        self.descriptor = descriptor
        self.generation = generation
        self.peer = peer
        self.machine = .allocate(capacity: 1)
        self.machine.initialize(to: machine)
    }

    deinit {
        machine.deinitialize(count: 1)
        machine.deallocate()
    }
}

/// Responses, and the request to stop, that other threads hand to a loop.
private struct Mailbox {
    struct Delivery {
        var address: ResponseAddress
        var response: PreparedResponse
        var extraHeaders: [HTTPHeaderField]
    }

    var deliveries: [Delivery] = []
    var stopRequested = false
    /// The loop has ended: deliveries are dropped.
    var closed = false
    /// The wake-up descriptor has been written and the loop has not yet read the mailbox.
    var wakePending = false
}

/// One event-loop thread: its own listening socket (`SO_REUSEPORT`), an epoll
/// instance, its connections and their timers. Connections are registered
/// edge-triggered for input and output once, so the loop never changes its
/// interest; each connection's `HTTPConnection` decides what to do, and the
/// loop does it.
///
/// Everything but the mailbox, the wake-up descriptor and `ownerThread` is
/// touched only on the loop's thread (hence `@unchecked Sendable`).
final class EventLoop: @unchecked Sendable {
    private static let listenerTag = UInt64.max
    private static let wakeTag = UInt64.max - 1

    // Shared with other threads.
    private let mailbox = Locked(Mailbox())
    private let wakeDescriptor: Int32
    private let ownerThread = Atomic<UInt>(0)
    /// Responses may be in the mailbox: an awake loop takes them without a wake-up.
    private let hasDeliveries = Atomic<Bool>(false)

    // The loop thread's alone.
    private let context: ServerContext
    /// This loop's place among the server's loops (`HTTPAccessRecord.loop`).
    private let index: Int
    private let epoll: Int32
    private var listener: Int32
    private var connections: [Connection?] = []
    private var freeSlots: [Int] = []
    private var nextGeneration: UInt32 = 0
    private var openCount = 0
    private var timers = TimerLists()
    private var awaitingService: [Int] = []
    /// Connections that had `readsPerTurn` reads in a row and may read more:
    /// serviced again after the loop has seen to the others.
    private var resumingNextTurn: [Int] = []
    private var servicing = -1
    private var date = DateHeader()
    private var moment = Moment(time: MonotonicTime(nanoseconds: 0), dateLine: [])
    private var drainDeadline: MonotonicTime?
    private var spareDeliveries: [Mailbox.Delivery] = []
    /// Held open so that, out of descriptors, the loop can still accept and
    /// close a pending connection instead of spinning on `EMFILE`.
    private var spareDescriptor: Int32
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let events: UnsafeMutableBufferPointer<epoll_event>

    /// The loop numbered `index` that will accept on `listener`. The loop
    /// owns `listener` from here on, and closes it even when this throws.
    static func make(context: ServerContext, index: Int, listener: Int32) throws(SystemError) -> EventLoop {
        let epoll: Int32
        let wake: Int32
        do throws(SystemError) {
            epoll = try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) } ?? -1
            guard epoll >= 0 else { throw SystemError(call: "epoll_create1", code: EAGAIN) }
            wake = try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) } ?? -1
            guard wake >= 0 else {
                closeDescriptor(epoll)
                throw SystemError(call: "eventfd", code: EAGAIN)
            }
        } catch {
            closeDescriptor(listener)
            throw error
        }
        // From here the loop's deinit closes all three.
        let loop = EventLoop(context: context, index: index, listener: listener, epoll: epoll, wake: wake)
        try loop.register(listener, events: EPOLLIN.rawValue, tag: EventLoop.listenerTag)
        try loop.register(wake, events: EPOLLIN.rawValue, tag: EventLoop.wakeTag)
        return loop
    }

    private init(context: ServerContext, index: Int, listener: Int32, epoll: Int32, wake: Int32) {
        self.context = context
        self.index = index
        self.listener = listener
        self.epoll = epoll
        wakeDescriptor = wake
        spareDescriptor = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        readBuffer = .allocate(byteCount: context.readBufferBytes, alignment: 16)
        events = .allocate(capacity: context.eventsPerWait)
    }

    deinit {
        if listener >= 0 { closeDescriptor(listener) }
        if spareDescriptor >= 0 { closeDescriptor(spareDescriptor) }
        closeDescriptor(epoll)
        closeDescriptor(wakeDescriptor)
        readBuffer.deallocate()
        events.deallocate()
    }

    // MARK: Other threads

    /// Runs the loop on a new thread; `onExit` is called on it when the loop ends.
    func startThread(onExit: @escaping @Sendable () -> Void) -> Bool {
        DetachedThread.start { [self] in
            run()
            onExit()
        }
    }

    /// Begins the graceful stop; from any thread.
    func requestStop() {
        let wake = mailbox.withLock { mailbox in
            mailbox.stopRequested = true
            defer { mailbox.wakePending = true }
            return !mailbox.wakePending
        }
        if wake { signalWake() }
    }

    /// Delivers a response: at once on the loop's thread, else through the
    /// mailbox, waking the loop unless the sending thread defers its wake-ups
    /// (`DeferredWakeups`).
    func respond(to address: ResponseAddress, with response: PreparedResponse, extraHeaders: [HTTPHeaderField]) {
        if ownerThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            deliver(address, response, extraHeaders)
            return
        }
        let deferred = DeferredWakeups.ofThisThread
        let wake = mailbox.withLock { mailbox in
            guard !mailbox.closed else { return false }
            mailbox.deliveries.append(Mailbox.Delivery(address: address, response: response, extraHeaders: extraHeaders))
            guard deferred == nil, !mailbox.wakePending else { return false }
            mailbox.wakePending = true
            return true
        }
        hasDeliveries.store(true, ordering: .releasing)
        if wake { signalWake() } else { deferred?.remember(self) }
    }

    /// Wakes the loop if responses wait in its mailbox and no wake-up is pending.
    func wakeForDeliveries() {
        let wake = mailbox.withLock { mailbox in
            guard !mailbox.closed, !mailbox.deliveries.isEmpty, !mailbox.wakePending else { return false }
            mailbox.wakePending = true
            return true
        }
        if wake { signalWake() }
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = try? systemCall("write") { write(wakeDescriptor, &one, MemoryLayout<UInt64>.size) }
    }

    // MARK: The loop

    private func run() {
        ownerThread.store(UInt(pthread_self()), ordering: .relaxed)
        refreshMoment()
        while drainDeadline == nil || openCount > 0 {
            let ready = waitForEvents()
            refreshMoment()
            for index in 0..<ready {
                handle(events[index])
            }
            resumeReaders()
            if hasDeliveries.load(ordering: .acquiring) { takeDeliveries() }
            serviceAwaiting()
            fireDueTimers()
            if let drainDeadline, moment.time >= drainDeadline {
                closeAllConnections()
            }
        }
        mailbox.withLock { mailbox in
            mailbox.closed = true
            mailbox.deliveries.removeAll()
        }
        // A later thread may get this thread's id; it must not pass for the owner.
        ownerThread.store(0, ordering: .relaxed)
    }

    private func waitForEvents() -> Int {
        var deadline = timers.earliestDeadline
        if let drainDeadline, deadline.map({ drainDeadline < $0 }) ?? true { deadline = drainDeadline }
        // Connections wait to read on: look for events without waiting.
        if !resumingNextTurn.isEmpty { deadline = moment.time }
        let timeout: Int32 = deadline.map { deadline in
            guard deadline > moment.time else { return 0 }
            let milliseconds = (deadline.nanoseconds - moment.time.nanoseconds + 999_999) / 1_000_000
            return Int32(min(milliseconds, UInt64(Int32.max)))
        } ?? -1
        let ready = try? systemCall("epoll_wait") {
            epoll_wait(epoll, events.baseAddress, Int32(events.count), timeout)
        }
        return Int(ready.flatMap { $0 } ?? 0)
    }

    private func refreshMoment() {
        date.refresh()
        moment = Moment(time: .now(), dateLine: date.line)
    }

    private func handle(_ event: epoll_event) {
        switch event.data.u64 {
        case EventLoop.listenerTag:
            acceptConnections()
        case EventLoop.wakeTag:
            readMailbox()
        case let tag:
            let slot = Int(truncatingIfNeeded: tag & 0xFFFF_FFFF)
            guard slot < connections.count, let connection = connections[slot],
                  connection.generation == UInt32(truncatingIfNeeded: tag >> 32)
            else { return }
            let flags = event.events
            let hangUp = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
            if flags & hangUp != 0 { connection.hungUp = true }
            if flags & (EPOLLIN.rawValue | hangUp) != 0 { connection.canRead = true }
            if flags & (EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { connection.canWrite = true }
            service(slot, connection)
        }
    }

    private func register(_ descriptor: Int32, events: UInt32, tag: UInt64) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = tag
        _ = try systemCall("epoll_ctl") { epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) }
    }

    // MARK: Connections

    private func acceptConnections() {
        for _ in 0..<context.acceptBatch where listener >= 0 {
            var peer = SocketAddress()
            do throws(SystemError) {
                guard let descriptor = try Socket.accept(listener, peer: &peer) else { return }
                open(descriptor, peer: peer)
            } catch where error.code == EMFILE || error.code == ENFILE {
                shedPendingConnection()
                return
            } catch {
                // ECONNABORTED and the like: that connection is gone; take the next.
                continue
            }
        }
    }

    /// Out of descriptors: frees the spare one to accept and close a waiting
    /// connection, so the level-triggered listener does not spin.
    private func shedPendingConnection() {
        guard spareDescriptor >= 0 else { return }
        closeDescriptor(spareDescriptor)
        var peer = SocketAddress()
        if let descriptor = try? Socket.accept(listener, peer: &peer) { closeDescriptor(descriptor) }
        spareDescriptor = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private func open(_ descriptor: Int32, peer: SocketAddress) {
        try? Socket.setOption(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY)
        let total = context.openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        let machine = total > context.maxConnections
            ? HTTPConnection(settings: context.settings, rejectingWith: .tooManyConnections, at: moment)
            : HTTPConnection(settings: context.settings, now: moment.time)
        let slot = freeSlots.popLast() ?? {
            connections.append(nil)
            return connections.count - 1
        }()
        nextGeneration &+= 1
        let connection = Connection(
            descriptor: descriptor, generation: nextGeneration,
            peer: peer, machine: machine
        )
        connections[slot] = connection
        openCount += 1
        context.observer?.connectionOpened()
        let interest = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        do throws(SystemError) {
            try register(descriptor, events: interest, tag: UInt64(connection.generation) << 32 | UInt64(slot))
        } catch {
            close(slot, connection)
            return
        }
        service(slot, connection)
    }

    private func close(_ slot: Int, _ connection: Connection) {
        timers.set(slot, to: nil)
        connections[slot] = nil
        freeSlots.append(slot)
        closeDescriptor(connection.descriptor)
        openCount -= 1
        context.openConnections.subtract(1, ordering: .relaxed)
        context.observer?.connectionClosed()
    }

    private func closeAllConnections() {
        for (slot, connection) in connections.enumerated() {
            if let connection { close(slot, connection) }
        }
    }

    /// Does what the connection's state machine asks until it has to wait,
    /// or until it has read `readsPerTurn` times (then it goes on next turn).
    private func service(_ slot: Int, _ connection: Connection) {
        servicing = slot
        defer { servicing = -1 }
        var reads = 0
        while true {
            switch connection.machine.pointee.nextAction(at: moment, canRead: connection.canRead, canWrite: connection.canWrite) {
            case .dispatch(var request, let sequence):
                request.peerAddress = connection.peerAddress
                let address = ResponseAddress(slot: UInt32(slot), generation: connection.generation, sequence: sequence)
                let responder = HTTPResponder(loop: self, address: address)
                if let body = connection.machine.pointee.takeBody() {
                    context.handler.handle(request, body: body, responder: responder)
                } else {
                    context.handler.handle(request, responder: responder)
                }
            case .read:
                guard reads < context.readsPerTurn else {
                    if !connection.resumesNextTurn {
                        connection.resumesNextTurn = true
                        resumingNextTurn.append(slot)
                    }
                    return timers.set(slot, to: connection.machine.pointee.timer)
                }
                reads += 1
                guard readInput(connection) else { return close(slot, connection) }
            case .send:
                guard writeOutput(connection) else { return close(slot, connection) }
            case .shutdownOutput:
                Socket.shutdownOutput(connection.descriptor)
            case .close:
                return close(slot, connection)
            case .reset:
                Socket.discardUnsentOnClose(connection.descriptor)
                return close(slot, connection)
            case .wait:
                return timers.set(slot, to: connection.machine.pointee.timer)
            }
        }
    }

    /// One read into the loop's buffer; false when the connection failed.
    private func readInput(_ connection: Connection) -> Bool {
        let count: Int?
        do throws(SystemError) {
            count = try Socket.receive(connection.descriptor, into: readBuffer)
        } catch {
            return false
        }
        guard let count else {
            connection.canRead = false
            return true
        }
        guard count > 0 else {
            connection.canRead = false
            connection.machine.pointee.receivedEndOfInput()
            return true
        }
        moment.time = .now()
        connection.machine.pointee.received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), now: moment.time)
        // A short read emptied the socket: the next input comes with a new edge.
        if count < readBuffer.count, !connection.hungUp { connection.canRead = false }
        return true
    }

    /// One send of the pending output; false when the connection failed.
    private func writeOutput(_ connection: Connection) -> Bool {
        let sent: Int?
        do throws(SystemError) {
            sent = try connection.machine.pointee.withPendingOutput { (bytes) throws(SystemError) -> Int? in
                let sent = try Socket.send(connection.descriptor, bytes)
                // A short send filled the socket: more room comes with a new edge.
                if (sent ?? 0) < bytes.count { connection.canWrite = false }
                return sent
            }
        } catch {
            return false
        }
        guard let sent else { return true }
        moment.time = .now()
        connection.machine.pointee.wrote(sent, now: moment.time)
        reportCompletedResponses(connection)
        return true
    }

    private func reportCompletedResponses(_ connection: Connection) {
        while var response = connection.machine.pointee.takeCompletedResponse() {
            guard let observer = context.observer else { continue }
            observer.responseSent(label: response.label, status: response.status, seconds: response.seconds)
            // Refusals are always recorded: they are rare, and an error log needs them.
            guard context.settings.keepsAccessRecords || response.problem != nil else { continue }
            observer.accessRecord(HTTPAccessRecord(
                peer: connection.peerText, request: response.request.take(), status: response.status,
                bodyBytes: response.bodyBytes, seconds: response.seconds, label: response.label,
                problem: response.problem, loop: index
            ))
        }
    }

    // MARK: Responses, timers, drain

    private func deliver(_ address: ResponseAddress, _ response: PreparedResponse, _ extraHeaders: [HTTPHeaderField]) {
        let slot = Int(address.slot)
        guard slot < connections.count, let connection = connections[slot],
              connection.generation == address.generation
        else { return }
        connection.machine.pointee.responseReady(sequence: address.sequence, response, extraHeaders: extraHeaders, at: moment)
        if slot != servicing, !connection.awaitsService {
            connection.awaitsService = true
            awaitingService.append(slot)
        }
    }

    /// Services connections that got a response while the loop was busy with
    /// another (a handler answering for another connection, or the mailbox).
    private func serviceAwaiting() {
        var index = 0
        while index < awaitingService.count {
            let slot = awaitingService[index]
            index += 1
            guard let connection = connections[slot], connection.awaitsService else { continue }
            connection.awaitsService = false
            service(slot, connection)
        }
        awaitingService.removeAll(keepingCapacity: true)
    }

    /// Services again the connections that stopped reading at `readsPerTurn`.
    private func resumeReaders() {
        guard !resumingNextTurn.isEmpty else { return }
        let slots = resumingNextTurn
        resumingNextTurn.removeAll(keepingCapacity: true)
        for slot in slots {
            guard let connection = connections[slot], connection.resumesNextTurn else { continue }
            connection.resumesNextTurn = false
            service(slot, connection)
        }
    }

    /// Answers the wake-up descriptor: clears it, then takes the mailbox.
    private func readMailbox() {
        var wakeCount: UInt64 = 0
        _ = try? systemCall("read") { read(wakeDescriptor, &wakeCount, MemoryLayout<UInt64>.size) }
        takeDeliveries(endingWake: true)
    }

    /// Delivers the responses in the mailbox, and begins the drain if a stop
    /// was requested. `endingWake` when the wake-up descriptor has just been
    /// cleared: later posts must write it again.
    private func takeDeliveries(endingWake: Bool = false) {
        var incoming = spareDeliveries
        hasDeliveries.store(false, ordering: .relaxed)
        let stop = mailbox.withLock { mailbox in
            swap(&mailbox.deliveries, &incoming)
            if endingWake { mailbox.wakePending = false }
            return mailbox.stopRequested
        }
        // A stop requested before a response was posted must shape that response (Connection: close).
        if stop, drainDeadline == nil { beginDrain() }
        for delivery in incoming {
            deliver(delivery.address, delivery.response, delivery.extraHeaders)
        }
        incoming.removeAll(keepingCapacity: true)
        spareDeliveries = incoming
    }

    private func fireDueTimers() {
        while let slot = timers.takeDue(at: moment.time) {
            guard let connection = connections[slot] else { continue }
            connection.machine.pointee.timerFired(at: moment)
            service(slot, connection)
        }
    }

    /// Stops accepting, and lets every connection finish the requests it has.
    private func beginDrain() {
        drainDeadline = moment.time.adding(context.drainTimeout)
        if listener >= 0 {
            closeDescriptor(listener)
            listener = -1
        }
        for (slot, connection) in connections.enumerated() {
            guard let connection else { continue }
            // A request that reached the socket before the stop, but whose
            // readiness this loop has not handled yet, must be answered, not
            // taken for idleness: read what is there before deciding.
            guard readInput(connection) else {
                close(slot, connection)
                continue
            }
            connection.machine.pointee.beginDrain()
            service(slot, connection)
        }
    }
}
