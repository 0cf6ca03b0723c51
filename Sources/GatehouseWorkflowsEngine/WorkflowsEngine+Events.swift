import Foundation
import GatehouseDatabase

/// One change of a run, as the report stream replays it: `seq` counts up per account, with
/// no gaps, in commit order (the account's cursor row is locked until commit).
public struct RunEvent: Sendable, Equatable {
    public let seq: Int64
    public let runID: String
    public let status: WorkflowRun.Status
}

extension WorkflowsEngine {
    static func appendEvent(_ db: any DatabaseConnection, run: (tenantID: String, accountID: String, id: String), status: WorkflowRun.Status, now: Date, hub: RunEventHub) throws {
        // Nothing here waits for an answer: the event takes the number its cursor was just
        // given in this transaction, so the three travel with the transaction's next round trip.
        try db.send(
            """
            INSERT INTO workflow_event_cursors (tenant_id, account_id, last_seq) VALUES (?, ?, 1)
            ON CONFLICT (tenant_id, account_id) DO UPDATE SET last_seq = workflow_event_cursors.last_seq + 1
            """,
            run.tenantID, run.accountID)
        try db.send(
            """
            INSERT INTO workflow_events (tenant_id, account_id, seq, run_id, status, created_at)
            SELECT ?, ?, last_seq, ?, ?, ? FROM workflow_event_cursors WHERE tenant_id = ? AND account_id = ?
            """,
            [.text(run.tenantID), .text(run.accountID), .text(run.id), .text(status.rawValue), now.sqlValue, .text(run.tenantID), .text(run.accountID)])
        try hub.notifyOtherNodes(db, tenantID: run.tenantID, accountID: run.accountID)
    }

    /// The account's events after `seq`, oldest first, with each run's report as it stands now.
    public func events(tenantID: String, accountID: String, after seq: Int64, limit: Int = 100) async throws -> [(event: RunEvent, run: WorkflowRun)] {
        try await database.read { db in
            try db.query(
                """
                SELECT e.seq AS event_seq, e.status AS event_status, r.* FROM workflow_events e
                JOIN workflow_runs r ON r.id = e.run_id
                WHERE e.tenant_id = ? AND e.account_id = ? AND e.seq > ? ORDER BY e.seq LIMIT ?
                """,
                [.text(tenantID), .text(accountID), .integer(seq), .integer(Int64(limit))]
            ).map { row in
                let run = try WorkflowRun(row: row)
                let status = WorkflowRun.Status(rawValue: try row.get("event_status")) ?? run.status
                return (RunEvent(seq: try row.get("event_seq"), runID: run.id, status: status), run)
            }
        }
    }

    /// The account's latest event number: a stream that starts without `Last-Event-ID`
    /// begins after it.
    public func lastEventSeq(tenantID: String, accountID: String) async throws -> Int64 {
        try await database.read { db in
            try db.queryOne("SELECT last_seq FROM workflow_event_cursors WHERE tenant_id = ? AND account_id = ?", tenantID, accountID)?
                .get("last_seq") ?? 0
        }
    }
}
