import Foundation
import GatehouseDatabase
import GatehouseTesting
import Testing
@testable import GatehouseWorkflowsEngine

/// A run is read by its id whatever PostgreSQL knows of the table: the primary key, not an
/// index of the tenant's or account's runs filtered on the id (which read 574 entries a
/// report in the sync execute bench, a number that grows with the account's runs).
@Suite struct RunLookupPlanTests {
    @Test(arguments: [
        ("report", WorkflowsEngine.ownedRunStatement(.postgres), "'run-300'"),
        ("complete", WorkflowsEngine.ownedRunStatement(forUpdate: true, .postgres), "'run-300'"),
        ("claim", WorkflowsEngine.startRunStatement, "'node', 1, 1, 1, 'run-300', 'queued'"),
        ("renew lease", WorkflowsEngine.renewLeaseStatement, "1, 'run-300', 'running', 1, 'node'"),
        ("finish", WorkflowsEngine.runningAttemptStatement + SQLDialect.postgres.forUpdate, "'run-300', 'running', 1"),
    ])
    func aRunIsFoundByThePrimaryKey(_ name: String, _ sql: String, _ arguments: String) async throws {
        guard TestDatabaseKind.available.contains(.postgres) else { return }
        let h = try await WorkflowsHarness(.postgres, credits: 0)
        defer { h.close() }
        let plan = try await h.store.database.write { db in
            // One account's 600 runs, half with an idempotency key, some running: a table
            // PostgreSQL has no statistics for.
            _ = try db.execute(
                """
                INSERT INTO workflow_runs (id, tenant_id, account_id, workflow_id, status, input, files, credits, credits_refunded, attempts,
                  available_at, idempotency_key, created_at, files_removed)
                SELECT 'run-' || n, ?, 'acct-1', 'wf', CASE WHEN n % 10 = 0 THEN 'running' ELSE 'succeeded' END, '{}', '[]', 1, 0, 1, n,
                  CASE WHEN n % 2 = 0 THEN 'key-' || n END, n, false
                FROM generate_series(1, 600) n
                """, [.text(h.tenantID)])
            return try genericPlan(db, of: sql, arguments: arguments)
        }
        #expect(plan.contains("workflow_runs_pkey"), "\(name): \(plan)")
        #expect(!plan.contains("Filter: (id"), "\(name): \(plan)")
    }

    @Test(arguments: TestDatabaseKind.available)
    func anotherTenantsOrAccountsRunIsNotFound(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind, credits: 0)
        defer { h.close() }
        try await h.store.database.write { db in
            _ = try db.execute(
                """
                INSERT INTO workflow_runs (id, tenant_id, account_id, workflow_id, status, input, files, credits, credits_refunded, attempts,
                  available_at, created_at, files_removed)
                VALUES ('run-1', ?, 'acct-1', 'wf', 'running', '{}', '[]', 1, 0, 1, 0, 0, ?)
                """, [.text(h.tenantID), .boolean(false)])
        }
        let found = try await h.store.database.write { db in
            (
                try WorkflowsEngine.ownedRun(db, id: "run-1", tenantID: h.tenantID, accountID: "acct-1") != nil,
                try WorkflowsEngine.ownedRun(db, id: "run-1", tenantID: h.tenantID, accountID: "acct-2") == nil,
                try WorkflowsEngine.ownedRun(db, id: "run-1", tenantID: "another-tenant", forUpdate: true) == nil
            )
        }
        #expect(found == (true, true, true))
        await #expect(throws: WorkflowError.self) { try await h.engine.report(tenantID: h.tenantID, accountID: "acct-2", eventID: "run-1") }
        #expect(try await h.engine.report(tenantID: h.tenantID, accountID: "acct-1", eventID: "run-1").id == "run-1")
    }
}
