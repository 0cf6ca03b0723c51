import Foundation
import GatehouseDatabase

/// A run this node has claimed, with what its executor needs.
struct ClaimedRun: Sendable {
    let invocation: RunInvocation
}

/// How an attempt ended, as the engine records it.
enum RunEnding: Sendable, Equatable {
    case executor(ExecutorOutcome)
    case timedOut
    /// The claim lapsed: its node died. Due again at once, attempts permitting.
    case nodeLost
}

// The run queue: runs are rows claimed with `FOR UPDATE SKIP LOCKED` (PostgreSQL) or under
// SQLite's one writer, leased, and ended by compare-and-set on (id, status, attempt), so a late
// or doubled ending changes nothing (River #1302).
extension WorkflowsEngine {
    /// Claims up to `limit` due runs, within each tenant's concurrency limit.
    func claimRuns(limit: Int) async throws -> [ClaimedRun] {
        let (now, settings, node, hub, billing) = (self.now, self.settings, nodeID, events, self.billing)
        let due = try await database.read { db in
            try db.queryOne("SELECT id FROM workflow_runs WHERE status = 'queued' AND available_at <= ? LIMIT 1", now) != nil
        }
        guard due else { return [] }
        let claimed = try await database.write { db -> [ClaimedRun] in
            // A tenant at its limit is left out here, so its backlog never hides other tenants' runs.
            let rows = try db.query(
                """
                SELECT * FROM workflow_runs r WHERE r.status = 'queued' AND r.available_at <= ?
                AND (SELECT COUNT(*) FROM workflow_runs x WHERE x.tenant_id = r.tenant_id AND x.status = 'running')
                  < COALESCE((SELECT s.max_concurrent_runs FROM workflow_tenant_settings s WHERE s.tenant_id = r.tenant_id), ?)
                ORDER BY r.available_at, r.id LIMIT ?
                """ + db.dialect.forUpdateSkipLocked,
                [now.sqlValue, .integer(Int64(settings.defaultConcurrency)), .integer(Int64(limit))])
            var claimed: [ClaimedRun] = []
            var started: [WorkflowRun] = []
            // Tenant and account locks are taken in one order on every node, so claims never deadlock.
            for run in try Self.lockOrder(rows.map(WorkflowRun.init(row:))) {
                // The definition, the tenant's settings and its running count in one round trip;
                // nodes claiming for one tenant take turns to count its running runs.
                let definitionRow = try db.send("SELECT * FROM workflow_definitions WHERE tenant_id = ? AND id = ?", run.tenantID, run.workflowID)
                let settingsRow = try Self.sendTenantSettings(db, tenantID: run.tenantID)
                try db.takeTurn("workflow-slots:" + run.tenantID)
                let runningCount = try db.send("SELECT COUNT(*) AS n FROM workflow_runs WHERE tenant_id = ? AND status = 'running'", run.tenantID)
                // `rows()` answers for everything sent before it too: its error is the transaction's.
                guard let definition = try Self.enabledDefinition(definitionRow.rows().first) else {
                    try Self.end(db, run: run, ending: .executor(.failed(code: "WORKFLOW_UNAVAILABLE", message: "The workflow was removed or disabled before it ran.")),
                                 from: .queued, now: now, settings: settings, billing: billing, hub: hub)
                    continue
                }
                let tenant = try Self.tenantSettings(settingsRow, fallback: settings.defaultConcurrency)
                let running: Int = try runningCount.rows()[0].get("n")
                if running >= tenant.maxConcurrentRuns { continue }
                let deadline = run.deadline ?? now.addingTimeInterval(TimeInterval(definition.timeoutSeconds))
                try db.send(
                    Self.startRunStatement,
                    [.text(node), now.addingTimeInterval(settings.leaseSeconds).sqlValue, now.sqlValue, deadline.sqlValue, .text(run.id),
                     .text(WorkflowRun.Status.queued.rawValue)])
                started.append(run)
                claimed.append(ClaimedRun(
                    invocation: RunInvocation(
                        runID: run.id, tenantID: run.tenantID, accountID: run.accountID, workflow: definition, input: run.input,
                        files: run.files, attempt: run.attempts + 1, deadline: deadline, tenant: tenant)))
            }
            // The events last, in lock order, so that they travel with the COMMIT: an account's
            // event cursor, once locked, would otherwise stay locked through a round trip per
            // run claimed after it, while the account's new runs wait for it.
            for run in started {
                try Self.appendEvent(db, run: (run.tenantID, run.accountID, run.id), status: .running, now: now, hub: hub)
            }
            return claimed
        }
        for run in claimed { events.publish(tenantID: run.invocation.tenantID, accountID: run.invocation.accountID) }
        return claimed
    }

    // A run's statements by its id name its status as a parameter, never a literal: with
    // `status = 'running'` (or `'queued'`), PostgreSQL's generic plan for a table without
    // statistics can walk the partial index of the running (or queued) runs and filter on the
    // id instead of reading the primary key (see `ownedRun`).
    static let startRunStatement = """
        UPDATE workflow_runs SET status = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?,
          started_at = COALESCE(started_at, ?), deadline_at = ? WHERE id = ? AND status = ?
        """
    static let renewLeaseStatement = "UPDATE workflow_runs SET lease_until = ? WHERE id = ? AND status = ? AND attempts = ? AND lease_owner = ?"
    static let runningAttemptStatement = "SELECT * FROM workflow_runs WHERE id = ? AND status = ? AND attempts = ?"

