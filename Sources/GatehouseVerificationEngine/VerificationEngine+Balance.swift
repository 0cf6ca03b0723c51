import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

// A tenant's verification balance: credited by the operator, billed on each verified code.
//
// Credits change the tenant's row in `verification_accounts`; each billed verification adds
// its (negative) fee to one of `balanceShards` rows in `verification_balance_shards`, picked by
// the verification's id, so verified reports of one tenant do not queue on one row. The balance is the row
// plus its shards. A start is refused while the balance cannot cover its fee; starts in flight
// together are each checked against the same balance, so the balance can go below zero by at
// most the fees of verifications pending at once (as it could with one row).
extension VerificationEngine {
    static let balanceShards = 8

    /// Adds to (or, negative, takes from) a tenant's verification balance; returns the new
    /// balance. A change that would leave the balance's range is `amount_out_of_range`.
    public func adjustBalance(tenantID: String, byMicros amount: Int64) async throws -> Int64 {
        try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else {
                throw CoreError.notFound(.tenant)
            }
            try db.execute(
                "INSERT INTO verification_accounts (tenant_id, balance_micros) VALUES (?, 0) ON CONFLICT (tenant_id) DO NOTHING", tenantID)
            // The operator's changes are rare: they take the tenant's row, and the shards'
            // sum read after it decides whether the new balance stays in range.
            _ = try db.query("SELECT balance_micros FROM verification_accounts WHERE tenant_id = ?" + db.dialect.forUpdate, [.text(tenantID)])
            let total = try Self.balance(db, tenantID: tenantID)
            let updated = try Money.sum(total, amount)
            let range = Money.addableRange(amount)
            let changed = try db.execute(
                "UPDATE verification_accounts SET balance_micros = balance_micros + ? WHERE tenant_id = ? AND balance_micros BETWEEN ? AND ?",
                [.integer(amount), .text(tenantID), .integer(range.lowerBound), .integer(range.upperBound)])
            guard changed == 1 else { throw Money.outOfRange }
            return updated
        }
    }

    /// The tenant's balance; `NOT_FOUND` for a tenant that does not exist (not a balance of 0).
    public func balance(tenantID: String) async throws -> Int64 {
        try await database.read { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            return try Self.balance(db, tenantID: tenantID)
        }
    }

    /// The tenant's row plus its shards, saturating at the ends of `Int64` (a sum outside it
    /// needs debits of more than nine trillion units).
    static func balance(_ db: any DatabaseConnection, tenantID: String) throws -> Int64 {
        try balance(sendBalance(db, tenantID: tenantID))
    }

    /// The tenant's balance row and its shards, in one statement sent without waiting.
    static func sendBalance(_ db: any DatabaseConnection, tenantID: String) throws -> SentStatement {
        try db.send(balanceParts(padding: ""), tenantID, tenantID)
    }

    /// The tenant's balance row (`source` `balance`) and shards (`shard`), as rows of `source`
    /// and `micros` with `padding` (`NULL, ` for each column between) for a `UNION ALL` with other
    /// parts; each `?` takes the tenant's id.
    static func balanceParts(padding: String) -> String {
        """
        SELECT 'balance' AS source, \(padding)balance_micros AS micros FROM verification_accounts WHERE tenant_id = ?
        UNION ALL
        SELECT 'shard', \(padding)delta_micros FROM verification_balance_shards WHERE tenant_id = ?
        """
    }

    /// The balance in the rows ``balanceParts(padding:)`` read: the row, then each shard's
    /// delta added, held at the ends of `Int64` rather than overflowing. Rows of other parts
    /// are passed over.
    static func balance(_ sent: SentStatement) throws -> Int64 {
        let parts: [(part: String, micros: Int64)] = try sent.rows().compactMap { row in
            let source: String = try row.get("source")
            return source == "balance" || source == "shard" ? (source, try row.get("micros")) : nil
        }
        var total = parts.first { $0.part == "balance" }?.micros ?? 0
        for (part, delta) in parts where part == "shard" {
            let (sum, overflow) = total.addingReportingOverflow(delta)
            total = overflow ? (delta < 0 ? Int64.min : Int64.max) : sum
        }
        return total
    }

    /// Bills a verified code on the tenant's shard its id picks. The sum is checked inside the
    /// statement: a shard whose sum would leave `Int64` is left alone, so neither database
    /// computes it (PostgreSQL would fail with `bigint out of range`, SQLite would store a REAL).
    ///
    /// The charge is sent without waiting; the returned check, called once a later statement
    /// has been answered, throws when the shard could not take it.
    static func bill(_ db: any DatabaseConnection, _ record: VerificationRecord) throws -> () throws -> Void {
        let fee = record.feeMicros, tenantID = record.tenantId
        guard fee != 0 else { return {} }
        let shard = Int64(SHA256.hash(Data(record.id.utf8))[0]) % Int64(balanceShards)
        let range = Money.addableRange(-fee)
        let charge = try db.send(
            """
            INSERT INTO verification_balance_shards (tenant_id, shard, delta_micros) VALUES (?, ?, ?)
            ON CONFLICT (tenant_id, shard) DO UPDATE SET delta_micros = verification_balance_shards.delta_micros + excluded.delta_micros
            WHERE verification_balance_shards.delta_micros BETWEEN ? AND ?
            """,
            [.text(tenantID), .integer(shard), .integer(-fee), .integer(range.lowerBound), .integer(range.upperBound)])
        return { guard try charge.changes() == 1 else { throw Money.outOfRange } }
    }
}
