/// Dates and times of day on the proleptic Gregorian calendar, counted as
/// seconds since 1970-01-01T00:00 as if the wall clock were UTC ("local
/// seconds"): adding a day to a wall time is adding 86,400 to them, whatever
/// a time zone does that day.
public enum CivilTime {
    public static let secondsPerDay: Int64 = 86_400

    /// Days from 1970-01-01 to a date (negative before it): Howard Hinnant's
    /// `days_from_civil`, exact for every year an `Int64` can count.
    public static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01: the inverse of `days(year:month:day:)`.
    public static func date(days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday of a day counted from 1970-01-01 (a Thursday): 0 is Sunday.
    static func weekday(days: Int64) -> Int {
        Int(((days + 4) % 7 + 7) % 7)
    }

    /// Whether February of `year` has 29 days.
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in `month` of `year`.
    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Floor division, for seconds before 1970.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// `2025-03-30T01:00:00Z`: an instant (seconds since 1970, UTC) as
    /// messages and logs write it.
    public static func iso8601(_ instant: Int64) -> String {
        let days = floorDivide(instant, secondsPerDay)
        let (year, month, day) = date(days: days)
        let second = Int(instant - days * secondsPerDay)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + "-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}
