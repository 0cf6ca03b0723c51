import Foundation
import GatehouseCore
import GatehouseDatabase

extension ConsoleEngine {
    /// Every operator, with whether each is locked out now.
    public func operators() async throws -> [(account: ConsoleOperator, lockedUntil: Date?)] {
        let now = environment.clock.now
        return try await database.read { db in
            try db.query("SELECT * FROM console_operators ORDER BY email", []).map { row in
                let until: Date? = try row.get("locked_until")
                return (try ConsoleOperator(row), until.flatMap { $0 > now ? $0 : nil })
            }
        }
    }

    /// Removes an operator and ends their sessions; an operator cannot remove themselves
    /// (so the last admin stays).
    public func removeOperator(id: String, by actor: ConsoleSession, clientAddress: String) async throws {
        guard id != actor.account.id else { throw ConsoleError.cannotRemoveSelf }
        let (auditID, now) = (environment.ids.next().lowercased, environment.clock.now)
        let entry = AuditEntry(actor: actor.account.id, action: "operator.remove", target: id, clientAddress: clientAddress)
        let removed = try await database.write { db in
            let removed = try db.execute("DELETE FROM console_operators WHERE id = ?", id)
            if removed == 1 { try Self.audit(db, id: auditID, entry, at: now) }
            return removed
        }
        guard removed == 1 else { throw ConsoleError.notFound }
    }
}
