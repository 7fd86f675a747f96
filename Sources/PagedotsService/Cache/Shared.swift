/// A value held once, in an object of its own: each table keyed by it holds
/// a reference instead of a copy of the whole value.
///
/// A dictionary stores its keys inline, in every bucket of its capacity,
/// used or not, and resizes by making a table of twice the buckets while the
/// old one is still held. The cache's image keys are specs of some thirty
/// fields; held inline, the index's two tables of them (the dictionary of
/// slots and the entries in LRU order) took ~1 KiB per cached image, and
/// a resize a few MiB at once (docs/performance.md, "Memory").
@dynamicMemberLookup
final class Shared<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    subscript<Field>(dynamicMember field: KeyPath<Value, Field>) -> Field {
        value[keyPath: field]
    }

    static func == (lhs: Shared, rhs: Shared) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        value.hash(into: &hasher)
    }
}
