import Locking

/// How many new images each client may have drawn (docs/operating.md, "Fair
/// use"): a token bucket per client, `perSecond` tokens a second, holding at
/// most twice that (at least one), each image drawn for the client taking
/// what it costs (`FairUseCost`). An image that costs more than the bucket
/// holds is drawn only from a full bucket, which it leaves in debt. Safe
/// from any thread.
///
/// Each bucket is kept as one number, the time at which it will be full
/// again (the "theoretical arrival time" of the GCRA, which is a token
/// bucket counted in time): a full bucket is any time not in the future;
/// a token moves it `interval` later; a bucket holds a token while that time
/// is at most `tolerance` (the burst less one token) ahead of now.
///
/// Clients are remembered in a fixed table, so that a flood from a million
/// addresses cannot grow it: `capacity` slots in sets of `ways`, a client's
/// set chosen by a hash seeded per process. A client not in its set takes
/// the slot whose bucket is fullest (first one already full again, whose
/// client loses nothing by being forgotten); only when every bucket of the
/// set is short does a client lose its count, and then the one closest to
/// full. An IPv6 client is counted by its /64, the block one host can pick
/// its addresses from.
final class MissRateLimiter: Sendable {
    /// What a client asking for a new image is told.
    enum Decision: Equatable, Sendable {
        case allowed
        /// Over its rate: a token will be there in this many whole seconds (at least 1).
        case refused(retryAfter: Int)
    }

    /// Clients remembered at most: at the default rate a bucket is full again
    /// two seconds after its last image, and two seconds of the fastest
    /// misses this service draws come from far fewer clients than this.
    static let defaultCapacity = 65_536
    /// Slots per set.
    static let ways = 8

    private struct Slot {
        /// The client, or its /64.
        var client: ClientAddress
        /// Nanoseconds on `clock` when its bucket is full again.
        var fullAt: Int64
    }

    private let interval: Int64
    private let tolerance: Int64
    /// Tokens a full bucket holds.
    private let burst: Int
    private let clock: @Sendable () -> Int64
    private let sets: Int
    private let slots: Locked<[Slot]>

    /// A limiter of `perSecond` images a second per client (above 0),
    /// remembering `capacity` clients (a multiple of `ways`), on a clock in
    /// nanoseconds that never goes back.
    init(perSecond: Double, capacity: Int = defaultCapacity, clock: @escaping @Sendable () -> Int64 = monotonicNanoseconds) {
        interval = Int64((1e9 / perSecond).rounded())
        let burst = max(1, 2 * perSecond)
        tolerance = Int64(((burst - 1) * 1e9 / perSecond).rounded())
        self.burst = Int(burst)
        self.clock = clock
        sets = max(1, capacity / Self.ways)
        slots = Locked([Slot](repeating: Slot(client: .unspecified, fullAt: .min), count: sets * Self.ways))
    }

    /// Clients the table can hold: fixed when it is made.
    var capacity: Int { slots.withLock { $0.count } }

    /// Takes `tokens` (at least 1) from `client`'s bucket, or says how long
    /// until they are there: as many as the bucket holds, or, for more than
    /// it holds, a full bucket.
    func take(_ tokens: Int = 1, for client: ClientAddress) -> Decision {
        let now = clock()
        let key = Self.bucketKey(client)
        var hasher = Hasher()
        hasher.combine(key)
        let first = Int(UInt(bitPattern: hasher.finalize()) % UInt(sets)) * Self.ways
        return slots.withLock { slots in
            var chosen = first
            for index in first..<(first + Self.ways) {
                if slots[index].client == key {
                    chosen = index
                    break
                }
                if slots[index].fullAt < slots[chosen].fullAt { chosen = index }
            }
            let fullAt = slots[chosen].client == key ? max(slots[chosen].fullAt, now) : now
            // The bucket must hold all but one of the tokens beyond the first, or be full.
            let allowedAhead = tokens > burst ? 0 : tolerance - Int64(tokens - 1) * interval
            guard fullAt - now <= allowedAhead else {
                let wait = fullAt - allowedAhead - now
                return .refused(retryAfter: Int((wait + 999_999_999) / 1_000_000_000))
            }
            slots[chosen] = Slot(client: key, fullAt: fullAt + Int64(tokens) * interval)
            return .allowed
        }
    }

    /// The bucket a client counts in: an IPv4 address, or an IPv6 address's /64.
    static func bucketKey(_ client: ClientAddress) -> ClientAddress {
        client.isIPv4 ? client : ClientAddress(high: client.high, low: 0)
    }
}
