import Foundation
import GatehouseCore
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// Balances are exact 64-bit integers: a change that would overflow is refused with its own
/// code and leaves the balance as it was, on both databases.
@Suite struct BalanceTests {
    static let largest = Money.micros("999999999999.999999")!

    @Test(arguments: TestDatabaseKind.available)
    func aCreditThatWouldOverflowIsRefusedAndChangesNothing(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        var expected: Int64 = 10_000_000
        // Nine of the largest credits fit (about 9.0e18 of 9.22e18); the tenth does not.
        for _ in 0..<9 {
            expected += Self.largest
            #expect(try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: Self.largest) == expected)
        }
        await #expect(throws: CoreError(.amountOutOfRange, .balanceOutOfRange)) {
            try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: Self.largest)
        }
        #expect(try await harness.engine.balance(tenantID: harness.tenantID) == expected)
        // Up to the very last micro is fine.
        let rest = Int64.max - expected
        #expect(try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: rest) == Int64.max)
        await #expect(throws: CoreError.self) { try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: 1) }
        try await expectIntegerColumn(harness)
    }

    @Test(arguments: TestDatabaseKind.available)
    func aDebitThatWouldUnderflowIsRefused(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let start = try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: Int64.min + 1)
        #expect(start == Int64.min + 1 + 10_000_000)
        await #expect(throws: CoreError.self) { try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: -10_000_002) }
        #expect(try await harness.engine.adjustBalance(tenantID: harness.tenantID, byMicros: -10_000_001) == Int64.min)
        #expect(try await harness.engine.balance(tenantID: harness.tenantID) == Int64.min)
        try await expectIntegerColumn(harness)
    }

    @Test func sumsAreChecked() throws {
        #expect(try Money.sum(Int64.max - 1, 1) == Int64.max)
        #expect(throws: CoreError.self) { try Money.sum(Int64.max, 1) }
        #expect(throws: CoreError.self) { try Money.sum(Int64.min, -1) }
        #expect(Money.addableRange(5) == Int64.min...(Int64.max - 5))
        #expect(Money.addableRange(Int64.min) == 0...Int64.max)
        #expect(Money.signedMicros("-2.5") == -2_500_000 && Money.signedMicros("--1") == nil && Money.signedMicros("1e3") == nil)
    }

    /// What is stored is an integer, never a REAL that SQLite makes of an overflowing sum.
    private func expectIntegerColumn(_ harness: EngineHarness) async throws {
        let tenant = harness.tenantID
        let balance: Int64 = try await harness.store.database.read { db in
            try db.queryOne("SELECT balance_micros FROM verification_accounts WHERE tenant_id = ?", tenant)!.get("balance_micros")
        }
        #expect(balance == (try await harness.engine.balance(tenantID: tenant)))
        if harness.store.database.dialect == .sqlite {
            let type: String = try await harness.store.database.read { db in
                try db.queryOne("SELECT typeof(balance_micros) AS t FROM verification_accounts WHERE tenant_id = ?", tenant)!.get("t")
            }
            #expect(type == "integer")
        }
    }
}
