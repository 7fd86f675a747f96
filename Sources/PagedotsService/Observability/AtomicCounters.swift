import Synchronization

/// A fixed number of atomic counters, for metrics recorded from many threads.
/// (`@unchecked`: the pointer never changes and every access is atomic.)
final class AtomicCounters: @unchecked Sendable {
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int

    /// `count` counters at 0.
    init(count: Int) {
        self.count = count
        counters = .allocate(capacity: count)
        for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: count)
        counters.deallocate()
    }

    func add(_ value: Int, at index: Int) {
        counters[index].wrappingAdd(value, ordering: .relaxed)
    }

    func load(at index: Int) -> Int {
        counters[index].load(ordering: .relaxed)
    }
}
