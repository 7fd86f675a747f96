@testable import HTTPServer
import Testing

@Suite("Timer lists")
struct TimerListsTests {
    private func at(_ seconds: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: UInt64(seconds * 1e9))
    }

    private func timer(_ kind: TimerKind, _ seconds: Double) -> ConnectionTimer {
        ConnectionTimer(kind: kind, deadline: at(seconds))
    }

    /// Takes every slot due at `seconds`, in order.
    private func takeAll(_ timers: inout TimerLists, at seconds: Double) -> [Int] {
        var slots: [Int] = []
        while let slot = timers.takeDue(at: at(seconds)) { slots.append(slot) }
        return slots
    }

    @Test("Deadlines come due in order, across kinds, and only when passed")
    func order() {
        var timers = TimerLists()
        timers.set(0, to: timer(.idle, 5))
        timers.set(1, to: timer(.request, 3))
        timers.set(2, to: timer(.idle, 6))
        #expect(timers.earliestDeadline == at(3))
        #expect(takeAll(&timers, at: 2.9).isEmpty)
        #expect(takeAll(&timers, at: 5) == [1, 0])
        #expect(timers.earliestDeadline == at(6))
        #expect(takeAll(&timers, at: 10) == [2])
        #expect(timers.earliestDeadline == nil)
    }

    @Test("Setting a timer again moves it; nil cancels it")
    func resetAndCancel() {
        var timers = TimerLists()
        timers.set(0, to: timer(.idle, 5))
        timers.set(1, to: timer(.idle, 6))
        timers.set(0, to: timer(.idle, 7))
        #expect(timers.earliestDeadline == at(6))
        timers.set(1, to: nil)
        #expect(timers.earliestDeadline == at(7))
        timers.set(0, to: timer(.send, 1))
        #expect(takeAll(&timers, at: 100) == [0])
    }

    @Test("A deadline earlier than its list's tail is put in its place")
    func outOfOrderInsert() {
        var timers = TimerLists()
        timers.set(0, to: timer(.request, 10))
        timers.set(1, to: timer(.request, 12))
        timers.set(2, to: timer(.request, 11))
        timers.set(3, to: timer(.request, 9))
        #expect(takeAll(&timers, at: 11) == [3, 0, 2])
        #expect(takeAll(&timers, at: 12) == [1])
    }
}
