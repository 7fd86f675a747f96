// libFuzzer harness for the HTTP/1.1 request side: compiled together with
// Sources/HTTPServer/*.swift as one module (see scripts/fuzz), so it reaches
// the internal `RequestHeadParser`, `BodyReader` and `HTTPConnection`.
//
// Input: byte 0 chooses how the client's bytes are split into reads; the rest
// are the bytes a client sends on one connection. The harness checks:
//  1. the head parser gives the same answer fed all at once and byte by byte,
//     and so does the body reader on what follows an accepted head;
//  2. a head it accepts is well formed (no control bytes or spaces reach the
//     handler in the path, query or header values);
//  3. the connection state machine, fed in chunks with a fake clock and a
//     handler that answers at once (and takes the bodies of paths starting
//     with /u), settles, never dispatches a request after a protocol error,
//     hands over no body larger than the limit, keeps no body after it is
//     answered, and writes only whole responses.

/// Small limits, so that the fuzzer reaches them with short inputs.
private let fuzzLimits = RequestHeadParser.Limits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderLines: 8)

private func fuzzSettings() -> ConnectionSettings {
    var configuration = HTTPServerConfiguration()
    configuration.maxRequestLineBytes = fuzzLimits.maxRequestLineBytes
    configuration.maxHeaderBytes = fuzzLimits.maxHeaderBytes
    configuration.maxHeaderLines = fuzzLimits.maxHeaderLines
    configuration.maxDiscardedBodyBytes = 128
    configuration.maxUploadBytes = 256
    configuration.maxHeldUploadBytes = 512
    var settings = ConnectionSettings(configuration, keepsAccessRecords: true, acceptsBody: { $0.path.hasPrefix("/u") })
    settings.maxBufferedOutputBytes = 256
    return settings
}

/// What a parse came to, in a form that can be compared.
private enum Outcome: Equatable {
    case incomplete
    case invalid(HTTPProtocolError)
    case complete(length: Int, method: String, path: String, query: String, framing: BodyFraming, keepAlive: Bool, fields: [UInt8])

    /// Whether both are the same kind of answer. Two refusals of one input may
    /// name different rules (a line that is both too long and badly ended is
    /// refused for whichever the parser sees first), but an accepted head must
    /// be accepted, and be the same head, however its bytes arrive.
    func agrees(with other: Outcome) -> Bool {
        switch (self, other) {
        case (.invalid, .invalid): true
        default: self == other
        }
    }
}

/// What `parse` said, and the head it completed, if it did.
private typealias Parse = (result: RequestHeadParser.Result, head: ParsedHead?)

private func outcome(_ parse: Parse) -> Outcome {
    switch parse.result {
    case .incomplete: return .incomplete
    case .invalid(let error): return .invalid(error)
    case .complete:
        guard let head = parse.head else { preconditionFailure("a complete parse without its head") }
        return .complete(
            length: head.length, method: head.request.method.name, path: head.request.path,
            query: head.request.query, framing: head.framing, keepAlive: head.keepAlive,
            fields: head.request.fieldBytes
        )
    }
}

/// `parser`'s answer to `bytes`, with the head taken when it is complete.
private func parse(_ bytes: UnsafeBufferPointer<UInt8>, with parser: inout RequestHeadParser) -> Parse {
    let result = parser.parse(bytes)
    if case .complete = result {
        return (result, parser.head(in: bytes))
    }
    return (result, nil)
}

private func parseAtOnce(_ bytes: [UInt8]) -> Parse {
    var parser = RequestHeadParser(limits: fuzzLimits)
    return bytes.withUnsafeBufferPointer { parse($0, with: &parser) }
}

private func parseByteByByte(_ bytes: [UInt8]) -> Parse {
    var parser = RequestHeadParser(limits: fuzzLimits)
    for end in 1...max(1, bytes.count) where end <= bytes.count {
        let parsed = bytes.withUnsafeBufferPointer { parse(UnsafeBufferPointer(rebasing: $0[..<end]), with: &parser) }
        if case .incomplete = parsed.result { continue }
        return parsed
    }
    return (.incomplete, nil)
}

/// Bytes that must never reach a handler inside a path, query or header value.
private func isForbidden(_ byte: UInt8) -> Bool {
    byte < 0x20 && byte != 0x09 || byte == 0x7F
}

private func checkHead(_ head: ParsedHead) {
    let request = head.request
    precondition(request.path.hasPrefix("/") || request.path == "*", "accepted target: \(request.path)")
    for byte in Array(request.path.utf8) + Array(request.query.utf8) {
        precondition(!isForbidden(byte) && byte != 0x20, "control byte or space in the target")
    }
    for field in request.headers {
        precondition(!field.name.isEmpty && !field.name.utf8.contains(where: { isForbidden($0) || $0 == 0x20 || $0 == 0x3A }), "bad field name")
        precondition(!field.value.utf8.contains(where: isForbidden), "control byte in a field value")
    }
    if case .length(let length) = head.framing { precondition(length > 0, "empty length framing") }
}

