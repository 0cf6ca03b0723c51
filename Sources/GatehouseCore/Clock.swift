import Foundation

/// Tells the time, and waits for it. Engines read it instead of calling `Date()`, and sleep
/// through it instead of `Task.sleep`, so a test's manual clock decides when a deadline,
/// a lease or a poll comes round.
public protocol Clock: Sendable {
    var now: Date { get }
    /// Returns once `now` has reached `deadline` (at once if it has); throws
    /// `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension Clock {
    /// Sleeps `seconds` of this clock's time.
    public func sleep(for seconds: TimeInterval) async throws {
        try await sleep(until: now.addingTimeInterval(seconds))
    }
}

/// The wall clock.
public struct SystemClock: Clock {
    public init() {}
    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000)) } else { try Task.checkCancellation() }
    }
}

// Safe: `current`, `sleeping`, `watchers` and `nextSleeper` are only touched under `lock`.
/// A clock that moves only when told; tests cross expiry windows without sleeping. A sleep
/// on it ends when `advance` or `set` reaches its deadline (or its task is cancelled), and
/// `sleepers` lets a test wait until the code under test is asleep before moving time.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var sleeping: [UInt64: (deadline: Date, wake: CheckedContinuation<Void, any Error>)] = [:]
    private var watchers: [(count: Int, wake: CheckedContinuation<Void, Never>)] = []
    private var nextSleeper: UInt64 = 0

    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = start
    }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        move { $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        move { _ in date }
    }

    /// How many sleeps are waiting for this clock now.
    public var sleepers: Int { lock.withLock { sleeping.count } }

    /// Returns once at least `count` sleeps wait for this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if sleeping.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    public func sleep(until deadline: Date) async throws {
        let id = lock.withLock { () -> UInt64 in
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (due, cancelled, watching) = lock.withLock { () -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (false, true, []) }
                    if deadline <= current { return (true, false, []) }
                    sleeping[id] = (deadline, continuation)
                    return (false, false, readyWatchers())
                }
                for watcher in watching { watcher.resume() }
                if due { continuation.resume() } else if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            lock.withLock { sleeping.removeValue(forKey: id) }?.wake.resume(throwing: CancellationError())
        }
    }

    private func move(_ change: (Date) -> Date) {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = change(current)
            let due = sleeping.filter { $0.value.deadline <= current }
            for id in due.keys { sleeping[id] = nil }
            return due.values.map(\.wake)
        }
        for sleeper in woken { sleeper.resume() }
    }

    /// The watchers whose count is reached, removed (called under `lock`).
    private func readyWatchers() -> [CheckedContinuation<Void, Never>] {
        let ready = watchers.filter { $0.count <= sleeping.count }
        watchers.removeAll { $0.count <= sleeping.count }
        return ready.map(\.wake)
    }
}
