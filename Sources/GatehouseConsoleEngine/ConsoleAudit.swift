import Foundation
import GatehouseCore
import GatehouseDatabase

/// One line of the audit log as it is written: who did what to which thing, from where.
public struct AuditEntry: Sendable, Equatable {
    /// The operator's id (nil from the command line, or for a refused sign-in).
    public let actor: String?
    /// A dotted verb (`tenant.create`, `prefix_block.lift`, `number.reveal`).
    public let action: String
    public let target: String?
    public let clientAddress: String?
    /// What was asked, in words (never a secret).
    public let detail: String?

    public init(actor: String?, action: String, target: String? = nil, clientAddress: String? = nil, detail: String? = nil) {
        self.actor = actor
        self.action = action
        self.target = target
        self.clientAddress = clientAddress
        self.detail = detail
    }
}

/// One line of the audit log as it is read, with the operator's email.
public struct AuditRecord: Sendable, Equatable {
    public let id: String
    public let entry: AuditEntry
    public let actorEmail: String?
    public let at: Date
}

extension ConsoleEngine {
    /// The audit row for a change another engine makes: it joins that change's transaction
    /// (see `TransactionAppendix`), so the change and its record commit or roll back together.
    public func auditAppendix(_ entry: AuditEntry) -> TransactionAppendix {
        let (id, clock) = (environment.ids.next().lowercased, environment.clock)
        return TransactionAppendix { db in try Self.audit(db, id: id, entry, at: clock.now) }
    }

    /// Writes an audit row on its own, for what changes nothing but must be recorded (a number revealed).
    public func record(_ entry: AuditEntry) async throws {
        let (id, now) = (environment.ids.next().lowercased, environment.clock.now)
        try await database.write { db in try Self.audit(db, id: id, entry, at: now) }
    }

    /// The audit log, newest first; `before` pages back from a record's time and id.
    public func auditLog(limit: Int = 100, before: (at: Date, id: String)? = nil, action: String? = nil) async throws -> [AuditRecord] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let before {
            conditions.append("(a.at < ? OR (a.at = ? AND a.id < ?))")
            arguments += [before.at.sqlValue, before.at.sqlValue, .text(before.id)]
        }
        if let action, !action.isEmpty {
            conditions.append("a.action = ?")
            arguments.append(.text(action))
        }
        arguments.append(.integer(Int64(min(max(limit, 1), 1000))))
        let sql = """
            SELECT a.*, o.email AS actor_email FROM console_audit a LEFT JOIN console_operators o ON o.id = a.operator_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")) ORDER BY a.at DESC, a.id DESC LIMIT ?
            """
        let bound = arguments
        return try await database.read { db in
            try db.query(sql, bound).map { row in
                AuditRecord(
                    id: try row.get("id"),
                    entry: AuditEntry(
                        actor: try row.get("operator_id"), action: try row.get("action"), target: try row.get("target"),
                        clientAddress: try row.get("client_address"), detail: try row.get("detail")),
                    actorEmail: try row.get("actor_email"), at: try row.get("at"))
            }
        }
    }

    static func audit(_ db: any DatabaseConnection, id: String, _ entry: AuditEntry, at: Date) throws {
        try db.execute(
            "INSERT INTO console_audit (id, operator_id, action, target, client_address, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(id), entry.actor.sqlValue, .text(entry.action), entry.target.sqlValue, entry.clientAddress.sqlValue, entry.detail.sqlValue, at.sqlValue])
    }
}
