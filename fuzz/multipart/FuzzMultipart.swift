// libFuzzer harness for the multipart/form-data parser: compiled together
// with Sources/MultipartFormData/*.swift as one module (see scripts/fuzz).
//
// Input: the first line is a Content-Type value (its boundary is used when it
// has a valid one, else "XyZ"); byte 0 of the rest chooses a piece size; the
// rest is the body. The harness checks that the parser gives the same answer
// fed all at once, byte by byte and in pieces (the same parts, heads and
// contents, or the same refusal), that each part's content is exactly its
// range of the body, and that ranges are in order and within the body.

/// What a parse came to, in a form that can be compared.
private enum Outcome: Equatable {
    case parts([MultipartPartHead], contents: [[UInt8]], ranges: [Range<Int>])
    case refused(String)
}

private let limits = MultipartLimits(maxParts: 8, maxPartHeaderBytes: 200, maxBodyBytes: 3000)

private func parse(_ body: [UInt8], boundary: MultipartBoundary, pieceSize: Int) -> Outcome {
    var parser = MultipartParser(boundary: boundary, limits: limits)
    var heads: [MultipartPartHead] = []
    var contents: [[UInt8]] = []
    var ranges: [Range<Int>] = []
    var start = 0
    var contentStart = 0
    do {
        repeat {
            let end = min(body.count, start + pieceSize)
            try body[start..<end].withUnsafeBytes { piece in
                try parser.parse(piece) { event in
                    switch event {
                    case .partBegan(let head, let begin):
                        heads.append(head)
                        contents.append([])
                        contentStart = begin
                    case .content(let bytes):
                        precondition(!contents.isEmpty, "content before a part")
                        contents[contents.count - 1] += bytes
                    case .partEnded(let end):
                        ranges.append(contentStart..<end)
                    }
                }
            }
            start = end
        } while start < body.count
        try parser.finish()
    } catch {
        return .refused((error as? MultipartError)?.description ?? "\(error)")
    }
    return .parts(heads, contents: contents, ranges: ranges)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = input.firstIndex(of: 10) ?? input.count
    let contentType = String(decoding: input[..<newline], as: UTF8.self)
    let rest = newline < input.count ? Array(input[(newline + 1)...]) : []
    guard let pieceByte = rest.first else { return 0 }
    let body = Array(rest.dropFirst())
    let boundary: MultipartBoundary
    if let given = try? MultipartBoundary(contentType: contentType) {
        boundary = given
    } else {
        guard let fixed = try? MultipartBoundary("XyZ") else { preconditionFailure("XyZ is a valid boundary") }
        boundary = fixed
    }
    let whole = parse(body, boundary: boundary, pieceSize: max(1, body.count))
    precondition(parse(body, boundary: boundary, pieceSize: 1) == whole, "byte by byte differs from all at once")
    precondition(parse(body, boundary: boundary, pieceSize: Int(pieceByte % 32) + 2) == whole, "pieces differ from all at once")
    if case .parts(_, let contents, let ranges) = whole {
        precondition(contents.count == ranges.count, "a part without its end")
        var previousEnd = 0
        for (content, range) in zip(contents, ranges) {
            precondition(range.lowerBound >= previousEnd && range.upperBound <= body.count, "a range out of order or out of the body")
            precondition(Array(body[range]) == content, "a part's content is not its range")
            previousEnd = range.upperBound
        }
        let direct = try? body.withUnsafeBytes { try MultipartParser.parts(of: $0, boundary: boundary, limits: limits) }
        precondition(direct?.map(\.contentRange) == ranges, "parts(of:) differs from the events")
    }
    return 0
}
