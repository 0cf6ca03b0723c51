import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehousePostgres
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// Starts lock the number, not the application: on PostgreSQL, from two database handles
/// (two nodes), a start for another number of the same application completes while a
/// start's transaction is held open, and a start for the same number waits for it and
/// leaves exactly one live verification.
@Suite struct StartLockingTests {
    // Numbers no other test uses: test schemas share one server, and with sequential ids
    // their applications share ids, so the same number would share the advisory lock.
    static let held = "447400198761"
    static let other = "447400198762"

    @Test(.enabled(if: TestDatabaseKind.available.contains(.postgres)), .timeLimit(.minutes(1)))
    func startsOfOneApplicationWaitOnlyForTheirOwnNumber() async throws {
        let harness = try await EngineHarness(.postgres)
        defer { harness.close() }
        // Volume limits and a fee, so the counters and the balance are on the path too.
        let caller = try await harness.caller { $0.cooldownSeconds = 0; $0.dailyLimit = .some(100); $0.monthlyLimit = .some(1000) }
        let node2Database = try PostgresDatabase(url: harness.store.url, poolSize: 2)
        defer { node2Database.close() }
        var environment = harness.engine.environment
        environment.database = node2Database
        let node2 = VerificationEngine(environment: environment, delivery: harness.delivery)

        let transaction = HeldTransaction()
        let valid = try ValidStart.validate(StartRequest(destination: Self.held, deliveryMethod: "sms"))
        let now = harness.clock.now
        transaction.run(on: harness.store.database) { db in
            _ = try harness.engine.create(
                db, caller: caller, valid: valid, decision: nil, id: "held-start", code: "123456", fee: caller.application.fee(for: .sms),
                now: now)
        }
        await transaction.opened.wait()

        let other = try await node2.start(StartRequest(destination: Self.other, deliveryMethod: "sms"), caller: caller)
        #expect(other.status(at: now) == .pending)
        #expect(!transaction.finished.isSignalled, "the other number's start completed while the first transaction was open")

        async let same = node2.start(StartRequest(destination: Self.held, deliveryMethod: "sms"), caller: caller)
        #expect(try await waiters(on: Self.held, caller: caller, harness: harness) >= 1)
        #expect(!transaction.finished.isSignalled)
        transaction.release()
        await transaction.finished.wait()
        #expect(transaction.failure == nil)
        let second = try await same
        let live: Int = try await harness.store.database.read { db in
            try db.queryOne(
                "SELECT COUNT(*) AS n FROM verifications WHERE application_id = ? AND destination = ? AND status = 'pending'",
                caller.application.id, Self.held)!.get("n")
        }
        #expect(live == 1)
        #expect(try await harness.engine.verification(.id("held-start"), caller: caller).outcome(at: now) == .superseded)
        #expect(try await harness.engine.verification(.number(Self.held), caller: caller).id == second.id)
    }

    /// Transactions waiting for the number's advisory lock, once one is. PostgreSQL has no
    /// event for "a backend began to wait", so this asks `pg_locks`, for at most 30 seconds
    /// (a start that never waits fails the test instead of hanging it).
    private func waiters(on destination: String, caller: VerificationCaller, harness: EngineHarness) async throws -> Int {
        let key = UInt64(bitPattern: VerificationEngine.advisoryKey("verification-number", caller.application.id, destination))
        let (high, low) = (String(key >> 32), String(key & 0xffff_ffff))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let waiting: Int = try await harness.store.database.read { db in
                try db.queryOne(
                    "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid::text = ? AND objid::text = ?",
                    high, low)!.get("n")
            }
            if waiting > 0 { return waiting }
        }
        return 0
    }
}

/// A write transaction on a thread of its own, held open after its body until `release()`.
final class HeldTransaction: @unchecked Sendable {
    let opened = Latch()
    let finished = Latch()
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var error: (any Error)?

    var failure: (any Error)? { lock.withLock { error } }

    func run(on database: any Database, _ body: @escaping (any DatabaseConnection) throws -> Void) {
        Thread.detachNewThread { [self] in
            do {
                try database.writeBlocking { db in
                    try body(db)
                    opened.signal()
                    _ = gate.wait(timeout: .now() + 30)
                }
            } catch {
                lock.withLock { self.error = error }
                opened.signal()
            }
            finished.signal()
        }
    }

    func release() { gate.signal() }
}
