/// What the connection state machine needs to know about its limits and timeouts.
struct ConnectionSettings: Sendable {
    var limits: RequestHeadParser.Limits
    /// Largest body kept for a handler that accepts it; larger is 413.
    var maxUploadBytes: Int
    /// Largest body read and thrown away; larger is 413.
    var maxDiscardedBodyBytes: Int
    /// What accepted bodies take from, all connections together.
    var uploadBudget: UploadBudget
    /// The handler's `acceptsBody`.
    var acceptsBody: @Sendable (HTTPRequest) -> Bool
    var headerTimeout: TimeSpan
    var bodyTimeout: TimeSpan
    var idleTimeout: TimeSpan
    var sendTimeout: TimeSpan
    /// How long a connection closed after an error keeps reading (and
    /// discarding) what the client still sends, so that the error response is
    /// not destroyed by a reset.
    var lingerTimeout: TimeSpan
    /// Most bytes discarded while lingering.
    var maxLingerBytes: Int
    /// Above this much unsent output, the connection stops reading and stops
    /// handing requests to the handler until the client reads.
    var maxBufferedOutputBytes: Int
    /// Storage an emptied input or output buffer keeps.
    var retainedBufferBytes: Int
    /// Most unparsed input held (pipelined requests waiting their turn).
    var maxBufferedInputBytes: Int
    /// Whether completed responses carry what an access log needs.
    var keepsAccessRecords: Bool

    init(
        _ configuration: HTTPServerConfiguration, keepsAccessRecords: Bool,
        acceptsBody: @escaping @Sendable (HTTPRequest) -> Bool = { _ in false }
    ) {
        limits = RequestHeadParser.Limits(
            maxRequestLineBytes: configuration.maxRequestLineBytes,
            maxHeaderBytes: configuration.maxHeaderBytes,
            maxHeaderLines: configuration.maxHeaderLines
        )
        maxUploadBytes = configuration.maxUploadBytes
        maxDiscardedBodyBytes = configuration.maxDiscardedBodyBytes
        uploadBudget = UploadBudget(limit: configuration.maxHeldUploadBytes)
        self.acceptsBody = acceptsBody
        headerTimeout = TimeSpan(seconds: configuration.headerTimeout)
        bodyTimeout = TimeSpan(seconds: configuration.bodyTimeout)
        idleTimeout = TimeSpan(seconds: configuration.idleTimeout)
        sendTimeout = TimeSpan(seconds: configuration.sendTimeout)
        lingerTimeout = TimeSpan(seconds: configuration.lingerTimeout)
        maxLingerBytes = configuration.maxLingerBytes
        maxBufferedOutputBytes = configuration.maxBufferedOutputBytes
        retainedBufferBytes = configuration.retainedBufferBytes
        // Room for the largest head the limits allow, plus its CRLFs.
        maxBufferedInputBytes = configuration.maxRequestLineBytes + configuration.maxHeaderBytes + 4096
        self.keepsAccessRecords = keepsAccessRecords
    }
}

