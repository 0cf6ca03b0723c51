import Foundation
import GatehouseDatabase

/// Which verifications the operators' log shows: one tenant's or all, by status, channel and
/// country, newest first, a page at a time (`before` is the last row of the page before).
public struct VerificationLogFilter: Sendable, Equatable {
    public var tenantID: String?
    public var status: VerificationStatus?
    public var channel: VerificationChannel?
    /// ISO 3166 code of the number's country.
    public var country: String?
    public var before: (at: Date, id: String)?
    public var limit = 50

    public init() {}

    public static func == (left: Self, right: Self) -> Bool {
        left.tenantID == right.tenantID && left.status == right.status && left.channel == right.channel && left.country == right.country
            && left.before?.at == right.before?.at && left.before?.id == right.before?.id && left.limit == right.limit
    }
}

/// One line of the log: the record, its country and carrier receipt, its application's name.
public struct VerificationLogEntry: Sendable, Equatable {
    public let record: VerificationRecord
    public let applicationName: String
    public let country: String?
    public let deliveryStatus: String?
    public let deliveryStatusAt: Date?
}

extension VerificationEngine {
    /// The log of verifications kept (finished ones for `retention`), as the filter asks.
    public func verificationLog(_ filter: VerificationLogFilter) async throws -> [VerificationLogEntry] {
        let now = environment.clock.now
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let tenantID = filter.tenantID {
            conditions.append("v.tenant_id = ?")
            arguments.append(.text(tenantID))
        }
        switch filter.status {
        case nil: break
        case .pending?:
            conditions.append("v.status = 'pending' AND v.expires_at > ?")
            arguments.append(now.sqlValue)
        case .expired?:
            conditions.append("((v.status = 'pending' AND v.expires_at <= ?) OR v.status = 'expired')")
            arguments.append(now.sqlValue)
        case let status?:
            conditions.append("v.status = ?")
            arguments.append(.text(status.rawValue))
        }
        if let channel = filter.channel {
            conditions.append("v.channel = ?")
            arguments.append(.text(channel.rawValue))
        }
        if let country = filter.country {
            conditions.append("v.destination_country = ?")
            arguments.append(.text(country))
        }
        if let before = filter.before {
            conditions.append("(v.created_at < ? OR (v.created_at = ? AND v.id < ?))")
            arguments += [before.at.sqlValue, before.at.sqlValue, .text(before.id)]
        }
        arguments.append(.integer(Int64(min(max(filter.limit, 1), 500))))
        let sql = """
            SELECT v.*, a.name AS application_name FROM verifications v JOIN otp_applications a ON a.id = v.application_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")) ORDER BY v.created_at DESC, v.id DESC LIMIT ?
            """
        let bound = arguments
        return try await database.read { db in
            try db.query(sql, bound).map { row in
                VerificationLogEntry(
                    record: try VerificationRecord(row: row), applicationName: try row.get("application_name"),
                    country: try row.get("destination_country"), deliveryStatus: try row.get("delivery_status"),
                    deliveryStatusAt: try row.get("delivery_status_at"))
            }
        }
    }
}

extension VerificationEngine {
    /// One verification by id, for an operator (any tenant's); nil once it is gone.
    public func verification(id: String) async throws -> VerificationRecord? {
        try await database.read { db in try db.queryOne("SELECT * FROM verifications WHERE id = ?", id).map(VerificationRecord.init(row:)) }
    }
}

/// A message template an application set for one group, channel and language.
public struct MessageTemplate: Sendable, Equatable {
    public let group: String
    public let channel: String
    public let language: String
    public let body: String
}

extension VerificationEngine {
    /// The templates an application set (the defaults are not listed), by group, channel and language.
    public func templates(applicationID: String) async throws -> [MessageTemplate] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM otp_templates WHERE application_id = ? ORDER BY group_name, channel, language", applicationID
            ).map { MessageTemplate(group: try $0.get("group_name"), channel: try $0.get("channel"), language: try $0.get("language"), body: try $0.get("body")) }
        }
    }
}
