import Testing
@testable import PagedotsCore

/// Seconds since 1970 of a UTC date and time.
func utc(_ year: Int64, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    CivilTime.days(year: year, month: month, day: day) * 86400 + Int64(hour * 3600 + minute * 60 + second)
}

/// The grammar of `start`, `every` and `--now`, and the civil calendar under them.
@Suite struct CalendarParsingTests {
    @Test func civilDaysRoundTripAndKnownDates() {
        #expect(CivilTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.days(year: 2000, month: 3, day: 1) == 11017)
        #expect(CivilTime.days(year: 1969, month: 12, day: 31) == -1)
        #expect(utc(2025, 3, 30, 1) == 1_743_296_400)
        for days in stride(from: Int64(-800_000), through: 3_000_000, by: 997) {
            let date = CivilTime.date(days: days)
            #expect(CivilTime.days(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(CivilTime.weekday(days: 0) == 4)  // a Thursday
        #expect(CivilTime.iso8601(1_743_296_400) == "2025-03-30T01:00:00Z")
        #expect(CivilTime.iso8601(-1) == "1969-12-31T23:59:59Z")
    }

    @Test(arguments: [
        ("2025-12-01", StartTime.local(utc(2025, 12, 1))),
        ("2025-12-01T09:00", .local(utc(2025, 12, 1, 9))),
        ("2025-12-01t23:59", .local(utc(2025, 12, 1, 23, 59))),
        ("2025-12-01T09:00Z", .instant(utc(2025, 12, 1, 9))),
        ("2025-12-01T09:00z", .instant(utc(2025, 12, 1, 9))),
        ("2025-12-01T09:00+01:00", .instant(utc(2025, 12, 1, 8))),
        // `+` in a URL's query is a space once decoded.
        ("2025-12-01T09:00 01:00", .instant(utc(2025, 12, 1, 8))),
        ("2025-12-01T09:00-05:30", .instant(utc(2025, 12, 1, 14, 30))),
        ("2024-02-29", .local(utc(2024, 2, 29))),
        ("1969-07-20T20:17Z", .instant(utc(1969, 7, 20, 20, 17))),
    ])
    func startTimes(text: String, expected: StartTime) {
        #expect(StartTime(text.utf8) == expected)
    }

    @Test(arguments: [
        "", "2025", "2025-12", "2025-1-01", "2025-12-1", "25-12-01", "2025/12/01", "2025-13-01", "2025-00-10",
        "2025-02-29", "2023-04-31", "2025-12-00", "2025-12-01T", "2025-12-01T9:00", "2025-12-01T24:00",
        "2025-12-01T09:60", "2025-12-01T09:00:00", "2025-12-01 09:00", "2025-12-01Z", "2025-12-01T09:00+1",
        "2025-12-01T09:00+01", "2025-12-01T09:00+0100", "2025-12-01T09:00+19:00", "2025-12-01T09:00Z+01:00",
        "2025-12-01T09:00ZZ", "+2025-12-01", "２０２５-12-01",
    ])
    func badStartTimes(text: String) {
        #expect(StartTime(text.utf8) == nil)
    }

    @Test func nowMayHaveSeconds() {
        #expect(StartTime("2025-12-01T09:00:30Z".utf8, seconds: true) == .instant(utc(2025, 12, 1, 9, 0, 30)))
        #expect(StartTime("2025-12-01T09:00:30".utf8, seconds: true) == .local(utc(2025, 12, 1, 9, 0, 30)))
        #expect(StartTime("2025-12-01T09:00:60Z".utf8, seconds: true) == nil)
    }

    @Test(arguments: [
        ("1m", 60 as Int64), ("90m", 5400), ("12h", 43200), ("1d", 86400), ("7d", 604_800), ("2w", 1_209_600),
        ("052w", 31_449_600), ("524160m", 31_449_600), ("8736h", 31_449_600), ("364d", 31_449_600),
    ])
    func periods(text: String, seconds: Int64) throws {
        #expect(try #require(PagePeriod(text.utf8)).seconds == seconds)
    }

    @Test(arguments: ["", "d", "0d", "0m", "1", "1y", "1D", "1M", "1.5h", "-1d", "+1d", " 1d", "1 d", "53w", "365d", "8737h", "524161m", "99999999999999999999d"])
    func badPeriods(text: String) {
        #expect(PagePeriod(text.utf8) == nil)
    }

    @Test func daysAndWeeksAreCalendarTimeMinutesAndHoursElapsed() throws {
        #expect(try #require(PagePeriod("1d".utf8)).isCalendarDays)
        #expect(try #require(PagePeriod("1w".utf8)).isCalendarDays)
        #expect(try #require(PagePeriod("24h".utf8)).isCalendarDays == false)
        #expect(try #require(PagePeriod("1440m".utf8)).isCalendarDays == false)
    }
}
