/// A token bucket: `capacity` tokens, refilled at `perSecond`; each line takes one.
struct TokenBucket {
    let capacity: Double
    let perSecond: Double
    private var tokens: Double
    private var updatedAt: Double?

    init(capacity: Int, perSecond: Double) {
        self.capacity = Double(capacity)
        self.perSecond = perSecond
        tokens = Double(capacity)
    }

    /// Takes a token at time `now` (seconds); false when none is left.
    mutating func take(at now: Double) -> Bool {
        if let updatedAt, now > updatedAt { tokens = min(capacity, tokens + (now - updatedAt) * perSecond) }
        updatedAt = max(updatedAt ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
