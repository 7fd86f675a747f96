/// Which addresses a fetch may connect to: public unicast only (see
/// `AddressCategory`); with `allowPrivate` (`--allow-private-sources`) also
/// loopback and private ones, IPv4-in-IPv6 forms of them included, and
/// never the unspecified, shared, link-local (`169.254.169.254`), multicast,
/// broadcast, reserved, documentation or site-local ones.
public struct AddressPolicy: Hashable, Sendable {
    /// Whether loopback and private addresses are allowed.
    public var allowPrivate: Bool

    /// The policy; by default public unicast only.
    public init(allowPrivate: Bool = false) {
        self.allowPrivate = allowPrivate
    }

    /// Nil when a fetch may connect to `address`; otherwise why not, as a
    /// short phrase for a `403` line ("a loopback address", "a private
    /// address inside an IPv4-mapped IPv6 address"), naming no address.
    public func refusal(of address: IPAddress) -> String? {
        let classification = address.classification
        let category = classification.category
        guard category != .publicUnicast, !(allowPrivate && category.isLoopbackOrPrivate) else { return nil }
        return classification.carrier.map { "\(category.phrase) inside \($0.phrase)" } ?? category.phrase
    }

    /// Whether a fetch may connect to `address`.
    public func allows(_ address: IPAddress) -> Bool {
        refusal(of: address) == nil
    }
}
