import Testing
@testable import PagedotsCore

/// `start`, `every` and `tz` in a query (docs/parameters.md, "Calendar pages").
@Suite struct CalendarQueryTests {
    static func parse(_ query: String, at now: Int64) throws(ParameterError) -> IndicatorRequest {
        try IndicatorQuery.parse(query: query[...], calendar: CalendarContext(now: now, zones: SystemZones()))
    }

    static func refusal(_ query: String) -> String? {
        do {
            _ = try parse(query, at: 0)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theCurrentPageComesFromTheClock() throws {
        let query = "pages=7&start=2025-03-01T09:00&every=1d&tz=Europe/Berlin"
        let third = try Self.parse(query, at: utc(2025, 3, 3, 10))
        #expect(third.spec.current == 2)
        #expect(third.calendar == CalendarPosition(page: 2, nextChange: utc(2025, 3, 4, 8)))
        // The image is that of the page: the same spec as current=2 written out.
        #expect(try third.spec == parsedSpec("pages=7&current=2"))
        #expect(try Self.parse(query, at: utc(2025, 2, 1)).calendar == CalendarPosition(page: 0, nextChange: utc(2025, 3, 1, 8)))
        #expect(try Self.parse(query, at: utc(2026, 1, 1)).calendar == CalendarPosition(page: 6, nextChange: nil))
        // The time zone defaults to UTC; `%2F` is a slash.
        #expect(try Self.parse("pages=7&start=2025-03-01T09:00&every=1d", at: utc(2025, 3, 1, 8, 59)).spec.current == 0)
        #expect(try Self.parse("pages=7&start=2025-03-01T09:00&every=1d&tz=Europe%2FBerlin", at: utc(2025, 3, 1, 8, 59)).spec.current == 0)
        #expect(try Self.parse("pages=7&start=2025-03-01T09:00&every=1d&tz=UTC", at: utc(2025, 3, 1, 9)).spec.current == 0)
        // Without start and every, tz is validated and has no effect.
        #expect(try Self.parse("pages=7&tz=Asia/Tokyo", at: 0).calendar == nil)
    }

    @Test func perPageColorsAndAnimationsStartAtTheComputedPage() throws {
        let colors = try Self.parse("pages=3&start=2025-01-01&every=1d&colors=red,green,blue", at: utc(2025, 1, 2, 12))
        #expect(colors.spec.current == 1)
        #expect(try colors.spec == parsedSpec("pages=3&current=1&colors=red,green,blue"))
        let gif = try Self.parse("pages=3&start=2025-01-01&every=1d&format=gif", at: utc(2025, 1, 3, 12))
        #expect(gif.spec.current == 2)
        #expect(try gif.spec == parsedSpec("pages=3&current=2&format=gif"))
    }

    @Test(arguments: [
        ("pages=7&current=1&start=2025-03-01&every=1d",
         #"start: must not be given together with current (start and every choose the page); got "2025-03-01""#),
        ("pages=7&start=2025-03-01",
         "every: required with start, a whole number and a unit m, h, d or w, from 1m to 52w (90m, 12h, 1d, 2w)"),
        ("pages=7&every=1d", #"every: must be given only together with start; got "1d""#),
        ("pages=7&start=2025-02-30&every=1d",
         #"start: must be a date YYYY-MM-DD, or a date and time YYYY-MM-DDTHH:MM, optionally with an offset Z or ±HH:MM (+ sent as %2B); got "2025-02-30""#),
        ("pages=7&start=2025-03-01&every=1y",
         #"every: must be a whole number and a unit m, h, d or w, from 1m to 52w (90m, 12h, 1d, 2w); got "1y""#),
        ("pages=7&start=2025-03-01&every=53w",
         #"every: must be a whole number and a unit m, h, d or w, from 1m to 52w (90m, 12h, 1d, 2w); got "53w""#),
        ("pages=7&start=2025-03-01&every=1d&tz=Mars/Olympus",
         #"tz: must be an IANA time zone name, like Europe/Berlin or America/New_York; got "Mars/Olympus""#),
        ("pages=7&tz=../../etc/passwd",
         #"tz: must be an IANA time zone name, like Europe/Berlin or America/New_York; got "../../etc/passwd""#),
        ("pages=7&start=2025-03-01&start=2025-03-02&every=1d", "start: given more than once"),
    ])
    func refusals(query: String, message: String) {
        #expect(Self.refusal(query) == message)
    }
}