    /// Runs sorted by tenant, then account: the order every transaction takes their locks in.
    static func lockOrder(_ runs: [WorkflowRun]) -> [WorkflowRun] {
        runs.sorted { ($0.tenantID, $0.accountID, $0.id) < ($1.tenantID, $1.accountID, $1.id) }
    }

    /// Keeps this node's claim on a run while its executor works.
    func renewLease(runID: String, attempt: Int) async throws {
        let (until, node) = (now.addingTimeInterval(settings.leaseSeconds), nodeID)
        try await database.write { db in
            _ = try db.send(
                Self.renewLeaseStatement,
                [until.sqlValue, .text(runID), .text(WorkflowRun.Status.running.rawValue), .integer(Int64(attempt)), .text(node)])
        }
    }

    /// Records how attempt `attempt` of a run ended; nothing happens if the run has moved on.
    func finish(runID: String, attempt: Int, _ ending: RunEnding) async throws {
        let (now, settings, billing, hub) = (self.now, self.settings, self.billing, events)
        let run = try await database.write { db -> WorkflowRun? in
            guard let row = try db.queryOne(
                Self.runningAttemptStatement + db.dialect.forUpdate,
                [.text(runID), .text(WorkflowRun.Status.running.rawValue), .integer(Int64(attempt))])
            else { return nil }
            let run = try WorkflowRun(row: row)
            try Self.end(db, run: run, ending: ending, from: .running, now: now, settings: settings, billing: billing, hub: hub)
            return run
        }
        if let run { announce(run) }
    }

    /// A worker's answer through the run's callback: the result or a failure, once.
    /// Returns false when the run had already ended.
    public func complete(runID: String, tenantID: String, _ outcome: ExecutorOutcome) async throws -> Bool {
        let (now, settings, billing, hub) = (self.now, self.settings, self.billing, events)
        let run = try await database.write { db -> WorkflowRun? in
            guard let row = try Self.ownedRun(db, id: runID, tenantID: tenantID, forUpdate: true) else { return nil }
            let run = try WorkflowRun(row: row)
            guard run.status == .running else { return nil }
            try Self.end(db, run: run, ending: .executor(outcome), from: .running, now: now, settings: settings, billing: billing, hub: hub)
            return run
        }
        if let run { announce(run) }
        return run != nil
    }

    private func announce(_ run: WorkflowRun) {
        events.publish(tenantID: run.tenantID, accountID: run.accountID)
        doorbell.ring()  // a slot of the tenant may have come free
    }

    /// The one place a run changes state after its claim: success, failure (credits back),
    /// a retry after a backoff, or a wait for the worker's callback.
    static func end(
        _ db: any DatabaseConnection, run: WorkflowRun, ending: RunEnding, from status: WorkflowRun.Status, now: Date,
        settings: WorkflowSettings, billing: any RunBilling, hub: RunEventHub
    ) throws {
        let id = run.id
        func settle(_ final: WorkflowRun.Status, code: String, message: String) throws {
            let refunded = try billing.refund(db, tenantID: run.tenantID, accountID: run.accountID, reference: id, now: now)
            try db.send(
                """
                UPDATE workflow_runs SET status = ?, error_code = ?, error_message = ?, finished_at = ?, lease_owner = NULL,
                  lease_until = NULL, credits_refunded = credits_refunded + ? WHERE id = ? AND status = ?
                """,
                [.text(final.rawValue), .text(code), .text(String(message.prefix(2000))), now.sqlValue, .integer(Int64(refunded)),
                 .text(id), .text(status.rawValue)])
            try appendEvent(db, run: (run.tenantID, run.accountID, id), status: final, now: now, hub: hub)
        }
        switch ending {
        case .timedOut:
            try settle(.timedOut, code: "TIMED_OUT", message: "The run did not finish in time.")
        case .executor(.succeeded(let result)):
            try db.send(
                """
                UPDATE workflow_runs SET status = 'succeeded', result = ?, error_code = NULL, error_message = NULL, finished_at = ?,
                  lease_owner = NULL, lease_until = NULL WHERE id = ? AND status = ?
                """,
                [.text(try encode(result)), now.sqlValue, .text(id), .text(status.rawValue)])
            try appendEvent(db, run: (run.tenantID, run.accountID, id), status: .succeeded, now: now, hub: hub)
        case .executor(.failed(let code, let message)):
            try settle(.failed, code: code, message: message)
        case .nodeLost, .executor(.retry):
            let (code, message): (String, String)
            if case .executor(.retry(let why, let text)) = ending { (code, message) = (why, text) } else {
                (code, message) = ("NODE_LOST", "The node running it stopped answering.")
            }
            let attempts = run.attempts
            let retryAt = ending == .nodeLost ? now : now.addingTimeInterval(settings.backoff(afterAttempt: attempts))
            if attempts >= settings.maxAttempts || run.deadline.map({ retryAt >= $0 }) == true {
                try settle(.failed, code: code, message: message)
                return
            }
            try db.send(
                """
                UPDATE workflow_runs SET status = 'queued', available_at = ?, error_code = ?, error_message = ?, lease_owner = NULL,
                  lease_until = NULL WHERE id = ? AND status = ?
                """,
                [retryAt.sqlValue, .text(code), .text(String(message.prefix(2000))), .text(id), .text(status.rawValue)])
            try appendEvent(db, run: (run.tenantID, run.accountID, id), status: .queued, now: now, hub: hub)
        case .executor(.awaitingCallback):
            // The worker answers later; the deadline bounds the wait.
            try db.send(
                "UPDATE workflow_runs SET lease_owner = 'callback', lease_until = deadline_at WHERE id = ? AND status = ?",
                id, status.rawValue)
        }
    }
}
