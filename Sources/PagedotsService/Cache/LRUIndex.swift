/// A least-recently-used order over keys, with O(1) lookup, use, insert and
/// removal: a doubly linked list threaded through arrays, found by a dictionary.
///
/// Each entry lives in a numbered slot from its insertion to its removal, so
/// that a caller can keep the slot and reach the entry again without hashing
/// its key. A removed entry's value is released at once; its slot is reused
/// by a later insertion.
struct LRUIndex<Key: Hashable, Value> {
    /// Where an entry lives while it is in the index.
    typealias Slot = Int

    private struct Entry {
        var key: Key
        var value: Value
    }

    private struct Links {
        var older: Slot
        var newer: Slot
    }

    /// nil in free slots.
    private var entries: [Entry?] = []
    private var links: [Links] = []
    private var slots: [Key: Slot] = [:]
    private var freeSlots: [Slot] = []
    private var newest: Slot = -1
    private var oldest: Slot = -1

    var count: Int { slots.count }

    /// The slot of `key`, if present.
    func slot(of key: Key) -> Slot? {
        slots[key]
    }

    /// The value in `slot`; nil if the slot holds no entry.
    subscript(slot: Slot) -> Value? {
        entries.indices.contains(slot) ? entries[slot]?.value : nil
    }

    /// Changes the value in `slot` in place; nil (and `body` not called) if the slot holds no entry.
    mutating func update<Result>(_ slot: Slot, _ body: (inout Value) -> Result) -> Result? {
        guard entries.indices.contains(slot), var entry = entries[slot] else { return nil }
        entries[slot] = nil  // so that `entry` is the only reference and changes in place
        defer { entries[slot] = entry }
        return body(&entry.value)
    }

    /// Changes every value in place, in no particular order.
    mutating func updateAll(_ body: (inout Value) -> Void) {
        for slot in entries.indices {
            guard var entry = entries[slot] else { continue }
            entries[slot] = nil  // so that `entry` is the only reference and changes in place
            body(&entry.value)
            entries[slot] = entry
        }
    }

    /// Makes the entry in `slot` the most recently used.
    mutating func markUsed(_ slot: Slot) {
        guard slot != newest, entries.indices.contains(slot), entries[slot] != nil else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    /// Adds `key` as the most recently used and returns its slot. The key must not be present.
    @discardableResult
    mutating func insert(_ key: Key, _ value: Value) -> Slot {
        let slot: Slot
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = Entry(key: key, value: value)
        } else {
            slot = entries.count
            entries.append(Entry(key: key, value: value))
            links.append(Links(older: -1, newer: -1))
        }
        slots[key] = slot
        linkAsNewest(slot)
        return slot
    }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard oldest >= 0, let entry = entries[oldest] else { return nil }
        let slot = oldest
        unlink(slot)
        entries[slot] = nil
        slots[entry.key] = nil
        freeSlots.append(slot)
        return (entry.key, entry.value)
    }

    private mutating func unlink(_ slot: Slot) {
        let link = links[slot]
        if link.older >= 0 { links[link.older].newer = link.newer } else { oldest = link.newer }
        if link.newer >= 0 { links[link.newer].older = link.older } else { newest = link.older }
    }

    private mutating func linkAsNewest(_ slot: Slot) {
        links[slot] = Links(older: newest, newer: -1)
        if newest >= 0 { links[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}
