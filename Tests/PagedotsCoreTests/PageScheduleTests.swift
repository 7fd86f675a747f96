import Foundation
import Testing
@testable import PagedotsCore

/// The zones of this machine's tzdata (/usr/share/zoneinfo), read as the service reads them.
struct SystemZones: TimeZoneSource {
    func zone(named name: String) -> TimeZoneRules? {
        if name == "UTC" { return .utc }
        guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else { return nil }
        return TimeZoneRules(name: name, tzif: Array(data))
    }

    static func rules(_ name: String) throws -> TimeZoneRules {
        try #require(SystemZones().zone(named: name), "tzdata's \(name)")
    }
}

/// Time zones from TZif files and POSIX rules, and which page a calendar URL shows when.
@Suite struct PageScheduleTests {
    static let berlinRule = "CET-1CEST,M3.5.0,M10.5.0/3"

    @Test func berlinOffsetsFromTheFileAndFromItsRule() throws {
        let file = try SystemZones.rules("Europe/Berlin")
        let rule = try #require(TimeZoneRules(name: "Europe/Berlin", posixRule: Self.berlinRule))
        for zone in [file, rule] {
            #expect(zone.offset(at: utc(2025, 3, 30, 0, 59, 59)) == 3600)
            #expect(zone.offset(at: utc(2025, 3, 30, 1)) == 7200)
            #expect(zone.offset(at: utc(2025, 10, 26, 0, 59, 59)) == 7200)
            #expect(zone.offset(at: utc(2025, 10, 26, 1)) == 3600)
            // Far beyond the file's listed transitions: its footer rule.
            #expect(zone.offset(at: utc(2999, 7, 1)) == 7200)
            #expect(zone.offset(at: utc(2999, 12, 1)) == 3600)
        }
        #expect(file.offset(at: utc(1900, 1, 1)) == 3600)
    }

    @Test func southernAndOddRules() throws {
        // Sydney: daylight-saving time spans the new year.
        let sydney = try #require(TimeZoneRules(name: "Australia/Sydney", posixRule: "AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.offset(at: utc(2030, 1, 15)) == 11 * 3600)
        #expect(sydney.offset(at: utc(2030, 6, 15)) == 10 * 3600)
        // Named in angle brackets, negative rule times (extension of RFC 8536).
        let greenland = try #require(TimeZoneRules(name: "America/Nuuk", posixRule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(greenland.offset(at: utc(2030, 7, 1)) == -3600)
        #expect(greenland.offset(at: utc(2030, 1, 1)) == -7200)
        let india = try #require(TimeZoneRules(name: "Asia/Kolkata", posixRule: "IST-5:30"))
        #expect(india.offset(at: utc(2030, 7, 1)) == 19800)
        // Julian days, with and without February 29.
        let julian = try #require(TimeZoneRules(name: "X", posixRule: "AAA0BBB,J60/0,300/0"))
        #expect(julian.offset(at: utc(2028, 2, 29, 12)) == 0)  // J60 is March 1 in every year
        #expect(julian.offset(at: utc(2028, 3, 1, 12)) == 3600)
        #expect(julian.offset(at: utc(2028, 10, 26, 12)) == 3600)  // day 300 of a leap year is October 27
        #expect(julian.offset(at: utc(2028, 10, 27, 12)) == 0)
        for bad in ["", "CET", "CET-1CEST,M3.5.0", "CE-1", "CET-1CEST,M13.5.0,M10.5.0", "CET-25", "<CE>-1"] {
            #expect(TimeZoneRules(name: "X", posixRule: bad) == nil, "\(bad)")
        }
    }

    @Test func notTZifIsRefused() throws {
        #expect(TimeZoneRules(name: "X", tzif: []) == nil)
        #expect(TimeZoneRules(name: "X", tzif: Array("# tzdb timezone descriptions".utf8)) == nil)
        let berlin = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
        for length in [4, 44, 100, berlin.count - 3] {
            #expect(TimeZoneRules(name: "X", tzif: Array(berlin.prefix(length))) == nil, "\(length) bytes")
        }
    }

