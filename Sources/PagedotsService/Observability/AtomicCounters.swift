import Glibc
import Synchronization

/// A fixed number of atomic counters, for metrics recorded from many threads.
///
/// Each counter has a lane per core or so, each lane on cache lines of its
/// own, and a thread adds to its own lane (`ThreadLane`): the event loops
/// count every response, and one shared atomic would bounce its cache line
/// between their cores on every one. A read sums the lanes.
/// (`@unchecked`: the pointer never changes and every access is atomic.)
final class AtomicCounters: @unchecked Sendable {
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int
    /// Counters from one lane's first to the next's: `count` rounded up to whole cache lines.
    private let laneStride: Int
    private let laneMask: Int

    /// Lanes: the cores rounded up to a power of two, at most 8.
    private static let lanes: Int = {
        let cores = max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        var lanes = 1
        while lanes < cores { lanes *= 2 }
        return lanes
    }()

    private static let cacheLineBytes = 64

    /// `count` counters at 0.
    init(count: Int) {
        self.count = count
        let perLine = Self.cacheLineBytes / MemoryLayout<Atomic<Int>>.stride
        laneStride = (count + perLine - 1) / perLine * perLine
        laneMask = Self.lanes - 1
        let total = laneStride * Self.lanes
        counters = UnsafeMutableRawPointer
            .allocate(byteCount: total * MemoryLayout<Atomic<Int>>.stride, alignment: Self.cacheLineBytes)
            .bindMemory(to: Atomic<Int>.self, capacity: total)
        for index in 0..<total { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: laneStride * (laneMask + 1))
        counters.deallocate()
    }

    func add(_ value: Int, at index: Int) {
        counters[(ThreadLane.current & laneMask) * laneStride + index].wrappingAdd(value, ordering: .relaxed)
    }

    /// The counter's value: the sum of its lanes.
    func load(at index: Int) -> Int {
        (0...laneMask).reduce(0) { $0 &+ counters[$1 * laneStride + index].load(ordering: .relaxed) }
    }
}

/// The calling thread's lane in `AtomicCounters`: threads take lanes in
/// turn, at their first count, so that the event loops (which count first
/// and most) get lanes of their own.
enum ThreadLane {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let taken = Atomic<Int>(0)

    static var current: Int {
        // Stored plus one: a thread without a lane reads nil.
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) - 1 }
        let lane = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: lane + 1))
        return lane
    }
}
