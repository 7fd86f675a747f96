import Synchronization

/// A Prometheus histogram with fixed bucket bounds, in seconds: a counter per
/// bucket and the sum in nanoseconds, all atomic. The count is the buckets'
/// total (the last bucket takes what is above every bound), so the `+Inf`
/// bucket always equals `_count`.
final class Histogram: Sendable {
    /// From 100 µs to 10 s.
    static let latencyBounds = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let bounds: [Double]
    /// The buckets, then the sum in nanoseconds.
    private let counters: AtomicCounters

    init(bounds: [Double]) {
        self.bounds = bounds
        counters = AtomicCounters(count: bounds.count + 2)
    }

    private var sumSlot: Int { bounds.count + 1 }

    func observe(_ value: Double) {
        counters.add(1, at: bounds.firstIndex { value <= $0 } ?? bounds.count)
        counters.add(Int(exactly: (value * 1e9).rounded()) ?? 0, at: sumSlot)
    }

    func write(name: String, into text: inout String) {
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += counters.load(at: index)
            text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += counters.load(at: bounds.count)
        let sum = Double(counters.load(at: sumSlot)) / 1e9
        text += "\(name)_bucket{le=\"+Inf\"} \(cumulative)\n\(name)_sum \(sum)\n\(name)_count \(cumulative)\n"
    }
}
