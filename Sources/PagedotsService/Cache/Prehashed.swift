/// A dictionary key whose hash is worked out once, when it is made.
///
/// The cache's keys (specs of some twenty fields, URLs of 50–100 bytes) are
/// looked up, inserted and removed in several dictionaries by one request,
/// and met again by an eviction long after they were last touched: hashing
/// them each time cost more than the lookups. The dictionaries hash the stored value instead, and
/// compare the keys only when the hashes are equal. (The hash is the
/// process's own seeded `hashValue`: never stored or sent.)
@dynamicMemberLookup
struct Prehashed<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value
    private let hash: Int

    init(_ value: Value) {
        self.value = value
        hash = value.hashValue
    }

    subscript<Field>(dynamicMember field: KeyPath<Value, Field>) -> Field {
        value[keyPath: field]
    }

    /// The key of `value`, held once in an object of its own (`Shared`).
    init<Wrapped>(_ value: Wrapped) where Value == Shared<Wrapped> {
        self.init(Shared(value))
    }

    static func == (lhs: Prehashed, rhs: Prehashed) -> Bool {
        lhs.hash == rhs.hash && lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
