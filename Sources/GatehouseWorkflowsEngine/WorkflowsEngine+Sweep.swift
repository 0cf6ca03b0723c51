import Foundation
import GatehouseDatabase

extension WorkflowsEngine {
    /// Housekeeping, on any node: runs whose node died go back to the queue (or fail once
    /// their attempts are spent), runs past their deadline time out with their credits given
    /// back, and files, idempotency keys and events past their retention go.
    /// Returns how many runs it ended or requeued.
    @discardableResult
    public func sweep() async throws -> Int {
        let (now, settings, billing, hub) = (self.now, self.settings, self.billing, events)
        let touched = try await database.write { db -> [WorkflowRun] in
            let rows = try db.query(
                """
                SELECT * FROM workflow_runs WHERE status = 'running' AND (lease_until < ? OR deadline_at < ?) LIMIT 200
                """ + db.dialect.forUpdateSkipLocked,
                [now.sqlValue, now.sqlValue])
            var touched: [WorkflowRun] = []
            for row in rows {
                let run = try WorkflowRun(row: row)
                if let deadline = run.deadline, deadline <= now {
                    try Self.end(db, run: run, ending: .timedOut, from: .running, now: now, settings: settings, billing: billing, hub: hub)
                } else {
                    try Self.end(db, run: run, ending: .nodeLost, from: .running, now: now, settings: settings, billing: billing, hub: hub)
                }
                touched.append(run)
            }
            try db.execute(
                "UPDATE workflow_runs SET idempotency_key = NULL WHERE idempotency_key IS NOT NULL AND created_at < ?",
                now.addingTimeInterval(-settings.idempotencyRetention))
            try db.execute("DELETE FROM workflow_events WHERE created_at < ?", now.addingTimeInterval(-settings.eventRetention))
            return touched
        }
        for run in touched { events.publish(tenantID: run.tenantID, accountID: run.accountID) }
        if !touched.isEmpty { doorbell.ring() }
        try await removeExpiredFiles(before: now.addingTimeInterval(-settings.fileRetention))
        return touched.count
    }

    /// Removes the files of runs that finished before `cutoff`.
    func removeExpiredFiles(before cutoff: Date) async throws {
        let ids = try await database.read { db in
            try db.query(
                "SELECT id FROM workflow_runs WHERE files_removed = ? AND finished_at < ? LIMIT 500", [.boolean(false), cutoff.sqlValue]
            ).map { try $0.get("id", as: String.self) }
        }
        guard !ids.isEmpty else { return }
        for id in ids { removeFiles(runID: id) }
        _ = try await database.write { db in
            for id in ids { try db.execute("UPDATE workflow_runs SET files_removed = ? WHERE id = ?", [.boolean(true), .text(id)]) }
        }
    }

    /// On SQLite there is one node: whatever a previous process was running when it stopped
    /// goes back to the queue at once instead of after its lease. Runs waiting for a worker's
    /// callback keep waiting.
    public func recoverAfterRestart() async throws {
        guard database.dialect.name == "sqlite" else { return }
        let node = nodeID
        _ = try await database.write { db in
            try db.execute(
                """
                UPDATE workflow_runs SET status = 'queued', lease_owner = NULL, lease_until = NULL
                WHERE status = 'running' AND lease_owner IS NOT NULL AND lease_owner NOT IN ('callback', ?)
                """,
                node)
        }
    }

    /// The signing secret of the worker a run was sent to, for its callback; `nil` when the
    /// run is unknown or the tenant has none.
    public func callbackSecret(runID: String) async throws -> (tenantID: String, secret: String)? {
        let fallback = settings.defaultConcurrency
        return try await database.read { db in
            guard let row = try db.queryOne("SELECT tenant_id FROM workflow_runs WHERE id = ?", runID) else { return nil }
            let tenantID: String = try row.get("tenant_id")
            return try Self.tenantSettings(db, tenantID: tenantID, fallback: fallback).workerSecret.map { (tenantID, $0) }
        }
    }
}
