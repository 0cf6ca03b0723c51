import Foundation
import GatehouseDatabase

/// Flows hold numbers, addresses and sealed identity data only as long as they are useful: a
/// day after expiry a flow is deleted (the backend has long called Complete or given up), and
/// expired bearer tokens go with it.
extension PossessionEngine {
    /// How long an expired flow is kept, for the operator's questions about it.
    static let flowRetention: TimeInterval = 24 * 3600

    /// Deletes flows past their retention and expired access tokens; returns the flows deleted.
    @discardableResult
    public func sweep() async throws -> Int {
        let now = self.now
        return try await database.write { db in
            try db.execute("DELETE FROM possession_access_tokens WHERE expires_at <= ?", now)
            return try db.execute("DELETE FROM possession_flows WHERE expires_at <= ?", now.addingTimeInterval(-Self.flowRetention))
        }
    }
}
