/// A POSIX `TZ` rule as the footer of a TZif file writes it (RFC 8536 §3.3,
/// with its extensions: hours from −167 to 167 in rule times): the offsets
/// of standard and daylight-saving time and when each year the one turns into
/// the other, e.g. `CET-1CEST,M3.5.0,M10.5.0/3`. It says the offset for every
/// instant after a zone's last listed transition.
struct PosixTimeZoneRule: Hashable, Sendable {
    /// Seconds east of UTC (POSIX writes them west, with the opposite sign).
    let standardOffset: Int
    /// Daylight-saving time, when the zone has it.
    let daylight: Daylight?

    struct Daylight: Hashable, Sendable {
        let offset: Int
        /// When it starts, in standard time, and ends, in daylight-saving time.
        let start: Change
        let end: Change
    }

    /// A day of the year and a time of day.
    struct Change: Hashable, Sendable {
        enum Day: Hashable, Sendable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianSkippingLeapDay(Int)
            /// `n`: day 0…365, February 29 counted.
            case julian(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (5: the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after the day's midnight (may be negative or over a day).
        let time: Int

        /// The wall time (local seconds) of the change in `year`.
        func localSeconds(in year: Int64) -> Int64 {
            let days: Int64
            switch day {
            case .julianSkippingLeapDay(let number):
                let leapShift = CivilTime.isLeapYear(year) && number >= 60 ? 1 : 0
                days = CivilTime.days(year: year, month: 1, day: 1) + Int64(number - 1 + leapShift)
            case .julian(let number):
                days = CivilTime.days(year: year, month: 1, day: 1) + Int64(number)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilTime.days(year: year, month: month, day: 1)
                var day = first + Int64((weekday - CivilTime.weekday(days: first) + 7) % 7) + Int64(7 * (week - 1))
                let nextMonth = first + Int64(CivilTime.daysIn(month: month, year: year))
                while day >= nextMonth { day -= 7 }
                days = day
            }
            return days * CivilTime.secondsPerDay + Int64(time)
        }
    }

    /// The offset in force at `instant` (seconds since 1970, UTC).
    func offset(at instant: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilTime.date(days: CivilTime.floorDivide(instant + Int64(standardOffset), CivilTime.secondsPerDay)).year
        let start = daylight.start.localSeconds(in: year) - Int64(standardOffset)
        let end = daylight.end.localSeconds(in: year) - Int64(daylight.offset)
        // In the southern hemisphere daylight-saving time spans the new year.
        let inDaylight = start < end ? (start <= instant && instant < end) : !(end <= instant && instant < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    /// Reads a rule; nil when `text` is not one.
    init?(_ text: some Collection<UInt8>) {
        var reader = Reader(bytes: Array(text)[...])
        guard reader.name(), let standard = reader.offset() else { return nil }
        standardOffset = -standard
        if reader.atEnd {
            daylight = nil
            return
        }
        guard reader.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !reader.atEnd, reader.peek != UInt8(ascii: ",") {
            guard let given = reader.offset() else { return nil }
            daylightOffset = -given
        }
        // A daylight-saving name without a rule takes POSIX's default one (as US law had it).
        let defaultRule = Array(",M3.2.0,M11.1.0".utf8)[...]
        if reader.atEnd { reader = Reader(bytes: defaultRule) }
        guard reader.take(","), let start = reader.change(), reader.take(","), let end = reader.change(), reader.atEnd else {
            return nil
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// Reads the parts of a rule, left to right.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var atEnd: Bool { bytes.isEmpty }
        var peek: UInt8? { bytes.first }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard bytes.first == UInt8(ascii: character) else { return false }
            bytes.removeFirst()
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` with letters, digits, `+` and `-`.
        mutating func name() -> Bool {
            if take("<") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: ">")), close - bytes.startIndex >= 3 else { return false }
                bytes = bytes[(close + 1)...]
                return true
            }
            let letters = bytes.prefix { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & 0xDF) }
            guard letters.count >= 3 else { return false }
            bytes.removeFirst(letters.count)
            return true
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, hours up to `maxHours`.
        mutating func offset(maxHours: Int = 24) -> Int? {
            let sign = take("-") ? -1 : 1
            if sign == 1 { _ = take("+") }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3600
            for factor in [60, 1] {
                guard take(":") else { break }
                guard let part = number(maxDigits: 2), part < 60 else { return nil }
                seconds += part * factor
            }
            return sign * seconds
        }

        /// `date[/time]`, the time 02:00 when not given.
        mutating func change() -> Change? {
            let day: Change.Day
            if take("M") {
                guard let month = number(maxDigits: 2), (1...12).contains(month), take("."),
                      let week = number(maxDigits: 1), (1...5).contains(week), take("."),
                      let weekday = number(maxDigits: 1), weekday <= 6 else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take("J") {
                guard let number = number(maxDigits: 3), (1...365).contains(number) else { return nil }
                day = .julianSkippingLeapDay(number)
            } else {
                guard let number = number(maxDigits: 3), number <= 365 else { return nil }
                day = .julian(number)
            }
            var time = 7200
            if take("/") {
                guard let given = offset(maxHours: 167) else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }

        /// 1 to `maxDigits` ASCII digits.
        private mutating func number(maxDigits: Int) -> Int? {
            let digits = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard (1...maxDigits).contains(digits.count) else { return nil }
            bytes.removeFirst(digits.count)
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
    }
}
