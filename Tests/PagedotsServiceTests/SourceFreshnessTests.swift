@testable import PagedotsService
import Testing

@Suite("How long a fetched source is used as it is")
struct SourceFreshnessTests {
    @Test("max-age (less Age), else five minutes, at most a day; no-cache asks every time; no-store is not kept")
    func freshness() {
        func seconds(_ cacheControl: String?, age: String? = nil) -> Int? { SourceFreshness(cacheControl: cacheControl, age: age).seconds }
        #expect(seconds(nil) == 300)
        #expect(seconds("public") == 300)
        #expect(seconds("max-age=60") == 60)
        #expect(seconds("public, Max-Age=60, must-revalidate") == 60)
        #expect(seconds("max-age=\"90\"") == 90)
        #expect(seconds("max-age=60", age: "50") == 10)
        #expect(seconds("max-age=60", age: "500") == 0)
        #expect(seconds("max-age=999999999") == 86_400)
        #expect(seconds("max-age=banana") == 0)
        #expect(seconds("no-cache") == 0)
        #expect(seconds("max-age=60, no-cache") == 0)
        #expect(seconds("no-cache, max-age=60") == 0)
        #expect(seconds("max-age=60, no-store") == nil)
        #expect(seconds("NO-STORE") == nil)
    }
}
