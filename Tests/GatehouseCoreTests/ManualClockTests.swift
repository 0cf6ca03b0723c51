import Foundation
import GatehouseCore
import Testing

/// Sleeps on the manual clock end when the test moves time, not when real time passes.
@Suite struct ManualClockTests {
    @Test func aSleepEndsWhenTimeReachesItsDeadline() async throws {
        let clock = ManualClock()
        let start = clock.now
        let woke = Task { try await clock.sleep(for: 10); return clock.now }
        await clock.waitForSleepers()
        clock.advance(by: 9)
        #expect(clock.sleepers == 1)
        clock.advance(by: 1)
        #expect(try await woke.value == start.addingTimeInterval(10))
        #expect(clock.sleepers == 0)
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        let clock = ManualClock()
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: -5)
        #expect(clock.sleepers == 0)
    }

    @Test func settingTheTimeWakesEverySleeperItPasses() async throws {
        let clock = ManualClock()
        let start = clock.now
        let near = Task { try await clock.sleep(for: 1) }
        let far = Task { try await clock.sleep(for: 100) }
        await clock.waitForSleepers(2)
        clock.set(start.addingTimeInterval(50))
        try await near.value
        #expect(clock.sleepers == 1)
        far.cancel()
        await #expect(throws: CancellationError.self) { try await far.value }
        #expect(clock.sleepers == 0)
    }

    @Test func aCancelledTaskDoesNotSleep() async throws {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: 5)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleepers == 0)
    }

    @Test func theSystemClockSleepsRealTimeAndStopsOnCancellation() async throws {
        let clock = SystemClock()
        let before = Date()
        try await clock.sleep(for: 0.05)
        #expect(Date().timeIntervalSince(before) >= 0.05)
        let long = Task { try await clock.sleep(for: 3600) }
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }
}
