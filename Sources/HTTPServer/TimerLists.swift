/// The deadlines of one loop's connections: a doubly linked list per timer
/// kind, threaded through an array indexed by connection slot.
///
/// Every kind has a single duration and deadlines are set in time order, so a
/// new deadline nearly always belongs at its list's tail: setting, moving and
/// cancelling a timer are O(1), and the earliest deadline is one of the heads.
/// (A deadline that started earlier than the tail's — a request timer resumed
/// after a write stall — is walked back into place.)
struct TimerLists {
    private struct Node {
        var timer: ConnectionTimer?
        var previous = -1
        var next = -1
    }

    private var nodes: [Node] = []
    private var heads = [Int](repeating: -1, count: TimerKind.allCases.count)
    private var tails = [Int](repeating: -1, count: TimerKind.allCases.count)

    /// Makes `slot`'s timer `timer` (nil cancels it).
    mutating func set(_ slot: Int, to timer: ConnectionTimer?) {
        if slot >= nodes.count { nodes.append(contentsOf: repeatElement(Node(), count: slot + 1 - nodes.count)) }
        guard nodes[slot].timer != timer else { return }
        unlink(slot)
        guard let timer else { return }
        nodes[slot].timer = timer
        link(slot, kind: timer.kind.rawValue, deadline: timer.deadline)
    }

    /// The earliest deadline of all.
    var earliestDeadline: MonotonicTime? {
        earliest?.deadline
    }

    /// The slot with the earliest deadline, if that deadline is at or before
    /// `now`; its timer is removed.
    mutating func takeDue(at now: MonotonicTime) -> Int? {
        guard let earliest, earliest.deadline <= now else { return nil }
        unlink(earliest.slot)
        return earliest.slot
    }

    /// The earliest of the lists' heads.
    private var earliest: (slot: Int, deadline: MonotonicTime)? {
        var earliest: (slot: Int, deadline: MonotonicTime)?
        for head in heads where head >= 0 {
            if let deadline = nodes[head].timer?.deadline, earliest.map({ deadline < $0.deadline }) ?? true {
                earliest = (head, deadline)
            }
        }
        return earliest
    }

    private mutating func unlink(_ slot: Int) {
        guard let kind = nodes[slot].timer?.kind.rawValue else { return }
        let (previous, next) = (nodes[slot].previous, nodes[slot].next)
        if previous >= 0 { nodes[previous].next = next } else { heads[kind] = next }
        if next >= 0 { nodes[next].previous = previous } else { tails[kind] = previous }
        nodes[slot] = Node()
    }

    /// Inserts after the last node whose deadline is not later (from the tail).
    private mutating func link(_ slot: Int, kind: Int, deadline: MonotonicTime) {
        var previous = tails[kind]
        while previous >= 0, let earlier = nodes[previous].timer, earlier.deadline > deadline {
            previous = nodes[previous].previous
        }
        let next = previous >= 0 ? nodes[previous].next : heads[kind]
        nodes[slot].previous = previous
        nodes[slot].next = next
        if previous >= 0 { nodes[previous].next = slot } else { heads[kind] = slot }
        if next >= 0 { nodes[next].previous = slot } else { tails[kind] = slot }
    }
}