/// Feeds `bytes` to one connection in reads of the sizes `split` chooses and checks what it writes.
private func driveConnection(_ bytes: [UInt8], split: UInt8) {
    let dateLine = Array("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".utf8)
    var seconds: UInt64 = 0
    var moment: Moment { Moment(time: MonotonicTime(nanoseconds: seconds * 1_000_000_000), dateLine: dateLine) }
    let settings = fuzzSettings()
    var machine = HTTPConnection(settings: settings, now: moment.time)
    let answer = PreparedResponse(HTTPResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "text/plain")], body: Array("ok".utf8), label: 1))
    let chunk = Int(split % 16) + 1
    let writeChunk = Int(split / 16) * 7 + 1
    var offset = 0
    var written: [UInt8] = []
    var refused = false
    var steps = 0
    var closed = false
    while !closed {
        steps += 1
        precondition(steps < 1_000_000, "the connection never settled")
        switch machine.nextAction(at: moment, canRead: true, canWrite: true) {
        case .dispatch(let request, let sequence):
            precondition(!refused, "a request was dispatched after a protocol error")
            precondition(request.path.hasPrefix("/") || request.path == "*")
            let body = machine.takeBody()
            precondition((body?.count ?? 0) <= 256, "a body over the limit was handed over")
            precondition(body == nil || request.path.hasPrefix("/u"), "a body nobody accepted was handed over")
            machine.responseReady(sequence: sequence, answer, extraHeaders: [], at: moment)
        case .read:
            if offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                bytes.withUnsafeBytes { machine.received(UnsafeRawBufferPointer(rebasing: $0[offset..<end]), now: moment.time) }
                offset = end
            } else {
                machine.receivedEndOfInput()
            }
        case .send:
            let count = machine.withPendingOutput { pending in
                let count = min(pending.count, writeChunk)
                written.append(contentsOf: pending[..<count])
                return count
            }
            machine.wrote(count, now: moment.time)
            while let response = machine.takeCompletedResponse() {
                if response.problem != nil { refused = true }
                precondition((response.problem == nil) == (response.label == 1), "a server-made response is labelled as the handler's")
            }
        case .shutdownOutput:
            break
        case .close, .reset:
            closed = true
        case .wait:
            // Nothing to read or write: only the clock can move it on.
            guard let timer = machine.timer else { preconditionFailure("a connection waits with nothing to wait for") }
            seconds = max(seconds, timer.deadline.nanoseconds / 1_000_000_000 + 1)
            machine.timerFired(at: moment)
        }
    }
    precondition(written.isEmpty || written.starts(with: "HTTP/1.1 ".utf8), "output does not start with a status line")
    precondition(settings.uploadBudget.heldBytes == 0, "a body outlived its connection")
}

/// Reads the body after `head` all at once and byte by byte: the same bytes
/// consumed, the same outcome, the same content.
private func checkBodyReader(_ bytes: [UInt8], after head: ParsedHead) {
    guard head.framing != .none, head.length <= bytes.count else { return }
    let rest = Array(bytes[head.length...])
    func read(pieceSize: Int) -> (Int, BodyReader.Outcome, [UInt8]) {
        let body = HTTPRequestBody(capacity: 16, budget: nil)
        var reader = BodyReader(framing: head.framing, limit: 300, maxTrailerBytes: 64)
        var consumed = 0
        var outcome = BodyReader.Outcome.needMore
        var end = 0
        while outcome == .needMore, end < rest.count {
            end = min(rest.count, end + pieceSize)
            let step = rest[consumed..<end].withUnsafeBytes { reader.consume($0, into: body) }
            consumed += step.consumed
            outcome = step.outcome
        }
        return (consumed, outcome, body?.bytes ?? [])
    }
    let whole = read(pieceSize: max(1, rest.count))
    let trickled = read(pieceSize: 1)
    precondition(whole.0 == trickled.0 && whole.1 == trickled.1 && whole.2 == trickled.2, "body read differs: \(whole) vs \(trickled)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let split = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = parseAtOnce(bytes)
    let trickled = parseByteByByte(bytes)
    precondition(outcome(whole).agrees(with: outcome(trickled)), "parse differs: \(outcome(whole)) vs \(outcome(trickled))")
    if let head = whole.head {
        checkHead(head)
        checkBodyReader(bytes, after: head)
    }
    driveConnection(bytes, split: split)
    return 0
}
