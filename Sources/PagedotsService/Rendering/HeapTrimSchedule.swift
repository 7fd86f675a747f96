/// When a render thread gives the memory it freed back to the system
/// (`RenderPool.returnFreedMemory`): after enough work that the trims take
/// at most a `costRatio`-th of the thread's time.
///
/// A trim's cost grows with the heap's free chunks (from ~0.2 ms to ~0.8 ms
/// per trim under a flood of animated misses, on a loaded machine): after
/// each small animation (~5 ms) it would cost ~15 %; so it waits until the
/// work since the last trim is `costRatio` times what that trim took. A
/// large animation (tens to hundreds of milliseconds, whose scratch is what
/// most needs giving back) is always followed by one.
struct HeapTrimSchedule {
    /// The thread spends at most about 1/`costRatio` of its time trimming.
    static let costRatio: Int64 = 20

    private var workSinceTrim: Int64 = 0
    private var lastTrimCost: Int64 = 0

    /// Records a job that took `nanoseconds`; true when the thread should trim now.
    mutating func jobDone(nanoseconds: Int64) -> Bool {
        workSinceTrim += max(0, nanoseconds)
        return workSinceTrim >= lastTrimCost * Self.costRatio
    }

    /// Records a trim that took `nanoseconds`; the count of work starts again.
    mutating func trimmed(nanoseconds: Int64) {
        lastTrimCost = max(0, nanoseconds)
        workSinceTrim = 0
    }
}
