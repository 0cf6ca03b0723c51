import Foundation
import GatehouseCore
import GatehouseDatabase

/// What one sweep of the Google Play store did.
public struct GooglePlaySweep: Sendable, Equatable {
    /// Acknowledgements and consumptions retried and accepted by Google.
    public var settled = 0
    /// Retried and failed again (left for a later sweep, backing off).
    public var failed = 0
    /// Voids found by the `voidedpurchases.list` backstop that changed a grant.
    public var voided = 0
}

extension CommerceEngine {
    /// How long the reporting path has to settle a grant itself before the sweeper tries.
    static let settleGrace: TimeInterval = 60
    /// Google refunds and revokes a purchase left unacknowledged this long: no retry helps after it.
    static let acknowledgementDeadline: TimeInterval = 3 * 86_400
    /// How often each tenant's voided purchases are read (the API keeps 30 days of them).
    static let voidedCheckInterval: TimeInterval = 86_400
    /// Google keeps 30 days and refuses a `startTime` older than that: a day's margin.
    static let voidedWindow: TimeInterval = 29 * 86_400

    /// The Google Play store's housekeeping: retries acknowledgements and consumptions that
    /// failed (the n-th retry waits 2ⁿ minutes, at most an hour, and none after Google's three
    /// days), and once a day per tenant reads `voidedpurchases.list` for voids whose
    /// notification never came. Each node may sweep: claims in the database keep the work single.
    public func sweepGooglePlay() async throws -> GooglePlaySweep {
        var sweep = GooglePlaySweep()
        var connections: [String: GooglePlayConnection?] = [:]
        func connection(_ tenantID: String) async -> GooglePlayConnection? {
            if let known = connections[tenantID] { return known }
            let made = try? await googlePlayConnection(tenantID: tenantID)
            connections[tenantID] = made
            return made
        }
        for (tenantID, tokenHash) in try await unsettledGrants() {
            guard let tenant = await connection(tenantID) else {
                // The tenant's connection is broken (its key no longer opens, say): its grants wait ten minutes, not others'.
                let later = environment.clock.now.addingTimeInterval(600)
                _ = try await database.write { db in
                    try db.execute("UPDATE commerce_google_tokens SET next_settle_at = ? WHERE tenant_id = ? AND token_hash = ?", later, tenantID, tokenHash)
                }
                sweep.failed += 1
                continue
            }
            await settleGooglePurchase(tenantID: tenantID, tokenHash: tokenHash, connection: tenant)
            let settled = try await database.read { db in
                try db.queryOne("SELECT settled_at FROM commerce_google_tokens WHERE tenant_id = ? AND token_hash = ?", tenantID, tokenHash)?
                    .get("settled_at", as: Date?.self) != nil
            }
            if settled { sweep.settled += 1 } else { sweep.failed += 1 }
        }
        for tenantID in try await claimVoidedChecks() {
            do {
                guard let tenant = await connection(tenantID) else { throw PurchaseError(.storeNotConfigured, .google(.notSetUp)) }
                sweep.voided += try await readVoidedPurchases(tenantID: tenantID, connection: tenant)
            } catch {
                // Tried again in an hour rather than tomorrow (the list's quota is small).
                environment.logger.warning("google play voided purchases not read", ["tenant": tenantID, "error": "\(error)"])
                let retry = environment.clock.now.addingTimeInterval(3600 - Self.voidedCheckInterval)
                _ = try? await database.write { db in
                    try db.execute("UPDATE commerce_google_play_configs SET voided_checked_at = ? WHERE tenant_id = ?", retry, tenantID)
                }
            }
        }
        return sweep
    }

    /// Grants Google still waits to hear of, past the reporting path's grace, within Google's
    /// three days, whose backoff has passed; oldest first, at most 200 a sweep.
    private func unsettledGrants() async throws -> [(String, String)] {
        let now = environment.clock.now
        let rows = try await database.read { db in
            try db.query(
                """
                SELECT tenant_id, token_hash FROM commerce_google_tokens
                WHERE settled_at IS NULL AND settle IS NOT NULL AND granted_at IS NOT NULL AND granted_at > ? AND granted_at <= ?
                  AND (next_settle_at IS NULL OR next_settle_at <= ?) AND (settle_claimed_at IS NULL OR settle_claimed_at < ?)
                ORDER BY granted_at LIMIT 200
                """,
                [now.addingTimeInterval(-Self.acknowledgementDeadline).sqlValue, now.addingTimeInterval(-Self.settleGrace).sqlValue, now.sqlValue,
                 now.addingTimeInterval(-Self.settleClaimLifetime).sqlValue])
        }
        return try rows.map { (try $0.get("tenant_id"), try $0.get("token_hash")) }
    }

    /// The tenants whose voided purchases are due to be read, each claimed for this sweep.
    private func claimVoidedChecks() async throws -> [String] {
        let now = environment.clock.now
        let due = now.addingTimeInterval(-Self.voidedCheckInterval)
        return try await database.write { db in
            let rows = try db.query(
                """
                SELECT tenant_id FROM commerce_google_play_configs
                WHERE package_name IS NOT NULL AND service_account_key IS NOT NULL AND (voided_checked_at IS NULL OR voided_checked_at <= ?)
                """,
                [due.sqlValue])
            return try rows.compactMap { row in
                let tenantID: String = try row.get("tenant_id")
                let claimed = try db.execute(
                    "UPDATE commerce_google_play_configs SET voided_checked_at = ? WHERE tenant_id = ? AND (voided_checked_at IS NULL OR voided_checked_at <= ?)",
                    now, tenantID, due)
                return claimed == 1 ? tenantID : nil
            }
        }
    }

    /// Applies every void Google reports for the last 30 days (at most 50 pages); answers how many changed a grant.
    private func readVoidedPurchases(tenantID: String, connection: GooglePlayConnection) async throws -> Int {
        let now = environment.clock.now
        var (changed, page, pages) = (0, String?.none, 0)
        repeat {
            let token = page
            let (voided, next) = try await askGoogle(tenantID: tenantID) {
                try await connection.api.voidedPurchases(since: now.addingTimeInterval(-Self.voidedWindow), pageToken: token)
            }
            for purchase in voided
            where try await voidGooglePurchase(tenantID: tenantID, token: purchase.purchaseToken, orderID: purchase.orderID, at: purchase.voidedAt ?? now) {
                changed += 1
            }
            (page, pages) = (next, pages + 1)
        } while page != nil && pages < 50
        return changed
    }

    /// Grants Google has not heard of a day after they were made, by tenant: the `/metrics`
    /// gauge that warns before Google's three days run out (the server reads it each sweep).
    public func unacknowledgedGooglePurchases(olderThan age: TimeInterval = 86_400) async throws -> [String: Int] {
        let before = environment.clock.now.addingTimeInterval(-age)
        return try await database.read { db in
            var counts: [String: Int] = [:]
            for row in try db.query(
                """
                SELECT tenant_id, COUNT(*) AS n FROM commerce_google_tokens
                WHERE settled_at IS NULL AND settle IS NOT NULL AND granted_at IS NOT NULL AND granted_at <= ? GROUP BY tenant_id
                """,
                [before.sqlValue])
            {
                counts[try row.get("tenant_id")] = try row.get("n")
            }
            return counts
        }
    }
}
