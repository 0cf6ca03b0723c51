import GatehouseDatabase

extension WorkflowsEngine {
    /// A run by its id when the tenant (and, given one, the account) owns it; nil otherwise,
    /// as if there were none.
    ///
    /// The row is found by the id alone and its owner (and anything else the caller needs of
    /// it, such as its status) checked here. With `AND tenant_id = ?` in the statement,
    /// PostgreSQL's generic plan for a table without statistics (a new installation's, or
    /// after a reset) may take an index led by the tenant (`by_key`, `by_account`) and filter
    /// on the id, reading every run of the tenant or account (574 index entries for each read
    /// of a run's report in the sync execute bench); with `AND status = 'running'`, it walks
    /// the partial index of the running runs.
    static func ownedRun(
        _ db: any DatabaseConnection, id: String, tenantID: String, accountID: String? = nil, forUpdate: Bool = false
    ) throws -> Row? {
        guard let row = try db.queryOne(ownedRunStatement(forUpdate: forUpdate, db.dialect), [.text(id)]) else {
            return nil
        }
        guard try row.get("tenant_id", as: String.self) == tenantID else { return nil }
        if let accountID, try row.get("account_id", as: String.self) != accountID { return nil }
        return row
    }

    static func ownedRunStatement(forUpdate: Bool = false, _ dialect: SQLDialect) -> String {
        "SELECT * FROM workflow_runs WHERE id = ?" + (forUpdate ? dialect.forUpdate : "")
    }
}
