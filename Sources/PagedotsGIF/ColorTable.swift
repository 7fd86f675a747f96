/// Up to `capacity` distinct opaque colours (24-bit RGB), in the order they
/// were first added, each found again by a hash probe: a frame's or an
/// animation's colours, and their palette positions.
struct ColorTable {
    /// The most colours a GIF palette holds, and the default capacity.
    static let paletteCapacity = 256
    /// No colour is this (colours have 24 bits).
    private static let emptySlot: UInt32 = .max

    let capacity: Int
    /// A power of two, 4× the capacity, so that probes stay short.
    private let slotMask: Int
    private let hashShift: UInt32
    private var keys: [UInt32]
    private var positions: [UInt16]
    /// The slots in use, so that emptying the table touches only them.
    private var filledSlots: [Int] = []
    /// The colours, in the order they were added.
    private(set) var colors: [UInt32] = []
    /// A colour was refused because the table was full.
    private(set) var overflowed = false

    var count: Int { colors.count }

    /// An empty table for up to `capacity` (at most 16384) colours.
    init(capacity: Int = paletteCapacity) {
        self.capacity = capacity
        let bits = Int.bitWidth - (4 * capacity - 1).leadingZeroBitCount
        slotMask = (1 << bits) - 1
        hashShift = UInt32(32 - bits)
        keys = [UInt32](repeating: Self.emptySlot, count: 1 << bits)
        positions = [UInt16](repeating: 0, count: 1 << bits)
    }

    @inline(__always)
    private func slot(of rgb: UInt32) -> Int {
        var slot = Int((rgb &* 0x9E37_79B1) >> hashShift)
        while keys[slot] != rgb && keys[slot] != Self.emptySlot {
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
        if keys[slot] == rgb {
            return Int(positions[slot])
        }
        guard colors.count < capacity else {
            overflowed = true
            return nil
        }
        keys[slot] = rgb
        positions[slot] = UInt16(colors.count)
        filledSlots.append(slot)
        colors.append(rgb)
        return colors.count - 1
    }

    /// The colour's position, or nil when it is not in the table.
    @inline(__always)
    func position(of rgb: UInt32) -> Int? {
        let slot = slot(of: rgb)
        return keys[slot] == rgb ? Int(positions[slot]) : nil
    }

    /// Empties the table, in time proportional to what it held.
    mutating func removeAll() {
        for slot in filledSlots {
            keys[slot] = Self.emptySlot
        }
        filledSlots.removeAll(keepingCapacity: true)
        colors.removeAll(keepingCapacity: true)
        overflowed = false
    }
}