    /// The offsets of tzdata read here agree with Foundation's (ICU's copy of the same database)
    /// for zones whose rules did not change lately, every four days from 1990 to 2050.
    @Test(arguments: [
        "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Australia/Sydney",
        "Australia/Lord_Howe", "Pacific/Auckland", "Pacific/Chatham", "Asia/Kolkata", "Asia/Kathmandu",
        "America/Sao_Paulo", "Asia/Tokyo", "America/St_Johns", "Europe/Dublin",
    ])
    func offsetsAgreeWithFoundation(name: String) throws {
        let ours = try SystemZones.rules(name)
        let theirs = try #require(TimeZone(identifier: name))
        var mismatches: [String] = []
        for instant in stride(from: utc(1990, 1, 1), to: utc(2050, 1, 1), by: 4 * 86400 + 3607) {
            let expected = theirs.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            if ours.offset(at: instant) != expected { mismatches.append(CivilTime.iso8601(instant)) }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
    }

    @Test func wallTimesInGapsAndOverlaps() throws {
        let berlin = try SystemZones.rules("Europe/Berlin")
        // Skipped by the change to summer time: as if the clocks had not changed, 03:30 CEST.
        #expect(berlin.instant(atLocal: utc(2025, 3, 30, 2, 30)) == utc(2025, 3, 30, 1, 30))
        // Shown twice by the change back: its first showing, in summer time.
        #expect(berlin.instant(atLocal: utc(2025, 10, 26, 2, 30)) == utc(2025, 10, 26, 0, 30))
        #expect(berlin.instant(atLocal: utc(2025, 10, 26, 3, 30)) == utc(2025, 10, 26, 2, 30))
        #expect(berlin.instant(atLocal: utc(2025, 7, 1, 9)) == utc(2025, 7, 1, 7))
        #expect(TimeZoneRules.utc.instant(atLocal: 12345) == 12345)
    }

    static func schedule(_ pages: Int, _ start: String, _ every: String, _ zone: String) throws -> PageSchedule {
        PageSchedule(
            pages: pages, start: try #require(StartTime(start.utf8)), period: try #require(PagePeriod(every.utf8)),
            zone: zone == "UTC" ? .utc : try SystemZones.rules(zone)
        )
    }

    @Test func daysFollowBerlinsCalendarAcrossMarch() throws {
        let days = try Self.schedule(5, "2025-03-28", "1d", "Europe/Berlin")
        let begins = (0..<5).map(days.begin(page:))
        #expect(begins == [utc(2025, 3, 27, 23), utc(2025, 3, 28, 23), utc(2025, 3, 29, 23), utc(2025, 3, 30, 22), utc(2025, 3, 31, 22)])
        // The day of the change lasts 23 hours.
        #expect(begins[3] - begins[2] == 23 * 3600)
        #expect(days.position(at: utc(2025, 3, 30, 21, 59, 59)) == CalendarPosition(page: 2, nextChange: utc(2025, 3, 30, 22)))
        #expect(days.position(at: utc(2025, 3, 30, 22)) == CalendarPosition(page: 3, nextChange: utc(2025, 3, 31, 22)))
        // Hours are elapsed time: 24h after midnight CET is 01:00 CEST.
        let hours = try Self.schedule(5, "2025-03-29", "24h", "Europe/Berlin")
        #expect(hours.begin(page: 2) - hours.begin(page: 1) == 24 * 3600)
        #expect(hours.begin(page: 2) == utc(2025, 3, 30, 23))
    }

    @Test func daysFollowBerlinsCalendarAcrossOctober() throws {
        let days = try Self.schedule(4, "2025-10-25T09:00", "1d", "Europe/Berlin")
        #expect((0..<4).map(days.begin(page:)) == [utc(2025, 10, 25, 7), utc(2025, 10, 26, 8), utc(2025, 10, 27, 8), utc(2025, 10, 28, 8)])
        let midnight = try Self.schedule(3, "2025-10-26", "1d", "Europe/Berlin")
        // The day of the change back lasts 25 hours.
        #expect(midnight.begin(page: 1) - midnight.begin(page: 0) == 25 * 3600)
        #expect(midnight.position(at: utc(2025, 10, 26, 22, 59)) == CalendarPosition(page: 0, nextChange: utc(2025, 10, 26, 23)))
        // A week is seven calendar days: 169 hours across the change.
        let week = try Self.schedule(3, "2025-10-20", "1w", "Europe/Berlin")
        #expect(week.begin(page: 1) - week.begin(page: 0) == 169 * 3600)
    }

    @Test func startWithAnOffsetKeepsItsWallTimeInTheZone() throws {
        // 09:00+01:00 is 09:00 in Berlin in winter: every day at 09:00 Berlin time, in summer too.
        let days = try Self.schedule(200, "2025-03-01T09:00+01:00", "1d", "Europe/Berlin")
        #expect(days.begin(page: 0) == utc(2025, 3, 1, 8))
        #expect(days.begin(page: 40) == utc(2025, 4, 10, 7))
        // In UTC, a day is 24 hours after the instant given.
        let inUTC = try Self.schedule(200, "2025-03-01T09:00+01:00", "1d", "UTC")
        #expect(inUTC.begin(page: 40) == utc(2025, 4, 10, 8))
    }

    @Test func acrossYears() throws {
        let advent = try Self.schedule(24, "2025-12-01", "1d", "Europe/Berlin")
        #expect(advent.position(at: utc(2025, 12, 24, 12)) == CalendarPosition(page: 23, nextChange: nil))
        let newYear = try Self.schedule(7, "2025-12-29", "1d", "America/New_York")
        #expect(newYear.position(at: utc(2026, 1, 2, 12)) == CalendarPosition(page: 4, nextChange: utc(2026, 1, 3, 5)))
        // A thousand weekly pages, fifteen years on: page by page, exactly.
        let weekly = try Self.schedule(1000, "2024-01-01T00:00", "1w", "Europe/Berlin")
        let later = utc(2039, 6, 9, 12)
        let position = weekly.position(at: later)
        #expect(weekly.begin(page: position.page) <= later && later < (position.nextChange ?? .max))
        #expect(position.page == Int((CivilTime.days(year: 2039, month: 6, day: 9) - CivilTime.days(year: 2024, month: 1, day: 1)) / 7))
        // The last of 1000 pages of 52 weeks begins a thousand years on.
        let longest = try Self.schedule(1000, "2025-01-01", "52w", "Europe/Berlin")
        #expect(longest.position(at: utc(3100, 1, 1)) == CalendarPosition(page: 999, nextChange: nil))
    }

    @Test func beforeTheStartPageZeroUntilTheStart() throws {
        let minutes = try Self.schedule(7, "2025-06-01T12:00Z", "90m", "UTC")
        #expect(minutes.position(at: utc(2025, 5, 1)) == CalendarPosition(page: 0, nextChange: utc(2025, 6, 1, 12)))
        #expect(minutes.position(at: utc(2025, 6, 1, 12)) == CalendarPosition(page: 0, nextChange: utc(2025, 6, 1, 13, 30)))
        #expect(minutes.position(at: utc(2025, 6, 1, 13, 29, 59)) == CalendarPosition(page: 0, nextChange: utc(2025, 6, 1, 13, 30)))
        #expect(minutes.position(at: utc(2025, 6, 1, 21)) == CalendarPosition(page: 6, nextChange: nil))
        #expect(minutes.position(at: utc(2025, 6, 1, 20, 59, 59)) == CalendarPosition(page: 5, nextChange: utc(2025, 6, 1, 21)))
        let one = try Self.schedule(1, "2025-06-01T12:00Z", "1d", "UTC")
        #expect(one.position(at: utc(2025, 6, 1, 11)) == CalendarPosition(page: 0, nextChange: utc(2025, 6, 1, 12)))
        #expect(one.position(at: utc(2025, 6, 1, 12)) == CalendarPosition(page: 0, nextChange: nil))
    }

    /// Every day of a year of daily pages in a zone with daylight-saving time begins at its local midnight.
    @Test func everyDayOfAYearBeginsAtMidnight() throws {
        for name in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Chatham"] {
            let zone = try SystemZones.rules(name)
            let year = try Self.schedule(366, "2028-01-01", "1d", name)
            for page in 0..<366 {
                let begin = year.begin(page: page)
                #expect((begin + Int64(zone.offset(at: begin))) % 86400 == 0, "\(name) page \(page)")
                #expect(year.position(at: begin).page == page && year.position(at: begin - 1).page == max(0, page - 1))
            }
        }
    }
}
