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
            for run in try Self.lockOrder(rows.map(WorkflowRun.init(row:))) {
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
        try await removeOrphanedFiles(olderThan: 3600)
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

    /// Files nothing refers to: uploads a process died holding, and the folders of runs whose
    /// transaction never committed. Only those older than `age` (file times are real time):
    /// a younger one may belong to a request in progress.
    func removeOrphanedFiles(olderThan age: TimeInterval) async throws {
        let manager = FileManager.default
        let cutoff = Date().addingTimeInterval(-age)
        func old(_ url: URL) -> Bool {
            ((try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date).map { $0 < cutoff } ?? false
        }
        for name in (try? manager.contentsOfDirectory(atPath: settings.uploadsDirectory.path)) ?? [] {
            let url = settings.uploadsDirectory.appendingPathComponent(name)
            if old(url) { try? manager.removeItem(at: url) }
        }
        let folders = ((try? manager.contentsOfDirectory(atPath: settings.filesDirectory.path)) ?? [])
            .filter { $0.hasPrefix("evt_") && $0.count <= 64 }
            .map { settings.filesDirectory.appendingPathComponent($0) }.filter(old)
        for batch in stride(from: 0, to: folders.count, by: 200).map({ Array(folders[$0..<min($0 + 200, folders.count)]) }) {
            let ids = batch.map(\.lastPathComponent)
            let known = try await database.read { db in
                try Set(db.query(
                    "SELECT id FROM workflow_runs WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))", ids.map(SQLValue.text)
                ).map { try $0.get("id", as: String.self) })
            }
            for folder in batch where !known.contains(folder.lastPathComponent) { try? manager.removeItem(at: folder) }
        }
    }

    /// On SQLite there is one node: whatever a previous process was running when it stopped
    /// goes back to the queue at once instead of after its lease. Runs waiting for a worker's
    /// callback keep waiting.
    /// A run whose attempts are spent fails (credits back) instead of running again: a run
    /// that crashes its server must not do so forever.
    public func recoverAfterRestart() async throws {
        guard !database.dialect.sharedByNodes else { return }
        let (node, now, settings, billing, hub) = (nodeID, self.now, self.settings, self.billing, events)
        let recovered = try await database.write { db -> [WorkflowRun] in
            let runs = try db.query(
                "SELECT * FROM workflow_runs WHERE status = 'running' AND lease_owner IS NOT NULL AND lease_owner NOT IN ('callback', ?)",
                [.text(node)]
            ).map(WorkflowRun.init(row:))
            for run in Self.lockOrder(runs) {
                try Self.end(db, run: run, ending: .nodeLost, from: .running, now: now, settings: settings, billing: billing, hub: hub)
            }
            return runs
        }
        for run in recovered { events.publish(tenantID: run.tenantID, accountID: run.accountID) }
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
