/// One IANA time zone's offsets from UTC over time, as a TZif file (RFC
/// 8536, what `/usr/share/zoneinfo` holds) lists them: the instants at which
/// the offset changes, and a POSIX rule for every instant after the last one.
public struct TimeZoneRules: Hashable, Sendable {
    /// The zone's IANA name, as the time zone database spells it.
    public let name: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
    private let transitions: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    private let offsets: [Int]
    /// The offset before the first transition.
    private let initialOffset: Int
    /// The offsets after the last transition; nil: the last one stays.
    private let rule: PosixTimeZoneRule?

    /// Coordinated Universal Time: no offset, ever.
    public static let utc = TimeZoneRules(name: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    private init(name: String, transitions: [Int64], offsets: [Int], initialOffset: Int, rule: PosixTimeZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// The zone of a POSIX `TZ` rule alone (`CET-1CEST,M3.5.0,M10.5.0/3`);
    /// nil when `rule` is not one.
    public init?(name: String, posixRule: String) {
        guard let rule = PosixTimeZoneRule(posixRule.utf8) else { return nil }
        self.init(name: name, transitions: [], offsets: [], initialOffset: rule.standardOffset, rule: rule)
    }

    /// The zone of a TZif file's bytes (versions 1 to 4: the 64-bit data
    /// and the footer's rule when there are), or nil when they are not one.
    /// Leap seconds, which only the `right/` zones list, are not counted.
    public init?(name: String, tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes[...])
        guard let first = reader.header() else { return nil }
        let has64BitData = first.version >= 2
        if has64BitData {
            // Version 1's 32-bit block comes first; the 64-bit one repeats it in full.
            guard reader.skip(first.dataLength(timeBytes: 4)), let second = reader.header(), second.version >= 2,
                  let data = reader.data(second, timeBytes: 8) else { return nil }
            var footer: PosixTimeZoneRule?
            guard reader.take(UInt8(ascii: "\n")), let end = reader.bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let text = reader.bytes[..<end]
            if !text.isEmpty {
                guard let parsed = PosixTimeZoneRule(text) else { return nil }
                footer = parsed
            }
            self.init(name: name, transitions: data.transitions, offsets: data.offsets, initialOffset: data.initialOffset, rule: footer)
        } else {
            guard let data = reader.data(first, timeBytes: 4) else { return nil }
            self.init(name: name, transitions: data.transitions, offsets: data.offsets, initialOffset: data.initialOffset, rule: nil)
        }
    }

    /// The offset, in seconds east of UTC, in force at `instant`.
    public func offset(at instant: Int64) -> Int {
        if let last = transitions.last, instant >= last, let rule { return rule.offset(at: instant) }
        if transitions.isEmpty { return rule?.offset(at: instant) ?? initialOffset }
        // The last transition at or before `instant`.
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The instant at which the zone's wall clocks show `local` (local
    /// seconds, `CivilTime`). A wall time that a change to daylight-saving
    /// time skips is read as if the clocks had not changed yet, so it falls
    /// as much later as they skipped (02:30 on the day Berlin goes from
    /// 02:00 to 03:00 is 03:30); a wall time that a change back shows twice
    /// is its first showing.
    public func instant(atLocal local: Int64) -> Int64 {
        // Zones are less than a day from UTC: the offsets a day either side
        // are the two that can apply (no zone changes twice within two days).
        let before = offset(at: local - CivilTime.secondsPerDay)
        let after = offset(at: local + CivilTime.secondsPerDay)
        let early = local - Int64(before)
        if offset(at: early) == before { return early }
        let late = local - Int64(after)
        if offset(at: late) == after { return late }
        return early
    }
}

/// Reads the parts of a TZif file (RFC 8536 §3).
private struct TZifReader {
    struct Header {
        var version: Int
        var utIndicators: Int, standardIndicators: Int, leapSeconds: Int
        var transitions: Int, types: Int, abbreviationBytes: Int

        /// Bytes of the data block after this header.
        func dataLength(timeBytes: Int) -> Int {
            transitions * (timeBytes + 1) + types * 6 + abbreviationBytes + leapSeconds * (timeBytes + 4)
                + standardIndicators + utIndicators
        }
    }

    struct Data {
        var transitions: [Int64]
        var offsets: [Int]
        var initialOffset: Int
    }

    var bytes: ArraySlice<UInt8>

    mutating func take(_ byte: UInt8) -> Bool {
        guard bytes.first == byte else { return false }
        bytes.removeFirst()
        return true
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, bytes.count >= count else { return false }
        bytes.removeFirst(count)
        return true
    }

    /// `TZif`, the version, 15 reserved bytes and six counts.
    mutating func header() -> Header? {
        guard bytes.count >= 44, bytes.prefix(4).elementsEqual("TZif".utf8) else { return nil }
        let versionByte = bytes[bytes.startIndex + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        guard (1...9).contains(version) else { return nil }
        bytes.removeFirst(20)
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = integer(bytes: 4), count >= 0, count < 1 << 20 else { return nil }
            counts.append(Int(count))
        }
        guard counts[4] >= 1 else { return nil }
        return Header(
            version: version, utIndicators: counts[0], standardIndicators: counts[1], leapSeconds: counts[2],
            transitions: counts[3], types: counts[4], abbreviationBytes: counts[5]
        )
    }

    /// The transitions and the offsets of the types they lead to.
    mutating func data(_ header: Header, timeBytes: Int) -> Data? {
        guard bytes.count >= header.dataLength(timeBytes: timeBytes) else { return nil }
        var times: [Int64] = []
        for _ in 0..<header.transitions {
            guard let time = integer(bytes: timeBytes), times.last.map({ $0 < time }) ?? true else { return nil }
            times.append(time)
        }
        let typeIndices = bytes.prefix(header.transitions).map(Int.init)
        bytes.removeFirst(header.transitions)
        var typeOffsets: [Int] = []
        for _ in 0..<header.types {
            guard let offset = integer(bytes: 4), abs(offset) < 26 * 3600 else { return nil }
            typeOffsets.append(Int(offset))
            bytes.removeFirst(2)  // is-DST and the abbreviation's index
        }
        guard typeIndices.allSatisfy({ $0 < header.types }),
              skip(header.abbreviationBytes + header.leapSeconds * (timeBytes + 4) + header.standardIndicators + header.utIndicators)
        else { return nil }
        return Data(transitions: times, offsets: typeIndices.map { typeOffsets[$0] }, initialOffset: typeOffsets[0])
    }

    /// A big-endian two's-complement integer of 4 or 8 bytes.
    private mutating func integer(bytes count: Int) -> Int64? {
        guard bytes.count >= count else { return nil }
        var value: UInt64 = 0
        for byte in bytes.prefix(count) { value = value << 8 | UInt64(byte) }
        bytes.removeFirst(count)
        let shift = UInt64(64 - 8 * count)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }
}
