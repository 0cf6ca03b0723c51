import Foundation
import GatehouseDatabase

/// Keeps every message in the database instead of sending it, so a developer (or a test)
/// can read the code that "was sent": `GET /admin/v1/outbox?to=…`.
public struct DevelopmentOutbox: MessageDelivery {
    let database: any Database
    let echo: (@Sendable (OutboundMessage) -> Void)?

    /// - Parameter echo: also called with each message (the server prints them in development).
    public init(database: any Database, echo: (@Sendable (OutboundMessage) -> Void)? = nil) {
        self.database = database
        self.echo = echo
    }

    public func deliver(_ message: OutboundMessage) async throws {
        try await database.write { db in
            _ = try db.send(
                // A delivery sent again after its lease ran out is the same message: kept once.
                """
                INSERT INTO outbox_messages (id, tenant_id, to_address, channel, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
                message.id, message.tenantId, message.to, message.channel.rawValue, message.body, message.createdAt)
        }
        echo?(message)
    }

    /// Messages to one recipient, newest first.
    public static func messages(in database: any Database, to recipient: String, limit: Int = 50) async throws -> [OutboundMessage] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM outbox_messages WHERE to_address = ? ORDER BY created_at DESC, id DESC LIMIT ?", recipient, limit
            ).map { row in
                OutboundMessage(
                    id: try row.get("id"), tenantId: try row.get("tenant_id"),
                    channel: OutboundMessage.Channel(rawValue: try row.get("channel")) ?? .sms, to: try row.get("to_address"),
                    body: try row.get("body"), createdAt: try row.get("created_at"))
            }
        }
    }
}
