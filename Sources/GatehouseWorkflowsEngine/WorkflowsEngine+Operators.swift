import Foundation
import GatehouseDatabase

/// Which runs an operator looks at: a tenant's, optionally one account's or one status.
public struct RunListFilter: Sendable, Equatable {
    public var tenantID: String
    public var accountID: String?
    public var status: WorkflowRun.Status?
    public var limit = 50

    public init(tenantID: String) { self.tenantID = tenantID }
}

/// What runs ended as over a period, for the operators' overview.
public struct RunOutcomes: Sendable, Equatable {
    public let byStatus: [WorkflowRun.Status: Int]
}

extension WorkflowsEngine {
    /// The tenant's runs, newest first.
    public func runs(_ filter: RunListFilter) async throws -> [WorkflowRun] {
        var sql = "SELECT * FROM workflow_runs WHERE tenant_id = ?"
        var arguments: [SQLValue] = [.text(filter.tenantID)]
        if let accountID = filter.accountID {
            sql += " AND account_id = ?"
            arguments.append(.text(accountID))
        }
        if let status = filter.status {
            sql += " AND status = ?"
            arguments.append(.text(status.rawValue))
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        arguments.append(.integer(Int64(min(max(filter.limit, 1), 500))))
        let bound = arguments
        return try await database.read { db in try db.query(sql, bound).map(WorkflowRun.init(row:)) }
    }

    /// One run of the tenant and its events in order; nil when there is none.
    public func run(tenantID: String, id: String) async throws -> (run: WorkflowRun, events: [(status: WorkflowRun.Status, at: Date)])? {
        try await database.read { db in
            guard let row = try Self.ownedRun(db, id: id, tenantID: tenantID) else { return nil }
            let run = try WorkflowRun(row: row)
            let events = try db.query(
                "SELECT status, created_at FROM workflow_events WHERE tenant_id = ? AND account_id = ? AND run_id = ? ORDER BY seq",
                tenantID, run.accountID, id
            ).map { (WorkflowRun.Status(rawValue: try $0.get("status")) ?? .failed, try $0.get("created_at") as Date) }
            return (run, events)
        }
    }

    /// How the runs created since `since` stand, counted per status, for one tenant or all.
    public func runOutcomes(tenantID: String?, since: Date) async throws -> RunOutcomes {
        let scoped = tenantID == nil ? "" : " AND tenant_id = ?"
        let arguments: [SQLValue] = [since.sqlValue] + (tenantID.map { [.text($0)] } ?? [])
        return try await database.read { db in
            var counts: [WorkflowRun.Status: Int] = [:]
            for row in try db.query("SELECT status, COUNT(*) AS n FROM workflow_runs WHERE created_at >= ?\(scoped) GROUP BY status", arguments) {
                if let status = WorkflowRun.Status(rawValue: try row.get("status")) { counts[status] = try row.get("n") }
            }
            return RunOutcomes(byStatus: counts)
        }
    }

    /// Ends a queued or running run as failed (`CANCELLED`), credits given back, as any
    /// failure does; a worker's later answer finds it ended and changes nothing. False when
    /// the run had ended already; `notFound` when the tenant has no such run.
    public func cancelRun(tenantID: String, id: String) async throws -> Bool {
        let (now, settings, billing, hub) = (self.now, self.settings, self.billing, events)
        let run = try await database.writeChanging { db -> WorkflowRun? in
            guard let row = try Self.ownedRun(db, id: id, tenantID: tenantID, forUpdate: true) else {
                throw WorkflowError(.notFound, .noSuchReport(id))
            }
            let run = try WorkflowRun(row: row)
            // Ended before: nothing to keep (and nothing joined to it, such as an audit row).
            guard !run.status.isFinished else { throw NothingChanged(WorkflowRun?.none) }
            try Self.end(
                db, run: run, ending: .executor(.failed(code: "CANCELLED", message: "Cancelled by an operator.")), from: run.status, now: now,
                settings: settings, billing: billing, hub: hub)
            return run
        }
        guard let run else { return false }
        events.publish(tenantID: run.tenantID, accountID: run.accountID)
        doorbell.ring()
        return true
    }
}
