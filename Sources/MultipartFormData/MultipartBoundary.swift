/// The boundary of a `multipart/form-data` body (RFC 2046 §5.1.1), checked:
/// 1 to 70 of the allowed characters, not ending in a space.
public struct MultipartBoundary: Hashable, Sendable {
    /// The boundary as given, without quotes.
    public let value: String

    /// The boundary `value`, or `invalidBoundary`.
    public init(_ value: String) throws(MultipartError) {
        let bytes = Array(value.utf8)
        guard (1...70).contains(bytes.count), bytes.allSatisfy(ByteClass.isBoundary), bytes.last != 0x20 else {
            throw .invalidBoundary(got: value)
        }
        self.value = value
    }

    /// The boundary of a request's `Content-Type` value: the media type must
    /// be `multipart/form-data` (any case), with one `boundary` parameter.
    public init(contentType: String) throws(MultipartError) {
        let value = ByteClass.trimmed(Array(contentType.utf8)[...])
        let mediaType = ByteClass.lowercased(ByteClass.trimmed(value.prefix { $0 != 0x3B }))
        guard mediaType == "multipart/form-data" else { throw .notFormData(got: contentType) }
        // The media type is right: what breaks the grammar is in the parameters.
        guard let header = HeaderParameters(value, slashed: true) else { throw .invalidBoundary(got: contentType) }
        guard let boundary = header.value(of: "boundary") else { throw .missingBoundary }
        try self.init(String(decoding: boundary, as: UTF8.self))
    }

    /// `CRLF "--" boundary`: what ends every part's content (RFC 2046 §5.1.1).
    var delimiter: [UInt8] {
        [ByteClass.cr, ByteClass.lf, ByteClass.dash, ByteClass.dash] + Array(value.utf8)
    }
}
