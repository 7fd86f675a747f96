/// A `multipart/form-data` body as browsers and `curl -F` write it, for tests.
public struct MultipartBody: Sendable {
    /// One part: a field name, a file name, a media type, the content.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var content: [UInt8]

        public init(name: String, filename: String? = nil, contentType: String? = nil, content: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }

        /// Upload fixture `fixture` as a file part named `name`.
        public static func file(_ name: String, _ fixture: String) -> Part {
            Part(name: name, filename: fixture, contentType: "application/octet-stream", content: UploadFixtures.bytes(fixture))
        }
    }

    public static let boundary = "----pagedots-test-7MA4YWxkTrZu0gW"
    /// The request's `Content-Type` value.
    public static let contentType = "multipart/form-data; boundary=\(boundary)"

    public var bytes: [UInt8]

    public init(_ parts: [Part]) {
        var bytes: [UInt8] = []
        for part in parts {
            var head = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            if let type = part.contentType { head += "\r\nContent-Type: \(type)" }
            bytes += Array((head + "\r\n\r\n").utf8) + part.content + [13, 10]
        }
        self.bytes = bytes + Array("--\(Self.boundary)--\r\n".utf8)
    }
}
