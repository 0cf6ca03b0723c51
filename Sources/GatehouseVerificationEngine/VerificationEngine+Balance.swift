import GatehouseCore
import GatehouseDatabase

// A tenant's verification balance: credited by the operator, billed on each verified code.
extension VerificationEngine {
    /// Adds to (or, negative, takes from) a tenant's verification balance; returns the new
    /// balance. A change that would leave the balance's range is `amount_out_of_range`.
    public func adjustBalance(tenantID: String, byMicros amount: Int64) async throws -> Int64 {
        try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else {
                throw CoreError(.notFound, "no such tenant")
            }
            return try Self.addToBalance(db, tenantID: tenantID, amount)
        }
    }

    public func balance(tenantID: String) async throws -> Int64 {
        try await database.read { db in
            try db.queryOne("SELECT balance_micros FROM verification_accounts WHERE tenant_id = ?", tenantID)?.get("balance_micros") ?? 0
        }
    }

    /// The one way a balance changes. The sum is checked inside the statement: a row whose
    /// sum would leave `Int64` is left alone, so neither database computes it (PostgreSQL
    /// would fail with `bigint out of range`, SQLite would store a REAL in the integer column).
    static func addToBalance(_ db: any DatabaseConnection, tenantID: String, _ amount: Int64) throws -> Int64 {
        try db.execute(
            "INSERT INTO verification_accounts (tenant_id, balance_micros) VALUES (?, 0) ON CONFLICT (tenant_id) DO NOTHING", tenantID)
        let range = Money.addableRange(amount)
        let changed = try db.execute(
            "UPDATE verification_accounts SET balance_micros = balance_micros + ? WHERE tenant_id = ? AND balance_micros BETWEEN ? AND ?",
            [.integer(amount), .text(tenantID), .integer(range.lowerBound), .integer(range.upperBound)])
        guard changed == 1 else { throw Money.outOfRange }
        return try db.queryOne("SELECT balance_micros FROM verification_accounts WHERE tenant_id = ?", tenantID)!.get("balance_micros")
    }
}
