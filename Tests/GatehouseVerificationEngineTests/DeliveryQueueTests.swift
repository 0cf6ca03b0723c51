import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// The durable delivery queue: a start leaves a row, a dispatcher claims it for a lease and
/// delivers it; a claim whose node died falls due again, on a manual clock.
@Suite struct DeliveryQueueTests {
    static let mobile = "447400123456"

    @Test(arguments: TestDatabaseKind.available)
    func aStartQueuesItsDeliveryAndTheDispatcherSendsIt(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let record = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        #expect(record.dispatchedAt == nil)
        #expect(try await queued(harness) == 1)
        #expect(harness.delivery.messages.isEmpty)
        // Until the dispatcher has handed the code over, a report cannot be judged.
        await #expect(throws: VerificationFailure(.notReadyToReport)) {
            try await harness.engine.report(.id(record.id), method: "sms", code: "123456", caller: caller)
        }
        try await harness.dispatcher.drain()
        #expect(try await queued(harness) == 0)
        #expect(harness.delivery.messages.map(\.to) == [Self.mobile])
        #expect(try await harness.engine.verification(.id(record.id), caller: caller).dispatchedAt != nil)
    }

    /// A dispatcher that claimed a delivery and died: the row waits out the lease, then any
    /// dispatcher takes it; past `deliveryAttempts` claims the verification fails.
    @Test(arguments: TestDatabaseKind.available)
    func aClaimWhoseNodeDiedIsRetriedAfterTheLease(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let record = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        #expect(try await harness.engine.claimDeliveries(limit: 10).jobs.map(\.record.id) == [record.id])
        try await harness.dispatcher.drain()
        #expect(harness.delivery.messages.isEmpty, "the row is leased to the dead node")
        harness.clock.advance(by: harness.engine.settings.dispatchRetryAfter)
        try await harness.dispatcher.drain()
        #expect(harness.delivery.messages.count == 1)
        #expect(try await harness.engine.verification(.id(record.id), caller: caller).dispatchedAt != nil)

        let second = try await harness.engine.start(StartRequest(destination: "447400123457", deliveryMethod: "sms"), caller: caller)
        for _ in 0..<harness.engine.settings.deliveryAttempts {
            #expect(try await harness.engine.claimDeliveries(limit: 10).jobs.count == 1)
            harness.clock.advance(by: harness.engine.settings.dispatchRetryAfter)
        }
        try await harness.dispatcher.drain()
        let failed = try await harness.engine.verification(.id(second.id), caller: caller)
        #expect(failed.status(at: harness.clock.now) == .failed && failed.outcome(at: harness.clock.now) == .failedToDeliver)
        #expect(harness.delivery.messages.count == 1)
        #expect(try await queued(harness) == 0)
    }

    /// A provider that never answers is given up at the deadline, before the lease ends: the
    /// verification fails as undeliverable, and the code is not claimed again and sent twice
    /// while the first send still runs.
    @Test(.timeLimit(.minutes(1)), arguments: TestDatabaseKind.available)
    func aSendPastItsDeadlineIsGivenUpBeforeItsLeaseEnds(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.deliveryDeadline = 0.2
        let provider = StallingDelivery()
        let harness = try await EngineHarness(kind, settings: settings, provider: provider)
        defer { harness.close() }
        let caller = try await harness.caller()
        let record = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        try await harness.dispatcher.drain()
        await provider.untilCancelled()
        let failed = try await harness.engine.verification(.id(record.id), caller: caller)
        #expect(failed.outcome(at: harness.clock.now) == .failedToDeliver)
        #expect(try await queued(harness) == 0)
        harness.clock.advance(by: harness.engine.settings.dispatchRetryAfter)
        try await harness.dispatcher.drain()
        #expect(provider.sends == 1)
    }

    /// Delivery is at least once: a code claimed again after its lease goes out with the
    /// message id of its first try (not the verification id), and the outbox keeps it once.
    @Test(arguments: TestDatabaseKind.available)
    func aCodeSentAgainCarriesTheSameMessageID(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller()
        let record = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        let first = try #require(try await harness.engine.claimDeliveries(limit: 10).jobs.first)
        harness.clock.advance(by: harness.engine.settings.dispatchRetryAfter)
        let again = try #require(try await harness.engine.claimDeliveries(limit: 10).jobs.first)
        let sent = [first, again].map { harness.engine.render($0.record, code: $0.code, appHash: $0.appHash) }
        #expect(sent[0].id == sent[1].id && sent[0].id != record.id && sent[0].body == sent[1].body)
        let outbox = DevelopmentOutbox(database: harness.store.database)
        for message in sent { try await outbox.deliver(message) }
        #expect(try await DevelopmentOutbox.messages(in: harness.store.database, to: Self.mobile).count == 1)
    }

    /// A code superseded or expired before its turn is never sent.
    @Test(arguments: TestDatabaseKind.available)
    func aCodeNoLongerLiveIsDroppedUnsent(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.cooldownSeconds = 0 }
        let first = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        let second = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        _ = try await harness.engine.start(StartRequest(destination: "447400123457", deliveryMethod: "sms"), caller: caller)
        harness.clock.advance(by: TimeInterval(caller.application.lifetimeSeconds))
        try await harness.dispatcher.drain()
        #expect(harness.delivery.messages.isEmpty)
        #expect(try await queued(harness) == 0)
        #expect(try await harness.engine.verification(.id(first.id), caller: caller).outcome(at: harness.clock.now) == .superseded)
        #expect(try await harness.engine.verification(.id(second.id), caller: caller).status(at: harness.clock.now) == .expired)
        // The sweeper leaves an expired code expired.
        try await harness.engine.sweep()
        #expect(try await harness.engine.verification(.id(second.id), caller: caller).status(at: harness.clock.now) == .expired)
    }

    /// The dispatcher's loop is woken by a start at once and stops when told.
    /// A queued code whose verification expired is not left in the clear until some
    /// dispatcher claims it: the sweep drops it, and keeps the codes still live.
    @Test(arguments: TestDatabaseKind.available)
    func theSweepDropsCodesNoLongerLive(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.cooldownSeconds = 0 }
        _ = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        try await harness.engine.sweep()
        #expect(try await queued(harness) == 1)
        harness.clock.advance(by: 3600)
        _ = try await harness.engine.start(StartRequest(destination: "447400123457", deliveryMethod: "sms"), caller: caller)
        try await harness.engine.sweep()
        #expect(try await queued(harness) == 1)
        try await harness.dispatcher.drain()
        #expect(harness.delivery.messages.map(\.to) == ["447400123457"])
    }

    @Test(arguments: TestDatabaseKind.available)
    func theRunningDispatcherIsWokenByAStart(_ kind: TestDatabaseKind) async throws {
        var settings = VerificationSettings()
        settings.deliveryPollInterval = 600
        let harness = try await EngineHarness(kind, settings: settings)
        defer { harness.close() }
        let caller = try await harness.caller()
        let worker = Task { await harness.dispatcher.run() }
        _ = try await harness.engine.start(StartRequest(destination: Self.mobile, deliveryMethod: "sms"), caller: caller)
        #expect(await harness.delivery.message(1).to == Self.mobile)
        harness.dispatcher.stop()
        await worker.value
    }

    private func queued(_ harness: EngineHarness) async throws -> Int {
        try await harness.store.database.read { db in
            try db.queryOne("SELECT COUNT(*) AS n FROM verification_deliveries", [])!.get("n")
        }
    }
}

/// Takes a message and never answers; only cancelling the send ends it.
final class StallingDelivery: MessageDelivery, @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0
    private var cancelled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    var sends: Int { lock.withLock { started } }

    func deliver(_ message: OutboundMessage) async throws {
        lock.withLock { started += 1 }
        do {
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
        } catch {
            let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                cancelled = true
                defer { waiters = [] }
                return waiters
            }
            ready.forEach { $0.resume() }
            throw error
        }
    }

    /// Returns once a send has been cancelled.
    func untilCancelled() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                if !cancelled { waiters.append(continuation) }
                return cancelled
            }
            if done { continuation.resume() }
        }
    }
}