/// The loop's view of time when it calls the state machine: the monotonic
/// clock, and the `Date` header line of the current second.
struct Moment {
    var time: MonotonicTime
    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n`.
    var dateLine: [UInt8]
}

/// The kinds of deadline a connection can have. Each kind has one duration,
/// so that a list of same-kind deadlines made in time order stays sorted.
enum TimerKind: Int, CaseIterable {
    /// No request in progress (`idleTimeout`): close without a response.
    case idle
    /// A request head (or a body thrown away) in progress (`headerTimeout`): 408.
    case request
    /// A body the handler accepted in progress (`bodyTimeout`): 408.
    case body
    /// Output waiting for the client to read (`sendTimeout`): abandon it, close.
    case send
    /// Closed for output, discarding input (`lingerTimeout`): close.
    case linger
}

/// The one deadline a connection has at a time.
struct ConnectionTimer: Equatable {
    var kind: TimerKind
    var deadline: MonotonicTime
}

/// What the socket loop should do next for a connection.
enum ConnectionAction {
    /// Call the handler with this request (and the body `takeBody` gives, if
    /// any); its responder carries `sequence`.
    case dispatch(HTTPRequest, sequence: UInt64)
    /// Write `withPendingOutput`'s bytes and report them with `wrote`.
    case send
    /// Read and report the bytes with `received`, or the end with `receivedEndOfInput`.
    case read
    /// Shut down the socket's sending side (the last response is out).
    case shutdownOutput
    /// Close the socket.
    case close
    /// Close the socket at once, dropping what the kernel still holds for the
    /// client (a reset): a response abandoned to a client that stopped reading.
    case reset
    /// Nothing to do until the socket is ready, a response arrives or a timer fires.
    case wait
}

/// A response whose last byte has been handed to the kernel.
struct CompletedResponse {
    var status: Int
    var label: Int
    /// From the request head's arrival (or the error's detection) to the last byte.
    var seconds: Double
    var bodyBytes: Int
    /// The request, when access records are kept and the head was understood.
    var request: HTTPRequest?
    /// For a response the server made itself: why.
    var problem: String?
}

/// The life of one HTTP/1.1 connection, without sockets, threads or clocks:
/// the loop reports events (bytes received, bytes written, a response ready, a
/// timer due, a drain) with the time, and asks `nextAction` what to do.
///
/// One request is with the handler at a time: the next pipelined head waits in
/// the input until the current response is queued, so responses go out in
/// request order, and memory is bounded by `maxBufferedInputBytes` and
/// `maxBufferedOutputBytes` (reading and dispatching pause above them).
struct HTTPConnection {
    private enum Phase {
        /// Waiting for a head (idle when the input is empty) or reading one.
        case readingHead
        /// The head (`bodyHead`) is parsed; its body is being read (kept, or thrown away) by `bodyReader`.
        case readingBody
        /// The handler has the request (`inFlight`).
        case awaitingResponse
        /// The last response is queued: send it, then close (after lingering).
        case closing(linger: Bool)
        /// Sending side shut down; discarding input until EOF or the linger deadline.
        case lingering
        case closed
    }

    private struct InFlightRequest {
        var sequence: UInt64
        var includeBody: Bool
        var version: HTTPVersion
        var keepAlive: Bool
        var startedAt: MonotonicTime
        /// Kept for the access record, when records are kept.
        var request: HTTPRequest?
    }

    /// A queued response, the output offset where it ends, and its report
    /// (timed when that offset is written).
    private struct QueuedResponse {
        var end: UInt64
        var startedAt: MonotonicTime
        var report: CompletedResponse
    }

    let settings: ConnectionSettings
    private var phase = Phase.readingHead
    private var parser: RequestHeadParser
    /// Received bytes not yet parsed.
    private var input: ByteBuffer
    /// Response bytes not yet handed to the kernel.
    private var output: ByteBuffer
    /// The body file of the last response queued, and how much of it is in
    /// `output` already: the rest is read into `output` as it empties, and
    /// no other request goes to the handler until it all has been, so that
    /// responses stay in order.
    private var unreadBody: (file: HTTPBodyFile, offset: Int)?
    private var nextSequence: UInt64 = 0
    private var inputEnded = false
    private var draining = false
    /// The send timeout abandoned the output: close with a reset.
    private var abandoned = false

    private var idleSince: MonotonicTime
    private var requestStartedAt: MonotonicTime
    private var bodyStartedAt: MonotonicTime
    private var outputProgressAt: MonotonicTime
    private var lingerStartedAt: MonotonicTime
    private var lingerDiscarded = 0

    /// The head of the `readingBody` phase, and the request of the
    /// `awaitingResponse` phase. Kept out of `phase`, as `bodyReader` and
    /// `upload` are, so that the phase is a plain value, looked at on every
    /// turn without copying a request.
    private var bodyHead: ParsedHead?
    private var inFlight: InFlightRequest?

    /// Reads the body of the `readingBody` phase.
    private var bodyReader = BodyReader(framing: .none, limit: 0, maxTrailerBytes: 0)
    /// Where the body being read goes, when the handler accepted it; once
    /// read, the body of the request just dispatched, until `takeBody`.
    private var upload: HTTPRequestBody?
    /// The request with the handler came with a body that was not read
    /// (`Expect: 100-continue` for a body nobody takes): the connection closes
    /// after the answer, dropping whatever the client sends meanwhile.
    private var bodyUnread = false

    private var queued: [QueuedResponse] = []
    private var queuedHead = 0
    private var writtenBytes: UInt64 = 0
    private var lastWriteAt: MonotonicTime

    /// A new connection, idle since `now`.
    init(settings: ConnectionSettings, now: MonotonicTime) {
        self.settings = settings
        parser = RequestHeadParser(limits: settings.limits)
        input = ByteBuffer(retainedCapacity: settings.retainedBufferBytes)
        output = ByteBuffer(retainedCapacity: settings.retainedBufferBytes)
        idleSince = now
        requestStartedAt = now
        bodyStartedAt = now
        outputProgressAt = now
        lingerStartedAt = now
        lastWriteAt = now
    }

    /// A connection answered at once with `error` (e.g. 503 over the connection limit), then closed.
    init(settings: ConnectionSettings, rejectingWith error: HTTPProtocolError, at moment: Moment) {
        self.init(settings: settings, now: moment.time)
        fail(error, at: moment)
    }

    // MARK: Events

    /// Bytes arrived from the client.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) {
        if input.isEmpty, case .readingBody = phase { return receivedBody(bytes) }
        switch phase {
        case .lingering:
            lingerDiscarded += bytes.count
            if lingerDiscarded > settings.maxLingerBytes { phase = .closed }
        case .closing, .closed:
            break
        case .readingHead, .readingBody, .awaitingResponse:
            if case .readingHead = phase, input.isEmpty { requestStartedAt = now }
            input.append(bytes)
        }
    }

    /// Body bytes with nothing unparsed before them: straight from the read
    /// buffer into the body, so that only what follows the body passes through `input`.
    private mutating func receivedBody(_ bytes: UnsafeRawBufferPointer) {
        let consumed = bodyReader.consume(bytes, into: upload).consumed
        if consumed < bytes.count { input.append(UnsafeRawBufferPointer(rebasing: bytes[consumed...])) }
    }

    /// The client will send nothing more (read returned 0).
    mutating func receivedEndOfInput() {
        inputEnded = true
        if case .lingering = phase { phase = .closed }
    }

    /// `count` bytes of `withPendingOutput` were handed to the kernel.
    mutating func wrote(_ count: Int, now: MonotonicTime) {
        output.consume(count)
        readBodyFile()
        writtenBytes += UInt64(count)
        lastWriteAt = now
        outputProgressAt = now
        if output.isEmpty, input.isEmpty, case .readingHead = phase { idleSince = now }
    }

    /// The handler's response to the request dispatched with `sequence`. Ignored
    /// unless that request is the one waiting (a second answer, or one after a close).
    mutating func responseReady(
        sequence: UInt64, _ response: PreparedResponse, extraHeaders: [HTTPHeaderField], at moment: Moment
    ) {
        guard case .awaitingResponse = phase, inFlight?.sequence == sequence, let request = inFlight.take() else { return }
        let close = !request.keepAlive || ((draining || inputEnded) && !inputHoldsCompleteHead)
        queue(
            response, extraHeaders: extraHeaders,
            disposition: close ? .close : request.version == .http1_0 ? .keepAliveHTTP10 : .keepAlive,
            includeBody: request.includeBody, startedAt: request.startedAt, request: request.request, problem: nil,
            at: moment
        )
        if close {
            phase = .closing(linger: !input.isEmpty || bodyUnread)
            bodyUnread = false
        } else {
            phase = .readingHead
            if input.isEmpty { idleSince = moment.time } else { requestStartedAt = moment.time }
        }
    }

    /// The loop's timer for this connection may be due.
    mutating func timerFired(at moment: Moment) {
        guard let timer, moment.time >= timer.deadline else { return }
        switch timer.kind {
        case .idle, .linger:
            phase = .closed
        case .send:
            // Unsent bytes in the kernel would wait for the client too (in an
            // orphaned socket): abandoned with the rest.
            abandoned = true
            phase = .closed
        case .request:
            fail(.requestTimeout(seconds: Double(settings.headerTimeout.nanoseconds) / 1e9), at: moment)
        case .body:
            fail(.bodyTimeout(seconds: Double(settings.bodyTimeout.nanoseconds) / 1e9), at: moment)
        }
    }

    /// The server is stopping: finish the requests whose heads have arrived,
    /// then close; close at once if there are none.
    mutating func beginDrain() {
        draining = true
        if case .readingHead = phase, !inputHoldsCompleteHead { phase = .closing(linger: false) }
    }

    // MARK: Decisions

    /// What the loop should do next. `canRead` and `canWrite` say whether the
    /// socket may have input and may take output.
    mutating func nextAction(at moment: Moment, canRead: Bool, canWrite: Bool) -> ConnectionAction {
        // Abandoned output (a body file that could not be read) ends the connection, whatever the phase.
        if abandoned { phase = .closed }
        if output.count <= settings.maxBufferedOutputBytes, unreadBody == nil, let request = takeNextRequest(at: moment) {
            return request
        }
        switch phase {
        case .closed:
            return abandoned ? .reset : .close
        case .closing(let linger):
            if !output.isEmpty { return canWrite ? .send : .wait }
            if linger, !inputEnded {
                phase = .lingering
                lingerStartedAt = moment.time
                return .shutdownOutput
            }
            phase = .closed
            return .close
        case .lingering:
            return canRead ? .read : .wait
        case .readingHead, .readingBody, .awaitingResponse:
            if !output.isEmpty, canWrite { return .send }
            let inputRoom = !inputEnded && input.count < settings.maxBufferedInputBytes
            if canRead, inputRoom, output.count <= settings.maxBufferedOutputBytes { return .read }
            return .wait
        }
    }

    /// The deadline the loop should watch, if any.
    var timer: ConnectionTimer? {
        switch phase {
        case .closed:
            return nil
        case .lingering:
            return ConnectionTimer(kind: .linger, deadline: lingerStartedAt.adding(settings.lingerTimeout))
        case .readingHead, .readingBody, .awaitingResponse, .closing:
            break
        }
        if !output.isEmpty {
            return ConnectionTimer(kind: .send, deadline: outputProgressAt.adding(settings.sendTimeout))
        }
        switch phase {
        case .readingHead where input.isEmpty:
            return ConnectionTimer(kind: .idle, deadline: idleSince.adding(settings.idleTimeout))
        case .readingBody where upload != nil:
            return ConnectionTimer(kind: .body, deadline: bodyStartedAt.adding(settings.bodyTimeout))
        case .readingHead, .readingBody:
            return ConnectionTimer(kind: .request, deadline: requestStartedAt.adding(settings.headerTimeout))
        default:
            // The handler's time is its own; a flushed closing connection closes now.
            return nil
        }
    }

    /// Calls `body` with the bytes to send. (Mutating, so that the loop calls
    /// it in place instead of copying the connection out of its class.)
    mutating func withPendingOutput<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try output.withUnconsumedBytes(body)
    }

    /// The next response whose last byte has been written, oldest first.
    mutating func takeCompletedResponse() -> CompletedResponse? {
        guard queuedHead < queued.count, queued[queuedHead].end <= writtenBytes else { return nil }
        // The request (kept for an access record) is moved out, not copied.
        let request = queued[queuedHead].report.request.take()
        var report = queued[queuedHead].report
        report.request = request
        report.seconds = lastWriteAt.seconds(since: queued[queuedHead].startedAt)
        queuedHead += 1
        if queuedHead == queued.count {
            queued.removeAll(keepingCapacity: true)
            queuedHead = 0
        }
        return report
    }

    // MARK: Reading requests

    /// Parses heads and reads bodies until a request is ready for the handler.
    private mutating func takeNextRequest(at moment: Moment) -> ConnectionAction? {
        while true {
            switch phase {
            case .readingHead:
                guard !input.isEmpty else {
                    if inputEnded || draining { phase = .closing(linger: false) }
                    return nil
                }
                var parser = self.parser
                let result = input.withUnconsumedBytes { parser.parse($0) }
                self.parser = parser
                switch result {
                case .incomplete:
                    if inputEnded || draining { phase = .closing(linger: false) }
                    return nil
                case .invalid(let error):
                    fail(error, at: moment)
                    return nil
                case .complete:
                    let head = input.withUnconsumedBytes { parser.head(in: $0) }
                    input.consume(head.length)
                    self.parser.reset()
                    if head.framing == .none { return dispatch(head, at: moment) }
                    if let dispatch = startBody(head, at: moment) { return dispatch }
                }
            case .readingBody:
                guard let head = bodyHead else { return nil }
                let (consumed, outcome) = input.withUnconsumedBytes { bodyReader.consume(UnsafeRawBufferPointer($0), into: upload) }
                input.consume(consumed)
                switch outcome {
                case .needMore:
                    if inputEnded {
                        upload = nil
                        bodyHead = nil
                        phase = .closing(linger: false)
                    }
                    return nil
                case .done:
                    upload?.trim()
                    return dispatch(head, at: moment)
                case .tooLarge:
                    fail(.bodyTooLarge(limit: upload == nil ? settings.maxDiscardedBodyBytes : settings.maxUploadBytes), at: moment)
                    return nil
                case .invalid:
                    fail(.invalidChunkedBody, at: moment)
                    return nil
                case .overBudget:
                    fail(.uploadsBusy, at: moment)
                    return nil
                }
            case .awaitingResponse, .closing, .lingering, .closed:
                return nil
            }
        }
    }

    /// A parsed head with a body: its body read first (kept for a handler
    /// that accepts it, else dropped), or the request dispatched at once
    /// when the client waits to send a body nobody takes.
    private mutating func startBody(_ head: ParsedHead, at moment: Moment) -> ConnectionAction? {
        let declared: Int? = if case .length(let length) = head.framing { length } else { nil }
        let body: HTTPRequestBody?
        if settings.acceptsBody(head.request) {
            if let declared, declared > settings.maxUploadBytes {
                fail(.bodyTooLarge(limit: settings.maxUploadBytes), at: moment)
                return nil
            }
            // The declared length is allocated (and budgeted) at once; a chunked body grows from 64 KiB.
            guard let accepted = HTTPRequestBody(
                capacity: declared ?? min(settings.maxUploadBytes, 64 << 10), budget: settings.uploadBudget
            ) else {
                fail(.uploadsBusy, at: moment)
                return nil
            }
            body = accepted
            bodyStartedAt = moment.time
        } else if head.expectsContinue {
            // The client waits before sending a body nobody takes: answer now, then close.
            return dispatchWithoutBody(head, at: moment)
        } else {
            if let declared, declared > settings.maxDiscardedBodyBytes {
                fail(.bodyTooLarge(limit: settings.maxDiscardedBodyBytes), at: moment)
                return nil
            }
            body = nil
        }
        if head.expectsContinue {
            if output.isEmpty { outputProgressAt = moment.time }
            output.append("HTTP/1.1 100 Continue\r\n\r\n")
        }
        upload = body
        bodyReader = BodyReader(
            framing: head.framing, limit: body == nil ? settings.maxDiscardedBodyBytes : settings.maxUploadBytes,
            maxTrailerBytes: settings.limits.maxHeaderBytes
        )
        bodyHead = head
        phase = .readingBody
        return nil
    }

    /// Hands `head`'s request to the handler.
    private mutating func dispatch(_ head: ParsedHead, at moment: Moment) -> ConnectionAction {
        .dispatch(head.request, sequence: awaitResponse(to: head, keepAlive: head.keepAlive, at: moment))
    }

    /// Hands `head`'s request to the handler before its body, which nobody
    /// takes and the client waits to send (`Expect: 100-continue`): the
    /// connection closes after the answer.
    private mutating func dispatchWithoutBody(_ head: ParsedHead, at moment: Moment) -> ConnectionAction {
        bodyUnread = true
        return .dispatch(head.request, sequence: awaitResponse(to: head, keepAlive: false, at: moment))
    }

    /// The handler has `head`'s request: the next number, and the response it waits for.
    private mutating func awaitResponse(to head: ParsedHead, keepAlive: Bool, at moment: Moment) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        bodyHead = nil
        phase = .awaitingResponse
        inFlight = InFlightRequest(
            sequence: sequence,
            includeBody: head.request.method != .head,
            version: head.request.version,
            keepAlive: keepAlive,
            startedAt: moment.time,
            request: settings.keepsAccessRecords ? head.request : nil
        )
        return sequence
    }

    /// The body of the request just dispatched, when the handler accepted
    /// one: the loop hands it over with the request. Nil for the others.
    mutating func takeBody() -> HTTPRequestBody? {
        defer { upload = nil }
        return upload
    }

    /// Whether the unparsed input holds a whole head (checked on a copy of the parser).
    private var inputHoldsCompleteHead: Bool {
        var parser = self.parser
        if case .complete = input.withUnconsumedBytes({ parser.parse($0) }) { return true }
        return false
    }

    // MARK: Writing responses

    /// Answers a protocol error with `Connection: close`, drops the input, and closes after lingering.
    private mutating func fail(_ error: HTTPProtocolError, at moment: Moment) {
        input.removeAll()
        upload = nil
        bodyHead = nil
        queue(
            error.response, extraHeaders: [], disposition: .close, includeBody: true,
            startedAt: moment.time, request: nil, problem: error.reason, at: moment
        )
        phase = .closing(linger: true)
    }

    private mutating func queue(
        _ response: PreparedResponse, extraHeaders: [HTTPHeaderField], disposition: ConnectionDisposition,
        includeBody: Bool, startedAt: MonotonicTime, request: HTTPRequest?, problem: String?, at moment: Moment
    ) {
        if output.isEmpty { outputProgressAt = moment.time }
        output.appendResponse(
            response, extraHeaders: extraHeaders, dateLine: moment.dateLine,
            disposition: disposition, includeBody: includeBody
        )
        let bodyFile = includeBody ? response.bodyFile : nil
        queued.append(QueuedResponse(
            end: writtenBytes + UInt64(output.count + (bodyFile?.count ?? 0)), startedAt: startedAt,
            report: CompletedResponse(
                status: response.status, label: response.label, seconds: 0, bodyBytes: includeBody ? response.bodyCount : 0,
                request: request, problem: problem
            )
        ))
        if let bodyFile {
            unreadBody = (bodyFile, 0)
            readBodyFile()
        }
    }

    /// Tops the output up from the body file being sent, to
    /// `maxBufferedOutputBytes` or the file's end: a client that reads slowly
    /// holds no more of it than that. A file that cannot be read cuts the
    /// response short: the connection is reset (its `Content-Length` promised more).
    private mutating func readBodyFile() {
        while let (file, offset) = unreadBody, output.count < settings.maxBufferedOutputBytes {
            guard let read = output.append(upTo: min(settings.maxBufferedOutputBytes, file.count - offset), { file.read(into: $0, at: offset) }) else {
                unreadBody = nil
                abandoned = true
                return
            }
            unreadBody = offset + read < file.count ? (file, offset + read) : nil
        }
    }
}
