/// One known parameter's value as sent, and its conversions: each reads the
/// value as the table's kind says, checks its range, and throws the
/// parameter's one-line message when it does not fit.
///
/// Calling a conversion that does not match the parameter's kind is a
/// programming error (the table and `IndicatorSpecBuilder` disagree), never
/// a matter of input; the tests call every conversion.
struct ParameterValue {
    /// The parameter's name, kind and unit (what its messages need; the
    /// rest of its row is not copied).
    private let name: String
    private let kind: ParameterKind
    private let unit: String?
    /// Still percent-encoded.
    let raw: ArraySlice<UInt8>

    init(_ parameter: Parameter, raw: ArraySlice<UInt8>) {
        name = parameter.name.rawValue
        kind = parameter.kind
        unit = parameter.unit
        self.raw = raw
    }

    /// An integer in the kind's range (and a multiple of its step), its top
    /// lowered to `limit` (`note` says why; like every note, worked out only
    /// for a message).
    func integer(upTo limit: Int = .max, note: @autoclosure () -> String? = nil) throws(ParameterError) -> Int {
        let kindRange: ClosedRange<Int>, step: Int
        switch kind {
        case .integer(let range): (kindRange, step) = (range, 1)
        case .multiple(let multiple, let range): (kindRange, step) = (range, multiple)
        default: preconditionFailure("\(name) is not an integer")
        }
        let range = kindRange.lowerBound...max(kindRange.lowerBound, min(kindRange.upperBound, limit))
        let text = try decoded(raw)
        guard let value = DecimalText.integer(text), range.contains(value), value.isMultiple(of: step) else {
            let allowed = step == 1 ? ParameterKind.integer(range) : .multiple(of: step, range)
            throw failure("be " + allowed.phrase(), note: note())
        }
        return value
    }

    /// A decimal in the kind's range, narrowed to `bounds` (`note` says why);
    /// a kind without a range takes `bounds` alone.
    func decimal(within bounds: ClosedRange<Double> = 0...Double.infinity, note: @autoclosure () -> String? = nil) throws(ParameterError) -> Double {
        guard case .decimal(let kindRange) = kind else { preconditionFailure("\(name) is not a decimal") }
        let range = kindRange?.clamped(to: bounds) ?? bounds
        let text = try decoded(raw)
        guard let value = DecimalText.decimal(text), range.contains(value) else {
            throw failure("be " + ParameterKind.decimal(range).phrase(), note: note())
        }
        return value
    }

    /// A carousel's `scale`: a number in the kind's range in steps of 0.25
    /// (an indicator's stays a whole number, `integer()`).
    func carouselScale() throws(ParameterError) -> Double {
        guard case .integer(let range) = kind else { preconditionFailure("\(name) is not a scale") }
        let text = try decoded(raw)
        guard let value = DecimalText.decimal(text), (Double(range.lowerBound)...Double(range.upperBound)).contains(value),
              (value * 4).rounded() == value * 4 else {
            throw failure("be a number from \(range.lowerBound) to \(range.upperBound) in steps of 0.25 for a carousel")
        }
        return value
    }

    /// A size in points, `WxH` or `W` (then `height` is nil), each whole and in the kind's range.
    func dimensions() throws(ParameterError) -> SlideSize {
        guard case .dimensions(let range) = kind else { preconditionFailure("\(name) is not a size") }
        let text = try decoded(raw)
        let sides = text.split(separator: UInt8(ascii: "x"), maxSplits: 1, omittingEmptySubsequences: false)
        let values = sides.map { DecimalText.integer($0) }
        guard sides.count <= 2, values.allSatisfy({ $0.map(range.contains) ?? false }), let width = values.first ?? nil else {
            throw failure("be " + kind.phrase())
        }
        return SlideSize(width: width, height: values.count == 2 ? values[1] : nil)
    }

    /// A number of bytes in the kind's range (`ByteCountText`).
    func byteCount() throws(ParameterError) -> Int {
        guard case .byteCount(let range) = kind else { preconditionFailure("\(name) is not a byte count") }
        guard let count = ByteCountText.parse(try decoded(raw)), range.contains(count) else { throw failure("be " + kind.phrase()) }
        return count
    }

