/// A bar segment's title as sent (percent-decoded UTF-8), compared byte for
/// byte. `String` compares by canonical equivalence, so to it `é` and `e`
/// followed by a combining acute accent are one title, though a text layout
/// engine may draw them differently; specs, which are the cache's keys, must
/// never take two images for one.
public struct Label: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    public var description: String { text }

    public static func == (lhs: Label, rhs: Label) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
