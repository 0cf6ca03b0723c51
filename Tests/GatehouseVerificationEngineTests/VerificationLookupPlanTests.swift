import Foundation
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseVerificationEngine

/// A status or report by id reads the primary key whatever PostgreSQL knows of the table, not
/// the application's verifications by number filtered on the id.
@Suite struct VerificationLookupPlanTests {
    @Test(arguments: [false, true])
    func aVerificationByIdIsReadByThePrimaryKey(_ locking: Bool) async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let harness = try await EngineHarness(.postgres)
        defer { harness.close() }
        let app = try await harness.caller().application.id
        let plan = try await harness.store.database.write { db in
            // One application's 600 verifications: a table PostgreSQL has no statistics for.
            _ = try db.execute(
                """
                INSERT INTO verifications (id, tenant_id, application_id, destination, channel, status, code_length, attempts, max_attempts,
                  fee_micros, template_group_used, interception_timeout, created_at, expires_at)
                SELECT 'v-' || n, ?, ?, (447400000000 + n)::text, 'sms', 'pending', 6, 0, 3, 0, false, 0, n, n + 600
                FROM generate_series(1, 600) n
                """, [.text(harness.tenantID), .text(app)])
            return try genericPlan(
                db, of: VerificationEngine.rowByID + (locking ? SQLDialect.postgres.forUpdate : ""), arguments: "'v-300'")
        }
        #expect(plan.contains("verifications_pkey"), "\(plan)")
    }
}

extension VerificationLookupPlanTests {
    /// Another application's verification is not found by id, as if there were none.
    @Test(arguments: TestDatabaseKind.available)
    func anotherApplicationsVerificationIsNotFound(_ kind: TestDatabaseKind) async throws {
        let harness = try await EngineHarness(kind)
        defer { harness.close() }
        let mine = try await harness.caller()
        let other = try await harness.caller()
        let started = try await harness.engine.start(StartRequest(destination: "447400123456", deliveryMethod: "sms"), caller: mine)
        let found = try await harness.store.database.write { db in
            (
                try VerificationEngine.findRow(db, .id(started.id), applicationID: mine.application.id, now: harness.clock.now, lock: true) != nil,
                try VerificationEngine.findRow(db, .id(started.id), applicationID: other.application.id, now: harness.clock.now, lock: true) == nil,
                try VerificationEngine.findRow(db, .id("no-such-id"), applicationID: mine.application.id, now: harness.clock.now, lock: false) == nil
            )
        }
        #expect(found == (true, true, true))
    }
}