    /// One of the kind's words, case-insensitive, as `E`.
    func choice<E: RawRepresentable<String>>(_: E.Type) throws(ParameterError) -> E {
        guard let value = E(rawValue: try word()) else { preconditionFailure("\(name) has a word that is no \(E.self)") }
        return value
    }

    /// One of the kind's words, lowered.
    private func word() throws(ParameterError) -> String {
        guard case .choice(let words) = kind else { preconditionFailure("\(name) is not a choice") }
        let word = String(asciiLowercased: try decoded(raw))
        guard words.contains(word) else { throw failure("be " + kind.phrase()) }
        return word
    }

    /// A colour.
    func color() throws(ParameterError) -> RGBA {
        guard case .color = kind else { preconditionFailure("\(name) is not a color") }
        guard let color = RGBA(parsing: try decoded(raw)) else { throw failure("be " + kind.phrase()) }
        return color
    }

    /// The colours of a list, as many as the kind allows.
    func colors() throws(ParameterError) -> [RGBA] {
        guard case .colorList(let count) = kind else { preconditionFailure("\(name) is not a color list") }
        var colors: [RGBA] = []
        for (offset, item) in try items(count: count, noun: "color").enumerated() {
            guard let color = RGBA(parsing: try decoded(item, item: offset + 1)) else {
                throw failure("be " + ParameterKind.color.phrase(), item: offset + 1, got: item)
            }
            colors.append(color)
        }
        return colors
    }

    /// The texts of a list, exactly `count` of them (`note` says why), none
    /// with a control character.
    func texts(count: Int, note: @autoclosure () -> String) throws(ParameterError) -> [String] {
        try texts(allowed: count...count, note: note())
    }

    private func texts(allowed count: ClosedRange<Int>, note: @autoclosure () -> String?) throws(ParameterError) -> [String] {
        guard case .textList = kind else { preconditionFailure("\(name) is not a text list") }
        var texts: [String] = []
        for (offset, item) in try items(count: count, noun: "label", note: note()).enumerated() {
            let bytes = try decoded(item, item: offset + 1)
            guard !Self.hasControlCharacter(bytes) else {
                throw failure("be text without control characters", item: offset + 1, got: item)
            }
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        return texts
    }

    /// Checks the value on its own, as its kind and range allow (the rules
    /// that tie it to other parameters aside; a list of texts may have up to
    /// as many items as there may be pages), with the time zones of `zones`.
    func check(zones: any TimeZoneSource) throws(ParameterError) {
        switch kind {
        case .integer, .multiple: _ = try integer()
        case .decimal: _ = try decimal()
        case .choice: _ = try word()
        case .color: _ = try color()
        case .colorList: _ = try colors()
        case .textList: _ = try texts(allowed: 1...Self.maxItems, note: nil)
        case .dateTime: _ = try startTime()
        case .period: _ = try period()
        case .timeZone: _ = try timeZone(in: zones)
        case .dimensions: _ = try dimensions()
        case .byteCount: _ = try byteCount()
        }
    }

    /// The most items a list may have: one per page.
    private static var maxItems: Int {
        guard case .integer(let range) = ParameterName.pages.definition.kind else { return 1 }
        return range.upperBound
    }

    /// When page 0 begins (`start`).
    func startTime() throws(ParameterError) -> StartTime {
        guard case .dateTime = kind else { preconditionFailure("\(name) is not a date-time") }
        guard let start = StartTime(try decoded(raw)) else { throw failure("be " + kind.phrase()) }
        return start
    }

    /// A page's length (`every`).
    func period() throws(ParameterError) -> PagePeriod {
        guard case .period = kind else { preconditionFailure("\(name) is not a period") }
        guard let period = PagePeriod(try decoded(raw)) else { throw failure("be " + kind.phrase()) }
        return period
    }

    /// A time zone that `zones` knows by this name.
    func timeZone(in zones: any TimeZoneSource) throws(ParameterError) -> TimeZoneRules {
        guard case .timeZone = kind else { preconditionFailure("\(name) is not a time zone") }
        let text = try decoded(raw)
        guard text.count <= 64, let zone = zones.zone(named: String(decoding: text, as: UTF8.self)) else {
            throw failure("be " + kind.phrase())
        }
        return zone
    }

    /// `<name>: must <requirement>; got "<raw>"`.
    func failure(_ requirement: String, note: String? = nil) -> ParameterError {
        failure(requirement, note: note, item: nil, got: raw)
    }

    /// The raw value split on its literal commas (an empty value is an empty
    /// list), checked to have an allowed number of items: `noun` (singular)
    /// names one item in the message.
    private func items(count allowed: ClosedRange<Int>, noun: String, note: @autoclosure () -> String? = nil) throws(ParameterError) -> [ArraySlice<UInt8>] {
        let items = raw.isEmpty ? [] : raw.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard allowed.contains(items.count) else {
            let amount = allowed.count == 1
                ? (allowed.lowerBound == 1 ? "exactly 1 \(noun)" : "exactly \(allowed.lowerBound) comma-separated \(noun)s")
                : "\(allowed.lowerBound) to \(allowed.upperBound) comma-separated \(noun)s"
            throw ParameterError(name, must: "be " + amount + Self.parenthesised(nil, note()), got: "\(items.count)")
        }
        return items
    }

    /// `bytes` percent-decoded, or the message naming the parameter (and the list item).
    private func decoded(_ bytes: ArraySlice<UInt8>, item: Int? = nil) throws(ParameterError) -> ArraySlice<UInt8> {
        do {
            return try PercentDecoding.decode(bytes)
        } catch {
            switch error {
            case .malformedEscape: throw failure("be percent-encoded as %XX with two hex digits", item: item, got: bytes)
            case .invalidUTF8: throw failure("be UTF-8 once percent-decoded", item: item, got: bytes)
            }
        }
    }

    private func failure(_ requirement: String, note: String? = nil, item: Int?, got: ArraySlice<UInt8>) -> ParameterError {
        ParameterError(
            name, item: item, must: requirement + Self.parenthesised(unit, note), got: ParameterError.quoted(got)
        )
    }

    /// Whether valid UTF-8 holds a control character (Unicode's Cc: C0, DEL,
    /// and C1, which is U+0080…U+009F, encoded C2 80…C2 9F).
    private static func hasControlCharacter(_ utf8: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) { return true }
            previous = byte
        }
        return false
    }

    /// ` (unit; note)`, ` (unit)`, ` (note)` or nothing.
    private static func parenthesised(_ unit: String?, _ note: String?) -> String {
        let parts = [unit, note].compactMap { $0 }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }
}

