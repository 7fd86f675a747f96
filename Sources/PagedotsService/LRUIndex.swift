/// A least-recently-used order over keys, with O(1) touch, insert and
/// removal: a doubly linked list threaded through arrays, found by a dictionary.
struct LRUIndex<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var older: Int
        var newer: Int
    }

    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    var count: Int { slots.count }

    /// The value for `key`, made the most recently used.
    mutating func touch(_ key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return nodes[slot].value
    }

    /// Adds `key` as the most recently used. The key must not be present.
    mutating func insert(_ key: Key, _ value: Value) {
        let node = Node(key: key, value: value, older: -1, newer: -1)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[key] = slot
        linkAsNewest(slot)
    }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        let slot = oldest
        let node = nodes[slot]
        unlink(slot)
        slots[node.key] = nil
        freeSlots.append(slot)
        return (node.key, node.value)
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]
        if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
        if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}
