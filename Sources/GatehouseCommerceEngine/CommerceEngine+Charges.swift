import Foundation
import GatehouseCore
import GatehouseDatabase

/// Spending `WALLET` credits on something (a workflow run), inside the caller's transaction,
/// with a ledger entry per charge and per refund.
extension CommerceEngine {
    /// The outcome of a charge: the balance after it, or the balance that was too small.
    public enum ChargeResult: Sendable, Equatable {
        case charged(balance: Int)
        case insufficient(balance: Int)
    }

    /// Takes `credits` in one guarded UPDATE: under concurrent charges PostgreSQL re-checks
    /// the guard after the row lock, and SQLite has one writer, so the balance never goes
    /// below zero.
    public static func charge(
        _ db: any DatabaseConnection, tenantID: String, accountID: String, credits: Int, reference: String, now: Date
    ) throws -> ChargeResult {
        let row = try db.queryOne(
            """
            UPDATE commerce_wallets SET credits = credits - ?
            WHERE tenant_id = ? AND account_id = ? AND kind = 'WALLET' AND credits >= ? RETURNING credits
            """,
            [.integer(Int64(credits)), .text(tenantID), .text(accountID), .integer(Int64(credits))])
        guard let row else {
            let balance = try db.queryOne(
                "SELECT credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ? AND kind = 'WALLET'", tenantID, accountID)
            return .insufficient(balance: try balance?.get("credits") ?? 0)
        }
        let balance: Int = try row.get("credits")
        try db.execute(
            """
            INSERT INTO commerce_wallet_entries (tenant_id, account_id, reference, kind, amount, balance_after, created_at)
            VALUES (?, ?, ?, 'charge', ?, ?, ?)
            """,
            [.text(tenantID), .text(accountID), .text(reference), .integer(Int64(-credits)), .integer(Int64(balance)), now.sqlValue])
        return .charged(balance: balance)
    }

    /// Gives back the charge of `reference` once; the credits given back, or 0.
    public static func refund(_ db: any DatabaseConnection, tenantID: String, accountID: String, reference: String, now: Date) throws -> Int {
        guard let charge = try db.queryOne(
            "SELECT amount FROM commerce_wallet_entries WHERE tenant_id = ? AND reference = ? AND kind = 'charge' AND account_id = ?",
            tenantID, reference, accountID)
        else { return 0 }
        let credits = -(try charge.get("amount", as: Int.self))
        let inserted = try db.execute(
            """
            INSERT INTO commerce_wallet_entries (tenant_id, account_id, reference, kind, amount, balance_after, created_at)
            VALUES (?, ?, ?, 'refund', ?, 0, ?) ON CONFLICT (tenant_id, reference, kind) DO NOTHING
            """,
            [.text(tenantID), .text(accountID), .text(reference), .integer(Int64(credits)), now.sqlValue])
        guard inserted == 1 else { return 0 }
        try addCredits(db, tenantID: tenantID, accountID: accountID, credits)
        let balance: Int = try db.queryOne(
            "SELECT credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ? AND kind = 'WALLET'", tenantID, accountID)?
            .get("credits") ?? credits
        try db.execute(
            "UPDATE commerce_wallet_entries SET balance_after = ? WHERE tenant_id = ? AND reference = ? AND kind = 'refund'",
            balance, tenantID, reference)
        return credits
    }

    /// An operator's grant of `credits` to the account's `WALLET` (support, a promotion, a
    /// development tenant); returns the balance after it.
    public func grantCredits(tenantID: String, accountID: String, credits: Int) async throws -> Int {
        guard credits > 0, credits <= 1_000_000_000 else { throw CommerceError.invalid("credits", .range(1...1_000_000_000)) }
        let now = environment.clock.now
        let reference = "grant_" + environment.ids.next().uuidString.lowercased()
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            try Self.addCredits(db, tenantID: tenantID, accountID: accountID, credits)
            let balance: Int = try db.queryOne(
                "SELECT credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ? AND kind = 'WALLET'", tenantID, accountID)!
                .get("credits")
            try db.execute(
                """
                INSERT INTO commerce_wallet_entries (tenant_id, account_id, reference, kind, amount, balance_after, created_at)
                VALUES (?, ?, ?, 'grant', ?, ?, ?)
                """,
                [.text(tenantID), .text(accountID), .text(reference), .integer(Int64(credits)), .integer(Int64(balance)), now.sqlValue])
            return balance
        }
    }

    /// Whether `workflowID` may run for the account now: not gated, or covered by an active
    /// trial or plan.
    public func mayRun(_ db: any DatabaseConnection, tenantID: String, accountID: String, workflowID: String, now: Date) throws -> Bool {
        try Self.mayRun(db, tenantID: tenantID, accountID: accountID, workflowID: workflowID, now: now)
    }

    /// The workflow ids the tenant's plans gate.
    public static func gatedWorkflows(_ db: any DatabaseConnection, tenantID: String) throws -> Set<String> {
        Set(try plans(db, tenantID).compactMap(\.gatedWorkflowId))
    }
}
