import Foundation
import GatehouseCore
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// Volume counters and billed fees are spread over several rows, yet a limit is never
/// passed and a balance adds up exactly.
@Suite struct ShardedCountersTests {
    @Test(arguments: TestDatabaseKind.available)
    func concurrentStartsNeverPassTheDailyLimit(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        harness.clock.set(Date(timeIntervalSince1970: 1_767_268_800))  // 2026-01-01T12:00:00Z
        // Fewer slots than shards, and more: some shards hold none, some more than one.
        for limit in [3, 11] {
            let caller = try await harness.caller { $0.dailyLimit = .some(limit); $0.cooldownSeconds = 0 }
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<(limit + 9) {
                    group.addTask {
                        let number = "4474001235" + String(format: "%02d", index)
                        return await Self.startedOrRefused {
                            try await harness.engine.start(StartRequest(destination: number, deliveryMethod: "sms"), caller: caller)
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == limit)
            let counted: Int = try await harness.store.database.read { db in
                try db.queryOne(
                    "SELECT SUM(hits) AS n FROM verification_volume_shards WHERE counter_key LIKE ?", "daily:\(caller.application.id):%")!.get("n")
            }
            #expect(counted == limit)
            await #expect(throws: VerificationFailure(.volumeLimitReached, retryAfter: 43_200)) {
                try await harness.engine.start(StartRequest(destination: "447400123599", deliveryMethod: "sms"), caller: caller)
            }
        }
    }

    /// True when `start` started; false when the volume limit refused it. Anything else (a
    /// deadlock between starts racing for the last slots, say) is a failure of the test.
    static func startedOrRefused(_ start: () async throws -> VerificationRecord) async -> Bool {
        do {
            _ = try await start()
            return true
        } catch let failure as VerificationFailure where failure.codes == [.volumeLimitReached] {
            return false
        } catch {
            Issue.record("a start failed otherwise than on the limit: \(error)")
            return false
        }
    }

    @Test(arguments: TestDatabaseKind.available)
    func verifiedCodesAreBilledExactlyAcrossShards(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let caller = try await harness.caller { $0.smsFee = "0.05" }
        for index in 0..<12 {
            let (record, code) = try await harness.startAndDeliver("4474001236" + String(format: "%02d", index), caller: caller)
            _ = try await harness.engine.report(.id(record.id), method: "sms", code: code, caller: caller)
        }
        #expect(try await harness.engine.balance(tenantID: harness.tenantID) == 10_000_000 - 12 * 50_000)
        let shards: Int = try await harness.store.database.read { db in
            try db.queryOne("SELECT COUNT(*) AS n FROM verification_balance_shards", [])!.get("n")
        }
        #expect(shards > 1 && shards <= VerificationEngine.balanceShards)
        // A credit still lands on the tenant's row and returns the whole balance.
        #expect(try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: 600_000) == 10_000_000)
    }
}
