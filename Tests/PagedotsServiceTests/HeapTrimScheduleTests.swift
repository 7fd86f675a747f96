import Testing
@testable import PagedotsService

/// When an animation thread gives its freed memory back: at most a
/// `costRatio`-th of its time spent trimming (times given, no clock read).
@Suite struct HeapTrimScheduleTests {
    static let millisecond: Int64 = 1_000_000

    @Test("Before any trim, the first job is followed by one")
    func firstJobTrims() {
        var schedule = HeapTrimSchedule()
        let trims = schedule.jobDone(nanoseconds: 5 * Self.millisecond)
        #expect(trims)
    }

    @Test("After a trim of 1 ms, small jobs wait until 20 ms of work have been done")
    func smallJobsShareATrim() {
        var schedule = HeapTrimSchedule()
        schedule.trimmed(nanoseconds: Self.millisecond)
        let answers = (1...5).map { _ in schedule.jobDone(nanoseconds: 5 * Self.millisecond) }
        #expect(answers == [false, false, false, true, true])
        schedule.trimmed(nanoseconds: Self.millisecond)
        let trimsAgain = schedule.jobDone(nanoseconds: 5 * Self.millisecond)
        #expect(!trimsAgain)
    }

    @Test("A large job is always followed by a trim")
    func largeJobTrims() {
        var schedule = HeapTrimSchedule()
        schedule.trimmed(nanoseconds: Self.millisecond)
        let trims = schedule.jobDone(nanoseconds: 300 * Self.millisecond)
        #expect(trims)
    }

    @Test("The trims' share of the time stays within 1/costRatio", arguments: [1, 3, 7, 19, 20, 45, 400])
    func trimmingTakesABoundedShare(jobMilliseconds: Int64) {
        var schedule = HeapTrimSchedule()
        let trimCost = Self.millisecond
        var work: Int64 = 0
        var trimming: Int64 = 0
        for _ in 0..<1000 {
            work += jobMilliseconds * Self.millisecond
            if schedule.jobDone(nanoseconds: jobMilliseconds * Self.millisecond) {
                trimming += trimCost
                schedule.trimmed(nanoseconds: trimCost)
            }
        }
        // The first trim comes before any count: one trim's cost beyond the share.
        #expect(trimming <= work / HeapTrimSchedule.costRatio + trimCost)
    }
}
