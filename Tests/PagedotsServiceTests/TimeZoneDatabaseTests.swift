import PagedotsCore
@testable import PagedotsService
import Testing

/// The system's tzdata as the service reads it: only the names tzdata.zi lists.
@Suite struct TimeZoneDatabaseTests {
    let database = TimeZoneDatabase(directory: "/usr/share/zoneinfo")

    @Test func zonesAndLinksInAnyCase() throws {
        #expect(database.nameCount > 500)
        let berlin = try #require(database.zone(named: "Europe/Berlin"))
        #expect(berlin.name == "Europe/Berlin")
        // 2025-07-01T00:00Z: summer time.
        #expect(berlin.offset(at: 1_751_328_000) == 7200)
        #expect(database.zone(named: "europe/BERLIN")?.name == "Europe/Berlin")
        // A link (backward names) is a name too.
        #expect(database.zone(named: "Asia/Calcutta")?.offset(at: 1_751_328_000) == 19800)
        #expect(database.zone(named: "UTC") == .utc && database.zone(named: "utc") == .utc)
        #expect(database.zone(named: "Etc/GMT-14")?.offset(at: 0) == 14 * 3600)
    }

    @Test(arguments: [
        "", "Mars/Olympus", "../../etc/passwd", "/usr/share/zoneinfo/Europe/Berlin", "posix/Europe/Berlin",
        "right/Europe/Berlin", "zone.tab", "tzdata.zi", "localtime", "posixrules", "Europe", "Europe/Berlin/",
    ])
    func onlyListedNames(name: String) {
        #expect(database.zone(named: name) == nil)
    }

    @Test func withoutADatabaseOnlyUTC() {
        let missing = TimeZoneDatabase(directory: "/nonexistent")
        #expect(missing.nameCount == 0)
        #expect(missing.zone(named: "Europe/Berlin") == nil)
        #expect(missing.zone(named: "UTC") == .utc)
    }
}
