import Foundation
import GatehouseDatabase

/// A possession flow as operators list it: never its tokens, its sealed identity data or its code.
public struct PossessionFlowSummary: Sendable, Equatable {
    public let id: String
    public let flowType: String
    public let environment: String
    /// The number the flow was started for, or the one the device proved (to be masked by the viewer).
    public let phoneNumber: String?
    public let deviceStep: String
    public let serverStep: String
    /// `success`, `failure` … once decided; nil while the flow runs.
    public let outcome: String?
    public let testMode: Bool
    public let createdAt: Date
    public let expiresAt: Date
}

extension PossessionEngine {
    /// The tenant's flows, newest first (ended ones are kept until the sweep removes them).
    public func flows(tenantID: String, limit: Int = 50) async throws -> [PossessionFlowSummary] {
        try await database.read { db in
            try db.query(
                "SELECT * FROM possession_flows WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                [.text(tenantID), .integer(Int64(min(max(limit, 1), 500)))]
            ).map { row in
                let possessed: String? = try row.get("possessed_number")
                let started: String? = try row.get("phone_number")
                return PossessionFlowSummary(
                    id: try row.get("id"), flowType: try row.get("flow_type"), environment: try row.get("environment"),
                    phoneNumber: possessed ?? started, deviceStep: try row.get("device_step"),
                    serverStep: try row.get("server_step"), outcome: try row.get("outcome"), testMode: try row.get("test_mode"),
                    createdAt: try row.get("created_at"), expiresAt: try row.get("expires_at"))
            }
        }
    }
}
