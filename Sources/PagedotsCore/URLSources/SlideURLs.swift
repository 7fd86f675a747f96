/// The URLs a carousel `GET` names in its query (docs/carousel.md,
/// "Carousels from URLs"): `slide=URL`, repeated, in order, or one
/// `carousel=URL`, each percent-decoded as every parameter is (`+` is a
/// space, so a `+` in a URL is sent as `%2B`). Neither is an image
/// parameter: the carousel's query leaves them out of `X-Ignored-Parameters`.
public struct SlideURLs: Equatable, Sendable {
    /// The `slide` values, in order.
    public var slides: [String] = []
    /// The `carousel` values (more than one is refused by the caller).
    public var carousels: [String] = []

    /// The names that carry URLs.
    public static let names: Set<String> = ["slide", "carousel"]

    /// The URLs of `query` (percent-encoded, without `?`); throws about a
    /// value that is not percent-encoded UTF-8.
    public init(query: Substring) throws(ParameterError) {
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name = pair.prefix { $0 != UInt8(ascii: "=") }
            let nameText = String(decoding: name, as: UTF8.self)
            guard Self.names.contains(nameText) else { continue }
            let raw = Array(pair.dropFirst(name.count + 1))[...]
            let value: ArraySlice<UInt8>
            do {
                value = try PercentDecoding.decode(raw)
            } catch {
                throw ParameterError(nameText, must: "be a URL, percent-encoded as UTF-8", got: ParameterError.quoted(raw))
            }
            let text = String(decoding: value, as: UTF8.self)
            if nameText == "slide" { slides.append(text) } else { carousels.append(text) }
        }
    }

    /// Whether the query names no URL at all.
    public var isEmpty: Bool { slides.isEmpty && carousels.isEmpty }
}
