import Testing
import PagedotsCore

/// Thousands of odd queries, made from a fixed seed: each parses to a
/// consistent spec or is refused with one line about a known parameter.
@Suite struct QueryRobustnessTests {
    static let names = ParameterName.allCases.map(\.rawValue) + ["", "Pages", "utm_source", "p%61ges", "%", "&", "sig"]
    static let values = [
        "", "0", "1", "2", "3", "05", "999", "-1", "+2", "1.5", "0.5", "7.", ".5", "1e3", "4096", "4097", "99999999999999999999999",
        "%", "%2", "%zz", "%ff", "%C3%BC", "%C3", "%00", "%0A", "+", ",", ",,", "a,b", "a%2Cb", "red", "RED", "#fff", "%23fff",
        "%23ff000080", "transparent", "blu", "dots", "pill", "bar", "scroll", "progress", "outline", "solid", "svg", "png",
        "ttb", "rtl", "star", "red,green,blue", "\u{00}", "\n", "ü", "=", "==",
    ]

    /// A deterministic generator (a 64-bit LCG), so every run tries the same queries.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func oddQueriesParseOrAreRefusedWithOneLine() {
        var generator = Generator(state: 2024)
        let known = Set(ParameterName.allCases.map(\.rawValue) + ["image"])
        var parsed = 0
        for _ in 0..<3000 {
            let pages = generator.next(4) == 0 ? Self.values[generator.next(Self.values.count)] : "\(1 + generator.next(12))"
            var pairs = ["pages=\(pages)"]
            for _ in 0..<generator.next(5) {
                let name = Self.names[generator.next(Self.names.count)]
                let value = Self.values[generator.next(Self.values.count)]
                pairs.insert(generator.next(5) == 0 ? name : "\(name)=\(value)", at: generator.next(pairs.count + 1))
            }
            let query = pairs.joined(separator: "&")
            do {
                let spec = try IndicatorQuery.parse(query: query[...]).spec
                parsed += 1
                #expect((1...1000).contains(spec.pages) && (0..<spec.pages).contains(spec.current), "\(query)")
                #expect(spec.labels == nil || spec.labels?.count == spec.pages, "\(query)")
            } catch {
                #expect(known.contains(error.parameter), "\(query)")
                #expect(error.description.hasPrefix(error.parameter + ":"), "\(query)")
                #expect(!error.description.contains { $0.isNewline }, "\(query)")
            }
        }
        #expect(parsed > 100)
    }
}
