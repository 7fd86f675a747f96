/// Up to `capacity` distinct opaque colours (24-bit RGB), in the order they
/// were first added, each found again by a hash probe: a frame's or an
/// animation's colours, and their palette positions.
struct ColorTable {
    /// The most colours a GIF palette holds, and the default capacity.
    static let paletteCapacity = 256
    /// A slot that holds no colour (colours have 24 bits).
    private static let emptySlot = UInt64.max

    let capacity: Int
    /// A power of two, 4× the capacity, so that probes stay short.
    private let slotMask: Int
    private let hashShift: UInt32
    /// Per slot: a colour in the low 32 bits and its position above them,
    /// or `emptySlot`. One array, so that adding a colour writes to two
    /// arrays (this and `colors`), each checked once for sole ownership.
    private var slots: [UInt64]
    /// The colours, in the order they were added.
    private(set) var colors: [UInt32] = []
    /// A colour was refused because the table was full.
    private(set) var overflowed = false

    var count: Int { colors.count }

    /// An empty table for up to `capacity` colours.
    init(capacity: Int = paletteCapacity) {
        self.capacity = capacity
        let bits = Int.bitWidth - (4 * capacity - 1).leadingZeroBitCount
        slotMask = (1 << bits) - 1
        hashShift = UInt32(32 - bits)
        slots = [UInt64](repeating: Self.emptySlot, count: 1 << bits)
        colors.reserveCapacity(capacity)
    }

    /// The slot holding `rgb`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of rgb: UInt32) -> Int {
        var slot = Int((rgb &* 0x9E37_79B1) >> hashShift)
        while slots[slot] != Self.emptySlot && UInt32(truncatingIfNeeded: slots[slot]) != rgb {
            slot = (slot + 1) & slotMask
        }
        return slot
    }

    /// The colour's position, adding it when new; nil (and `overflowed` set)
    /// when it is new and the table is full.
    @inline(__always)
    @discardableResult
    mutating func insert(_ rgb: UInt32) -> Int? {
        let slot = slot(of: rgb)
        if slots[slot] != Self.emptySlot {
            return Int(slots[slot] >> 32)
        }
        guard colors.count < capacity else {
            overflowed = true
            return nil
        }
        slots[slot] = UInt64(colors.count) << 32 | UInt64(rgb)
        colors.append(rgb)
        return colors.count - 1
    }

    /// The colour's position, or nil when it is not in the table.
    @inline(__always)
    func position(of rgb: UInt32) -> Int? {
        let slot = slot(of: rgb)
        return slots[slot] != Self.emptySlot ? Int(slots[slot] >> 32) : nil
    }

    /// Empties the table, in time proportional to what it held: the colours
    /// are found and taken out last first, so that each one's probe passes
    /// only over slots of colours added before it, still there.
    mutating func removeAll() {
        for rgb in colors.reversed() {
            slots[slot(of: rgb)] = Self.emptySlot
        }
        colors.removeAll(keepingCapacity: true)
        overflowed = false
    }
}
