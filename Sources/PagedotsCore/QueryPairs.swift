/// A raw query split into `name=value` pairs and sorted by the table: each
/// known parameter's value as sent, and the unknown names.
///
/// Pairs are separated by `&`; an empty pair, or one with an empty name
/// (`=5`), is skipped; a pair without `=` has an empty value. Names are
/// matched exactly as sent (lowercase, not percent-decoded).
struct QueryPairs {
    private enum Slot {
        case absent
        case once(Range<Int>)
        case repeated
    }

    private let bytes: [UInt8]
    /// By position in `Parameter.all`.
    private var slots: [Slot]
    /// Unknown names, each once, in order of first appearance, as sent.
    private(set) var ignored: [String] = []
    private var ignoredSet: Set<String> = []

    init(_ query: Substring) {
        bytes = query.utf8.withContiguousStorageIfAvailable(Array.init) ?? Array(query.utf8)
        slots = Array(repeating: .absent, count: Parameter.all.count)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            record(start..<end)
            start = end + 1
        }
    }

    /// The value of the parameter at `index` in `Parameter.all`: nil when absent.
    func value(at index: Int) throws(ParameterError) -> ParameterValue? {
        switch slots[index] {
        case .absent: return nil
        case .once(let range): return ParameterValue(Parameter.all[index], raw: bytes[range])
        case .repeated: throw .givenTwice(Parameter.all[index].name)
        }
    }

    private mutating func record(_ pair: Range<Int>) {
        let equals = bytes[pair].firstIndex(of: UInt8(ascii: "="))
        let name = bytes[pair.lowerBound..<(equals ?? pair.upperBound)]
        guard !name.isEmpty else { return }
        let value = equals.map { ($0 + 1)..<pair.upperBound } ?? pair.upperBound..<pair.upperBound
        if let index = Parameter.index(spelled: name) {
            if case .absent = slots[index] {
                slots[index] = .once(value)
            } else {
                slots[index] = .repeated
            }
        } else {
            let spelling = String(decoding: name, as: UTF8.self)
            if ignoredSet.insert(spelling).inserted {
                ignored.append(spelling)
            }
        }
    }
}