extension ParameterKind {
    /// What a value of this kind must be, in words: `an integer from 1 to 1000`.
    func phrase() -> String {
        switch self {
        case .integer(let range):
            return "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .multiple(let step, let range):
            return ParameterKind.integer(range).phrase() + ", a multiple of \(step)"
        case .decimal(let range?) where range.upperBound == .infinity:
            return "a number of at least \(DecimalText.format(range.lowerBound))"
        case .decimal(let range?):
            return "a number from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound))"
        case .decimal(nil):
            return "a number"
        case .choice(let words):
            return "one of " + words.joined(separator: ", ")
        case .color:
            return "a color: hex RGB, RGBA, RRGGBB or RRGGBBAA (# optional), a CSS color name, or transparent"
        case .colorList(let count):
            return "\(count.lowerBound) to \(count.upperBound) comma-separated colors"
        case .textList:
            return "comma-separated texts"
        case .dateTime:
            return "a date YYYY-MM-DD, or a date and time YYYY-MM-DDTHH:MM, optionally with an offset Z or ±HH:MM (+ sent as %2B)"
        case .period:
            return "a whole number and a unit m, h, d or w, from 1m to 52w (90m, 12h, 1d, 2w)"
        case .timeZone:
            return "an IANA time zone name, like Europe/Berlin or America/New_York"
        case .dimensions(let range):
            return "WxH or W, whole numbers from \(range.lowerBound) to \(range.upperBound) (600x300, 600)"
        case .byteCount(let range):
            return "a number of bytes from \(ByteCountText.format(range.lowerBound)) to \(ByteCountText.format(range.upperBound)): "
                + "an integer, or a number with k (×1,000) or M (×1,000,000), like 750k or 1M"
        }
    }
}
