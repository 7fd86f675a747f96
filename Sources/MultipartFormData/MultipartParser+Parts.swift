/// One part of a body held whole: its head, and where its content lies.
public struct MultipartPart: Equatable, Sendable {
    public var head: MultipartPartHead
    /// The content's bytes in the body.
    public var contentRange: Range<Int>

    public init(head: MultipartPartHead, contentRange: Range<Int>) {
        self.head = head
        self.contentRange = contentRange
    }
}

extension MultipartParser {
    /// The parts of a whole body, in order, each as a range of `body`: no
    /// content is copied.
    public static func parts(
        of body: UnsafeRawBufferPointer, boundary: MultipartBoundary, limits: MultipartLimits = MultipartLimits()
    ) throws(MultipartError) -> [MultipartPart] {
        var parser = MultipartParser(boundary: boundary, limits: limits)
        var parts: [MultipartPart] = []
        var current: (head: MultipartPartHead, start: Int)?
        try parser.parse(body) { event in
            switch event {
            case .partBegan(let head, let start):
                current = (head, start)
            case .content:
                break
            case .partEnded(let end):
                if let (head, start) = current { parts.append(MultipartPart(head: head, contentRange: start..<end)) }
                current = nil
            }
        }
        try parser.finish()
        return parts
    }
}
