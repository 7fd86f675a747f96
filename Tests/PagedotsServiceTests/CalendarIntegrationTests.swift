import Testing
import TestSupport

/// Calendar pages through the real binary, its clock fixed with `--now`
/// (docs/parameters.md, "Calendar pages").
@Suite struct CalendarIntegrationTests {
    /// Seven daily pages from 09:00 on 1 March 2025, Berlin time (08:00 UTC).
    static let campaign = "/indicator?pages=7&start=2025-03-01T09:00&every=1d&tz=Europe/Berlin"

    /// The answer to `target` from a server whose clock says `now`.
    static func answer(_ target: String, at now: String, headers: [String] = []) throws -> TestResponse {
        let server = try ServerProcess(["--now", now])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request(target, headers: headers)
        return try client.readResponse()
    }

    @Test("max-age runs to the next change, to the second")
    func maxAgeToTheNextChange() throws {
        let server = try ServerProcess(["--now", "2025-03-03T10:00:07Z"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request(Self.campaign)
        let third = try client.readResponse()
        #expect(third.status == 200)
        // Page 2 lasts until 4 March 09:00 Berlin time, 08:00 UTC: 22 hours less 7 seconds.
        #expect(third.header("cache-control") == "public, max-age=79193")
        #expect(third.header("x-current-page") == "2")
        // The image is that of current=2: one ETag, one cache entry, drawn once.
        client.request("/indicator?pages=7&current=2")
        let written = try client.readResponse()
        #expect(written.header("etag") == third.header("etag") && written.body == third.body)
        #expect(written.header("cache-control") == "public, max-age=31536000, immutable")
        #expect(written.header("x-current-page") == nil)
        // Asked again: answered from the cache, its max-age worked out again; a 304 says the same.
        client.request(Self.campaign, headers: ["If-None-Match: \(third.header("etag") ?? "")"])
        let revalidated = try client.readResponse()
        #expect(revalidated.status == 304)
        #expect(revalidated.header("cache-control") == "public, max-age=79193")
        client.request(Self.campaign, method: "HEAD")
        let head = try client.readResponse(bodyless: true)
        #expect(head.header("cache-control") == "public, max-age=79193" && head.header("content-length") == third.header("content-length"))
        let metrics = try MetricsSnapshot(client: client)
        #expect(metrics["pagedots_render_duration_seconds_count"] == 1)
        #expect(metrics["pagedots_cache_hits_total"] == 3)
    }

    @Test("Before the start: page 0, kept until the start")
    func beforeTheStart() throws {
        let early = try Self.answer(Self.campaign, at: "2025-02-28T08:00:00Z")
        #expect(early.header("x-current-page") == "0")
        #expect(early.header("cache-control") == "public, max-age=86400")
        let justBefore = try Self.answer(Self.campaign, at: "2025-03-01T07:59:59Z")
        #expect(justBefore.header("cache-control") == "public, max-age=1")
        let atTheStart = try Self.answer(Self.campaign, at: "2025-03-01T08:00:00Z")
        #expect(atTheStart.header("x-current-page") == "0" && atTheStart.header("cache-control") == "public, max-age=86400")
    }

    @Test("From the last page on: a year and immutable")
    func afterTheEnd() throws {
        // The last page begins on 7 March, 09:00 Berlin time.
        let last = try Self.answer(Self.campaign, at: "2025-03-07T08:00:00Z")
        #expect(last.header("x-current-page") == "6")
        #expect(last.header("cache-control") == "public, max-age=31536000, immutable")
        let before = try Self.answer(Self.campaign, at: "2025-03-07T07:59:30Z")
        #expect(before.header("x-current-page") == "5" && before.header("cache-control") == "public, max-age=30")
        let later = try Self.answer(Self.campaign, at: "2026-01-01T00:00:00Z")
        #expect(later.header("x-current-page") == "6" && later.header("etag") == last.header("etag"))
    }

    @Test("Across the change to summer time a day lasts 23 hours; minutes are elapsed time")
    func daylightSaving() throws {
        let days = "/indicator?pages=5&start=2025-03-28&every=1d&tz=Europe/Berlin"
        // 30 March is 23 hours long in Berlin: from 23:00 UTC the day before to 22:00 UTC; at noon (10:00 UTC), 12 hours are left.
        let sunday = try Self.answer(days, at: "2025-03-30T12:00:00+02:00")
        #expect(sunday.header("x-current-page") == "2" && sunday.header("cache-control") == "public, max-age=43200")
        let minutes = "/indicator.gif?pages=4&start=2025-03-30T01:30%2B01:00&every=90m&tz=Europe/Berlin"
        let moving = try Self.answer(minutes, at: "2025-03-30T03:05:00Z")
        #expect(moving.header("x-current-page") == "1" && moving.header("cache-control") == "public, max-age=1500")
        #expect(moving.header("content-type") == "image/gif")
    }

    @Test("An animation starts at the computed page: the same bytes as with current given")
    func animationsStartThere() throws {
        let server = try ServerProcess(["--now", "2025-03-05T12:00:00Z"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/indicator@2x.gif?pages=7&style=pill&start=2025-03-01&every=1d")
        let computed = try client.readResponse()
        client.request("/indicator@2x.gif?pages=7&style=pill&current=4")
        let given = try client.readResponse()
        #expect(computed.status == 200 && computed.header("x-current-page") == "4")
        #expect(computed.body == given.body)
    }

    @Test("Calendar mistakes are 400s that are not cached")
    func refusals() throws {
        let server = try ServerProcess(["--now", "2025-03-05T12:00:00Z"])
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        for (query, start) in [
            ("pages=7&current=1&start=2025-03-01&every=1d", "start: must not be given together with current"),
            ("pages=7&start=2025-03-01", "every: required with start"),
            ("pages=7&every=1d", "every: must be given only together with start"),
            ("pages=7&start=2025-03-01&every=1d&tz=Europe/Atlantis", "tz: must be an IANA time zone name"),
        ] {
            client.request("/indicator?" + query)
            let refused = try client.readResponse()
            #expect(refused.status == 400 && refused.text.hasPrefix(start), "\(query)")
            #expect(refused.header("cache-control") == "no-store")
        }
    }
}
