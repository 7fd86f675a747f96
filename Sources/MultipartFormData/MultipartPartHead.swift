/// What a part's header section says (RFC 7578 §4): its field name, its file
/// name, and its media type.
public struct MultipartPartHead: Equatable, Sendable {
    /// The `name` parameter of `Content-Disposition: form-data`.
    public var name: String
    /// The `filename` parameter, if given (as sent: a browser sends the base name).
    public var filename: String?
    /// The media type of `Content-Type`, lowercased, without parameters
    /// (`image/png`); nil when the part has none (RFC 7578 §4.4: then `text/plain`).
    public var contentType: String?

    public init(name: String, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
    }

    /// Parses the header section of part `part`: field lines, each ending in
    /// CRLF, without the empty line that ends the section. Header fields other
    /// than these three are ignored (RFC 7578 §4.8).
    static func parse(_ section: ArraySlice<UInt8>, part: Int) throws(MultipartError) -> MultipartPartHead {
        var disposition: HeaderParameters?
        var contentType: String?
        var seen: Set<String> = []
        var rest = section
        while !rest.isEmpty {
            guard let lf = rest.firstIndex(of: ByteClass.lf), lf > rest.startIndex, rest[lf - 1] == ByteClass.cr else {
                throw .malformedHeader(part: part)
            }
            let line = rest[rest.startIndex..<(lf - 1)]
            rest = rest[(lf + 1)...]
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                  line[..<colon].allSatisfy(ByteClass.isToken),
                  line[(colon + 1)...].allSatisfy(ByteClass.isFieldText)
            else { throw .malformedHeader(part: part) }
            let name = ByteClass.lowercased(line[..<colon])
            let value = ByteClass.trimmed(line[(colon + 1)...])
            let known = ["content-disposition", "content-type", "content-transfer-encoding"].contains(name)
            guard known else { continue }
            guard seen.insert(name).inserted else {
                throw .repeatedHeader(part: part, name: String(decoding: line[..<colon], as: UTF8.self))
            }
            switch name {
            case "content-disposition":
                guard let parsed = HeaderParameters(value, slashed: false) else {
                    throw .badDisposition(part: part, problem: "malformed Content-Disposition (expected form-data; name=\"…\")")
                }
                disposition = parsed
            case "content-type":
                guard let parsed = HeaderParameters(value, slashed: true) else { throw .malformedContentType(part: part) }
                contentType = parsed.leading
            default:
                let coding = ByteClass.lowercased(value)
                guard ["7bit", "8bit", "binary"].contains(coding) else {
                    throw .unsupportedTransferEncoding(part: part, got: String(decoding: value, as: UTF8.self))
                }
            }
        }
        guard let disposition else {
            throw .badDisposition(part: part, problem: "no Content-Disposition (expected form-data; name=\"…\")")
        }
        guard disposition.leading == "form-data" else {
            throw .badDisposition(part: part, problem: "Content-Disposition must be form-data; got \(MultipartError.quoted(disposition.leading))")
        }
        guard let name = disposition.value(of: "name") else {
            throw .badDisposition(part: part, problem: "Content-Disposition without a name")
        }
        return MultipartPartHead(
            name: String(decoding: name, as: UTF8.self),
            filename: disposition.value(of: "filename").map { String(decoding: $0, as: UTF8.self) },
            contentType: contentType
        )
    }
}
