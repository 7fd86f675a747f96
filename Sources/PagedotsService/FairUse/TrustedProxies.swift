import HTTPServer

/// The proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`), and
/// how a request's client address is found through them (docs/operating.md,
/// "Fair use").
struct TrustedProxies: Sendable {
    let ranges: [AddressRange]

    init(_ ranges: [AddressRange] = []) {
        self.ranges = ranges
    }

    /// Whether `address` is a trusted proxy's.
    func contains(_ address: ClientAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client a request stands for. A peer that is not a trusted proxy
    /// is the client itself: its `X-Forwarded-For` is anyone's to write.
    /// Behind trusted proxies, each of which appends the address it got the
    /// request from, `X-Forwarded-For` (its lines read as one list, in
    /// order) is walked from the right, the entries that trusted proxies
    /// wrote, past every trusted address: the first that is not trusted is
    /// the client. The walk also stops
    ///
    /// - at an entry that is not an address (`unknown`, a name, garbage):
    ///   the client is then the last trusted address passed, the proxy that
    ///   received the request from whoever it was, so that a client cannot
    ///   slip out of its own bucket by sending garbage (a trusted proxy
    ///   writes the real address to the right of anything a client sent);
    /// - at the end of the list (or with no `X-Forwarded-For`): the
    ///   leftmost trusted address, e.g. the proxy's own health checks.
    ///
    /// Entries may be `192.0.2.1`, `2001:db8::1`, `[2001:db8::1]`, or one of
    /// these with a port (`192.0.2.1:4711`, `[2001:db8::1]:4711`), with
    /// spaces and tabs around; empty entries are skipped.
    func client(peer: ClientAddress, forwardedFor fieldValues: [Substring]) -> ClientAddress {
        guard contains(peer) else { return peer }
        var reached = peer
        for value in fieldValues.reversed() {
            for entry in value.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                let text = entry.trimmingSpacesAndTabs
                if text.isEmpty { continue }
                guard let address = Self.address(ofEntry: text) else { return reached }
                guard contains(address) else { return address }
                reached = address
            }
        }
        return reached
    }

    /// The client `request` stands for: its peer, or, from a trusted proxy,
    /// what `X-Forwarded-For` says (read only then).
    func client(of request: HTTPRequest) -> ClientAddress {
        let peer = ClientAddress(bytes: request.peerAddress) ?? .unspecified
        guard contains(peer) else { return peer }
        return client(peer: peer, forwardedFor: request.fieldValues("X-Forwarded-For"))
    }

    /// The address of one `X-Forwarded-For` entry, port and brackets removed.
    static func address(ofEntry text: Substring) -> ClientAddress? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || isPort(rest.dropFirst()) && rest.hasPrefix(":") else { return nil }
            return ClientAddress(text[text.index(after: text.startIndex)..<close])
        }
        if let address = ClientAddress(text) { return address }
        // `a.b.c.d:port`: IPv4 only (a bare IPv6 address has colons of its own).
        guard let colon = text.lastIndex(of: ":"), isPort(text[text.index(after: colon)...]),
              let address = ClientAddress(text[..<colon]), address.isIPv4 else { return nil }
        return address
    }

    /// 1 to 5 decimal digits.
    private static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.utf8.count) && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
