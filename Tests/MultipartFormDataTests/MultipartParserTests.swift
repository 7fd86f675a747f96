import MultipartFormData
import Testing

/// A body as browsers and curl send it: CRLF line ends, the boundary given.
private func body(_ lines: [String]) -> [UInt8] {
    Array(lines.joined(separator: "\r\n").utf8)
}

private let boundary = "XyZ-42"

/// One part's lines, as `curl -F name=@file;type=…` writes them.
private func part(_ name: String, filename: String? = "a.png", type: String? = "image/png", content: String) -> [String] {
    var disposition = "Content-Disposition: form-data; name=\"\(name)\""
    if let filename { disposition += "; filename=\"\(filename)\"" }
    return ["--" + boundary, disposition] + (type.map { ["Content-Type: \($0)"] } ?? []) + ["", content]
}

/// What a parse came to, the same whatever the pieces fed.
private struct Parsed: Equatable {
    var heads: [MultipartPartHead] = []
    var contents: [[UInt8]] = []
    var ranges: [Range<Int>] = []
}

/// Feeds `bytes` in pieces of `pieceSize` (nil: all at once) and gathers
/// every event; throws what the parser throws.
private func parse(_ bytes: [UInt8], pieceSize: Int?, limits: MultipartLimits = MultipartLimits()) throws(MultipartError) -> Parsed {
    var parser = MultipartParser(boundary: try MultipartBoundary(boundary), limits: limits)
    var parsed = Parsed()
    var start = 0
    var contentStart = 0
    repeat {
        let end = min(bytes.count, start + (pieceSize ?? bytes.count))
        let piece = Array(bytes[start..<end])
        var failure: MultipartError?
        piece.withUnsafeBytes { piece in
            do throws(MultipartError) {
                try parser.parse(piece) { event in
                    switch event {
                    case .partBegan(let head, let start):
                        parsed.heads.append(head)
                        parsed.contents.append([])
                        contentStart = start
                    case .content(let bytes):
                        parsed.contents[parsed.contents.count - 1] += bytes
                    case .partEnded(let end):
                        parsed.ranges.append(contentStart..<end)
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        start = end
    } while start < bytes.count
    try parser.finish()
    return parsed
}

private let pieceSizes: [Int?] = [nil, 1, 2, 3, 7, 64]

@Suite("multipart/form-data: the parts of good bodies")
struct MultipartParserTests {
    @Test("Two files as curl -F sends them: heads, contents and ranges, fed all at once or in any pieces", arguments: pieceSizes)
    func twoFiles(pieceSize: Int?) throws {
        let bytes = body(part("slide", content: "first\r\nfile") + part("slide", filename: "b.jpg", type: "IMAGE/JPEG", content: "") + ["--\(boundary)--", ""])
        let parsed = try parse(bytes, pieceSize: pieceSize)
        #expect(parsed.heads == [
            MultipartPartHead(name: "slide", filename: "a.png", contentType: "image/png"),
            MultipartPartHead(name: "slide", filename: "b.jpg", contentType: "image/jpeg"),
        ])
        #expect(parsed.contents == [Array("first\r\nfile".utf8), []])
        #expect(parsed.ranges.map { Array(bytes[$0]) } == parsed.contents)
        let whole = try bytes.withUnsafeBytes { bytes in try MultipartParser.parts(of: bytes, boundary: try MultipartBoundary(boundary)) }
        #expect(whole.map(\.contentRange) == parsed.ranges)
    }

    @Test(
        "RFC 2046 §5.1.1: content that looks like the start of a delimiter is content, however it is split",
        arguments: pieceSizes
    )
    func delimiterLookalikes(pieceSize: Int?) throws {
        let tricky = "\r\r\n\r\n-\r\n--X\r\n--XyZ\r\n--XyZ-4\r"
        let parsed = try parse(body(part("slide", content: tricky) + ["--\(boundary)--"]), pieceSize: pieceSize)
        #expect(parsed.contents == [Array(tricky.utf8)])
    }

    @Test("Binary content: every byte value, CR and LF included", arguments: pieceSizes)
    func binary(pieceSize: Int?) throws {
        let content = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [13, 10, 45, 45]
        let bytes = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"carousel\"\r\n\r\n".utf8) + content
            + Array("\r\n--\(boundary)--".utf8)
        #expect(try parse(bytes, pieceSize: pieceSize).contents == [content])
    }

    @Test("RFC 2046 §5.1.1: a preamble and an epilogue are skipped; transport padding after a boundary is allowed")
    func preambleEpilogueAndPadding() throws {
        let bytes = body(["This is the preamble.", "--\(boundary) \t"] + Array(part("slide", content: "x").dropFirst()) + ["--\(boundary)-- ", "epilogue --\(boundary)"])
        let parsed = try parse(bytes, pieceSize: nil)
        #expect(parsed.contents == [Array("x".utf8)])
    }

    @Test("RFC 7578 §4.2, RFC 9110 §5.6.4: parameters as tokens or quoted strings with escapes; names any case; UTF-8 file names")
    func dispositionParameters() throws {
        let bytes = body([
            "--\(boundary)", "content-disposition:FORM-DATA ;NAME=slide; filename=\"sp\\\"ring é.jpg\"; filename*=ignored",
            "X-Other: ignored", "", "a", "--\(boundary)--",
        ])
        #expect(try parse(bytes, pieceSize: 1).heads == [MultipartPartHead(name: "slide", filename: "sp\"ring é.jpg", contentType: nil)])
    }

    @Test("The boundary of a Content-Type: quoted or not, any case of the media type; RFC 2046's characters")
    func boundaryFromContentType() throws {
        #expect(try MultipartBoundary(contentType: "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk").value == "----WebKitFormBoundary7MA4YWxk")
        #expect(try MultipartBoundary(contentType: "Multipart/Form-Data;boundary=\"a b:c?\" ").value == "a b:c?")
        #expect(try MultipartBoundary(String(repeating: "b", count: 70)).value.count == 70)
    }
}

@Suite("multipart/form-data: refusals, each in one line")
struct MultipartRefusalTests {
    @Test("RFC 7578 §4, RFC 2046 §5.1.1: the Content-Type must be multipart/form-data with a valid boundary")
    func contentType() {
        #expect(throws: MultipartError.notFormData(got: "application/json")) { try MultipartBoundary(contentType: "application/json") }
        #expect(throws: MultipartError.notFormData(got: "multipart/mixed; boundary=x")) { try MultipartBoundary(contentType: "multipart/mixed; boundary=x") }
        #expect(throws: MultipartError.missingBoundary) { try MultipartBoundary(contentType: "multipart/form-data") }
        #expect(throws: MultipartError.missingBoundary) { try MultipartBoundary(contentType: "multipart/form-data; charset=utf-8") }
        for bad in ["", String(repeating: "b", count: 71), "ends in space ", "semi;colon", "quote\"d", "tab\there"] {
            #expect(throws: MultipartError.invalidBoundary(got: bad)) { try MultipartBoundary(bad) }
        }
        #expect(throws: MultipartError.self) { try MultipartBoundary(contentType: "multipart/form-data; boundary=a; boundary=b") }
        #expect(throws: MultipartError.self) { try MultipartBoundary(contentType: "multipart/form-data; boundary=\"unterminated") }
        #expect(MultipartError.missingBoundary.description == "multipart/form-data without a boundary parameter")
    }

    /// The error of parsing `lines` (joined with CRLF), the same whatever the pieces.
    private func refusal(_ bytes: [UInt8], limits: MultipartLimits = MultipartLimits()) -> MultipartError? {
        var errors: [MultipartError?] = []
        for pieceSize in pieceSizes {
            do {
                _ = try parse(bytes, pieceSize: pieceSize, limits: limits)
                errors.append(nil)
            } catch {
                errors.append(error)
            }
        }
        #expect(Set(errors.map { $0?.description }).count == 1, "\(errors)")
        return errors[0]
    }

    @Test("Framing: no delimiter, a line that starts with the boundary but is not a delimiter, a body cut short")
    func framing() {
        #expect(refusal(body(["no boundary here"])) == .noDelimiter)
        #expect(refusal([]) == .noDelimiter)
        #expect(refusal(body(["--\(boundary)X", ""])) == .malformedDelimiter(afterPart: 0))
        #expect(refusal(body(part("slide", content: "a") + ["--\(boundary)-X"])) == .malformedDelimiter(afterPart: 1))
        #expect(refusal(body(part("slide", content: "a\r\n--\(boundary)X")  + ["--\(boundary)--"])) == .malformedDelimiter(afterPart: 1))
        #expect(refusal(body(part("slide", content: "cut short"))) == .truncated(part: 1))
        #expect(refusal(body(["--\(boundary)", "Content-Disposition: form-data; name=a"])) == .truncated(part: 1))
        #expect(refusal(body(["--\(boundary)"])) == .truncated(part: 0))
        #expect(MultipartError.truncated(part: 3).description == "part 3: the body ended before the closing --BOUNDARY-- (truncated?)")
    }

    @Test("RFC 9112 §2.2, §5.2 as applied to parts: header lines end in CRLF, are Name: value, and are not folded")
    func headerLines() {
        let good = "Content-Disposition: form-data; name=slide"
        for header in [
            "Content-Disposition: form-data; name=slide\nX: y", "Bad Name: x", "NoColon", " folded: x",
            "Name : x", "X: a\u{0}b", "X: a\rb",
        ] {
            let lines = header.hasPrefix("Content") ? [header] : [good, header]
            #expect(refusal(body(["--\(boundary)"] + lines + ["", "x", "--\(boundary)--"])) == .malformedHeader(part: 1), "\(header.debugDescription)")
        }
    }

    @Test("RFC 7578 §4.2: a part needs Content-Disposition: form-data with a name, once")
    func disposition() {
        func refused(_ headers: [String]) -> String? {
            refusal(body(["--\(boundary)"] + headers + ["", "x", "--\(boundary)--"]))?.description
        }
        #expect(refused([]) == "part 1: no Content-Disposition (expected form-data; name=\"…\")")
        #expect(refused(["Content-Type: image/png"]) == "part 1: no Content-Disposition (expected form-data; name=\"…\")")
        #expect(refused(["Content-Disposition: attachment; name=a"]) == "part 1: Content-Disposition must be form-data; got \"attachment\"")
        #expect(refused(["Content-Disposition: form-data; filename=a.png"]) == "part 1: Content-Disposition without a name")
        #expect(refused(["Content-Disposition: form-data; name=a; name=b"])?.hasPrefix("part 1: malformed Content-Disposition") == true)
        #expect(refused(["Content-Disposition: form-data; name=\"a"])?.hasPrefix("part 1: malformed Content-Disposition") == true)
        #expect(refused(["Content-Disposition: form-data; name=a", "content-disposition: form-data; name=b"]) == "part 1: content-disposition given twice")
    }

    @Test("RFC 7578 §4.4, §4.7: a Content-Type must be type/subtype; a transfer encoding only 7bit, 8bit or binary")
    func contentTypeAndEncoding() {
        let disposition = "Content-Disposition: form-data; name=a"
        func refused(_ header: String) -> MultipartError? {
            refusal(body(["--\(boundary)", disposition, header, "", "x", "--\(boundary)--"]))
        }
        #expect(refused("Content-Type: image") == .malformedContentType(part: 1))
        #expect(refused("Content-Type: image/png; charset") == .malformedContentType(part: 1))
        #expect(refused("Content-Transfer-Encoding: base64") == .unsupportedTransferEncoding(part: 1, got: "base64"))
        #expect(refused("Content-Transfer-Encoding: BINARY") == nil)
        #expect(refused("Content-Type: image/png; name=\"a.png\"") == nil)
    }

    @Test("Limits: parts, a part's header section, the whole body")
    func limits() {
        let three = body(part("a", content: "1") + part("b", content: "2") + part("c", content: "3") + ["--\(boundary)--"])
        #expect(refusal(three, limits: MultipartLimits(maxParts: 2)) == .tooManyParts(limit: 2))
        #expect(refusal(three, limits: MultipartLimits(maxParts: 3)) == nil)
        let longHeader = body(["--\(boundary)", "Content-Disposition: form-data; name=a", "X: " + String(repeating: "y", count: 200), "", "", "--\(boundary)--"])
        #expect(refusal(longHeader, limits: MultipartLimits(maxPartHeaderBytes: 200)) == .headerSectionTooLarge(part: 1, limit: 200))
        #expect(refusal(longHeader, limits: MultipartLimits(maxPartHeaderBytes: 250)) == nil)
        #expect(refusal(three, limits: MultipartLimits(maxBodyBytes: three.count - 1)) == .bodyTooLarge(limit: three.count - 1))
        #expect(refusal(three, limits: MultipartLimits(maxBodyBytes: three.count)) == nil)
        // A refusal before the size limit is that refusal, however the body is fed (fuzz/multipart's find).
        #expect(refusal(three, limits: MultipartLimits(maxParts: 1, maxBodyBytes: three.count - 1)) == .tooManyParts(limit: 1))
    }
}
