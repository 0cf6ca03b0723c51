import Foundation
@testable import GatehouseDatabase
import Testing

/// The bounded pool both drivers lend their connections from.
@Suite struct ConnectionPoolTests {
    private final class FakeConnection {
        let number: Int
        var usable = true
        var closed = false
        init(number: Int) { self.number = number }
    }

    /// Counts opens and can be told to fail, guarded by a lock since pools open on any thread.
    private final class Opener: @unchecked Sendable {
        private let lock = NSLock()
        private var opened = 0
        var failing = false
        var count: Int { lock.withLock { opened } }
        func open() throws -> FakeConnection {
            try lock.withLock {
                if failing { throw DatabaseError(kind: .connection, code: "test", message: "down") }
                opened += 1
                return FakeConnection(number: opened)
            }
        }
    }

    private func makePool(_ opener: Opener, capacity: Int) -> ConnectionPool<FakeConnection> {
        ConnectionPool(capacity: capacity, open: opener.open, isUsable: { $0.usable }, discard: { $0.closed = true })
    }

    /// A checkout on a thread of its own: `got` is signalled once it has returned, with the
    /// connection in `borrowed`.
    private func borrowOnAnotherThread(_ pool: ConnectionPool<FakeConnection>) -> (got: DispatchSemaphore, borrowed: LockedBox<FakeConnection?>) {
        let got = DispatchSemaphore(value: 0)
        let borrowed = LockedBox<FakeConnection?>(nil)
        Thread {
            borrowed.set(try? pool.checkout())
            got.signal()
        }.start()
        return (got, borrowed)
    }

    @Test func opensLazilyAndReusesIdleConnections() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 3)
        #expect(opener.count == 0)
        let first = try pool.checkout()
        pool.checkin(first)
        let again = try pool.checkout()
        #expect(again === first)
        #expect(opener.count == 1)
    }

    @Test func checkoutBlocksAtCapacityUntilACheckin() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 2)
        let a = try pool.checkout()
        _ = try pool.checkout()
        let (got, borrowed) = borrowOnAnotherThread(pool)
        #expect(got.wait(timeout: .now() + 0.2) == .timedOut)
        pool.checkin(a)
        #expect(got.wait(timeout: .now() + 5) == .success)
        #expect(borrowed.get() === a)
        #expect(opener.count == 2)
    }

    @Test func anIdleConnectionGoesToAWaiterBeforeACallerThatWillNotWait() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 1)
        let a = try pool.checkout()
        #expect(try pool.withIdleConnection { _ in true } == nil)
        let (got, borrowed) = borrowOnAnotherThread(pool)
        #expect(got.wait(timeout: .now() + 0.2) == .timedOut)
        pool.checkin(a)
        // Whether or not the waiter has woken yet, the connection is its.
        #expect(try pool.withIdleConnection { _ in true } == nil)
        #expect(got.wait(timeout: .now() + 5) == .success)
        #expect(borrowed.get() === a)
        pool.checkin(a)
        #expect(try pool.withIdleConnection { $0 === a } == true)
    }

    @Test func unusableAndDiscardedConnectionsAreReplaced() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 1)
        let first = try pool.checkout()
        pool.checkin(first, keep: false)
        #expect(first.closed)
        let second = try pool.checkout()
        second.usable = false
        pool.checkin(second)
        let third = try pool.checkout()
        #expect(second.closed)
        #expect(third.number == 3)
        let fourth = try pool.replace(third)
        #expect(third.closed && fourth.number == 4)
    }

    @Test func failedOpenGivesItsSlotBack() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 1)
        opener.failing = true
        #expect(throws: DatabaseError.self) { try pool.checkout() }
        opener.failing = false
        // Had the failure kept the only slot, this would block forever.
        #expect(try pool.checkout().number == 1)
    }

    @Test func closeClosesIdleNowAndBorrowedOnReturn() throws {
        let opener = Opener()
        let pool = makePool(opener, capacity: 2)
        let idle = try pool.checkout()
        let borrowed = try pool.checkout()
        pool.checkin(idle)
        pool.close()
        #expect(idle.closed)
        #expect(!borrowed.closed)
        pool.checkin(borrowed)
        #expect(borrowed.closed)
        #expect((try? pool.checkout()) == nil)
    }

    @Test func threadPoolRunsBlockedWorkSideBySide() {
        // Every item waits for all the others to start: with fewer threads than items
        // (GCD's CPU-sized pool on Linux) this would time out.
        let pool = BlockingThreadPool(name: "test", maxThreads: 16)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<16 {
            finished.enter()
            pool.run {
                started.signal()
                release.wait()
                finished.leave()
            }
        }
        var allStarted = true
        for _ in 0..<16 where started.wait(timeout: .now() + 5) == .timedOut {
            allStarted = false
        }
        #expect(allStarted)
        for _ in 0..<16 { release.signal() }
        #expect(finished.wait(timeout: .now() + 5) == .success)
    }
}

/// A value shared with another thread in a test.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
