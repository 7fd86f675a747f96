import Dispatch
import Testing
@testable import PagedotsService

@Suite struct MetricsTests {
    /// The exposition's lines that start with `prefix`.
    static func lines(_ metrics: Metrics, _ prefix: String) -> [Substring] {
        metrics.exposition(cache: ImageCache.Usage(), renderQueueDepth: 0)
            .split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test func countsResponsesByRouteAndStatusInOrder() {
        let metrics = Metrics(version: "test")
        for _ in 0..<3 { metrics.responseSent(label: Route.indicator.rawValue, status: 200, seconds: 0.001) }
        metrics.responseSent(label: Route.indicator.rawValue, status: 304, seconds: 0.001)
        metrics.responseSent(label: Route.healthz.rawValue, status: 200, seconds: 0.001)
        metrics.responseSent(label: 0, status: 408, seconds: 10)
        metrics.responseSent(label: 99, status: 200, seconds: 0.001)
        #expect(Self.lines(metrics, "pagedots_requests_total{") == [
            #"pagedots_requests_total{route="other",status="200"} 1"#,
            #"pagedots_requests_total{route="other",status="408"} 1"#,
            #"pagedots_requests_total{route="indicator",status="200"} 3"#,
            #"pagedots_requests_total{route="indicator",status="304"} 1"#,
            #"pagedots_requests_total{route="healthz",status="200"} 1"#,
        ])
    }

    /// Each thread adds to a lane of its own; a read sums every lane.
    @Test func countsFromManyThreadsAllAddUp() {
        let counters = AtomicCounters(count: 3)
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for _ in 0..<1000 { counters.add(1, at: 1) }
            counters.add(thread, at: 2)
        }
        #expect(counters.load(at: 0) == 0)
        #expect(counters.load(at: 1) == 16000)
        #expect(counters.load(at: 2) == (0..<16).reduce(0, +))
    }

    @Test func histogramBucketsAreCumulativeAndEndInTheCount() {
        let metrics = Metrics(version: "test")
        for seconds in [0.00005, 0.0001, 0.0003, 0.7, 11, 30] {
            metrics.responseSent(label: Route.indicator.rawValue, status: 200, seconds: seconds)
        }
        let lines = Self.lines(metrics, "pagedots_request_duration_seconds")
        #expect(lines.contains(#"pagedots_request_duration_seconds_bucket{le="0.0001"} 2"#))
        #expect(lines.contains(#"pagedots_request_duration_seconds_bucket{le="0.0005"} 3"#))
        #expect(lines.contains(#"pagedots_request_duration_seconds_bucket{le="1.0"} 4"#))
        #expect(lines.contains(#"pagedots_request_duration_seconds_bucket{le="10.0"} 4"#))
        #expect(lines.contains(#"pagedots_request_duration_seconds_bucket{le="+Inf"} 6"#))
        #expect(lines.contains("pagedots_request_duration_seconds_count 6"))
        let sum = lines.first { $0.hasPrefix("pagedots_request_duration_seconds_sum ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
        #expect(sum.map { abs($0 - 41.70045) < 1e-9 } == true)
    }

    @Test("Log lines an output could not take are counted")
    func logLinesDropped() {
        let metrics = Metrics(version: "test")
        #expect(Self.lines(metrics, "pagedots_log_lines_dropped_total") == ["pagedots_log_lines_dropped_total 0"])
        for _ in 0..<3 { metrics.recordLogLineDropped() }
        #expect(Self.lines(metrics, "pagedots_log_lines_dropped_total") == ["pagedots_log_lines_dropped_total 3"])
        #expect(Self.lines(metrics, "# TYPE pagedots_log_lines_dropped_total") == ["# TYPE pagedots_log_lines_dropped_total counter"])
    }

    @Test func recordingFromManyThreadsLosesNothing() async {
        let metrics = Metrics(version: "test")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 { metrics.responseSent(label: Route.indicator.rawValue, status: 200, seconds: 0.002) }
                }
            }
        }
        #expect(Self.lines(metrics, "pagedots_requests_total{") == [#"pagedots_requests_total{route="indicator",status="200"} 8000"#])
        #expect(Self.lines(metrics, "pagedots_request_duration_seconds_count") == ["pagedots_request_duration_seconds_count 8000"])
    }
}
