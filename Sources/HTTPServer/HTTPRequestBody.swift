import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of accepted request bodies that one server holds at once
/// (`HTTPServerConfiguration.maxHeldUploadBytes`), counted by the room each
/// body has taken, from the moment it is made until it is freed.
final class UploadBudget: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` bytes; false, taking nothing, when they would pass the limit.
    func take(_ count: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func give(_ count: Int) {
        held.subtract(count, ordering: .relaxed)
    }

    /// Bytes taken now.
    var heldBytes: Int { held.load(ordering: .relaxed) }
}

/// A request body that a handler accepted, read whole: its content
/// (chunked framing removed) in one contiguous buffer.
///
/// The buffer is allocated once at the declared `Content-Length`, or grown
/// in place (`realloc`) for a chunked body, so the content is never copied
/// into a second buffer; its memory counts against the server's upload
/// budget until the last reference to the body goes. The connection fills
/// it on its loop's thread before the handler sees it; from then on it is
/// only read, from any thread.
public final class HTTPRequestBody: @unchecked Sendable {
    private var storage: UnsafeMutableRawPointer?
    /// Bytes allocated (and taken from `budget`).
    private var capacity: Int
    /// Bytes of content.
    public private(set) var count = 0
    private let budget: UploadBudget?

    /// A body that holds `bytes`, e.g. to hand a handler a request without a
    /// server (outside any budget).
    public init(_ bytes: [UInt8]) {
        budget = nil
        storage = bytes.isEmpty ? nil : malloc(bytes.count)
        capacity = storage == nil ? 0 : bytes.count
        bytes.withUnsafeBytes { source in
            guard let storage, let base = source.baseAddress else { return }
            storage.copyMemory(from: base, byteCount: source.count)
            count = source.count
        }
    }

    /// An empty body with room for `capacity` bytes, taken from `budget`;
    /// nil when the budget (or the allocator) cannot give them.
    init?(capacity: Int, budget: UploadBudget?) {
        guard budget?.take(capacity) ?? true else { return nil }
        self.budget = budget
        self.capacity = capacity
        storage = capacity > 0 ? malloc(capacity) : nil
        guard storage != nil || capacity == 0 else {
            budget?.give(capacity)
            return nil
        }
    }

    deinit {
        free(storage)
        budget?.give(capacity)
    }

    /// Calls `body` with the content; the pointer is valid only inside it.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// A copy of the content (for tests and small bodies).
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Appends `bytes`, growing the room (at most to `limit` bytes) when
    /// they do not fit; false when the budget or the allocator refuses.
    func append(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return true }
        let needed = count + bytes.count
        // Doubled room, or, when the budget cannot give that much, just enough.
        if needed > capacity, !resize(to: min(limit, max(needed, capacity * 2))), !resize(to: needed) { return false }
        guard let storage else { return false }
        (storage + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
        return true
    }

    /// Gives back the room beyond the content (after a chunked body's last growth).
    func trim() {
        if capacity > count { _ = resize(to: count) }
    }

    private func resize(to newCapacity: Int) -> Bool {
        let growth = newCapacity - capacity
        if growth > 0, let budget, !budget.take(growth) { return false }
        if newCapacity == 0 {
            free(storage)
            storage = nil
        } else {
            guard let resized = realloc(storage, newCapacity) else {
                if growth > 0 { budget?.give(growth) }
                return false
            }
            storage = resized
        }
        if growth < 0 { budget?.give(-growth) }
        capacity = newCapacity
        return true
    }
}
