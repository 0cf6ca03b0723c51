import Foundation
import GatehouseDatabase

/// One page of an account's runs, newest first.
public struct RunHistoryPage: Sendable, Equatable {
    public let runs: [WorkflowRun]
    public let page: Int
    public let pageSize: Int
    public let total: Int
    public var totalPages: Int { total == 0 ? 0 : (total + pageSize - 1) / pageSize }
}

extension WorkflowsEngine {
    /// The caller's own run; another account's is not found, like one that does not exist.
    public func report(tenantID: String, accountID: String, eventID: String) async throws -> WorkflowRun {
        let row = try await database.read { db in
            try Self.ownedRun(db, id: eventID, tenantID: tenantID, accountID: accountID)
        }
        guard let row else { throw WorkflowError(.notFound, .noSuchReport(eventID)) }
        return try WorkflowRun(row: row)
    }

    public func history(tenantID: String, accountID: String, page: Int, pageSize: Int) async throws -> RunHistoryPage {
        try Self.checkPaging(page: page, pageSize: pageSize)
        return try await database.read { db in
            let total: Int = try db.queryOne(
                "SELECT COUNT(*) AS n FROM workflow_runs WHERE tenant_id = ? AND account_id = ?", tenantID, accountID)!.get("n")
            let rows = try db.query(
                "SELECT * FROM workflow_runs WHERE tenant_id = ? AND account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                [.text(tenantID), .text(accountID), .integer(Int64(pageSize)), .integer(Int64((page - 1) * pageSize))])
            return RunHistoryPage(runs: try rows.map(WorkflowRun.init(row:)), page: page, pageSize: pageSize, total: total)
        }
    }
}

extension WorkflowsEngine {
    /// A run's stored file, while it is kept.
    public func runFile(runID: String, tenantID: String, index: Int) async throws -> RunFile? {
        let row = try await database.read { db in
            try Self.ownedRun(db, id: runID, tenantID: tenantID)
        }
        guard let row, try row.get("files_removed", as: Bool.self) == false else { return nil }
        let files: [RunFile] = try Self.decode(try row.get("files"))
        return files.indices.contains(index) ? files[index] : nil
    }
}
