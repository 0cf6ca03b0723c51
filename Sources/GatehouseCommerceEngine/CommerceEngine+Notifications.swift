import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// What the webhook did with an App Store Server Notification.
public enum NotificationOutcome: String, Sendable, Equatable {
    /// It changed a subscription or a credit purchase.
    case applied
    /// Kept for the record only (TEST, CONSUMPTION_REQUEST, unknown products, types we do not act on).
    case recorded
    /// This `notificationUUID` was handled before; nothing changed.
    case duplicate
}

/// A notification whose signature, chain, bundle or environment did not verify for any tenant.
public struct NotificationRejected: Error, Equatable, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}

extension CommerceEngine {
    /// Verifies a Server Notification V2 (all three JWS layers) against the tenant whose bundle
    /// id it names, records it once by `notificationUUID`, and applies it, in one transaction:
    /// a failure leaves nothing behind, so Apple's retry finds it new.
    public func receiveNotification(signedPayload: String) async throws -> NotificationOutcome {
        let claim = try Self.claim(signedPayload)
        var reasons: [String] = []
        for tenantID in try await candidateTenants(claim) {
            let connection = try await storeConnection(tenantID: tenantID)
            let verified: VerifiedNotification
            do {
                verified = try connection.verifier.verifyNotificationContents(signedPayload)
            } catch let error as AppleVerificationError {
                reasons.append(error.code.rawValue)
                continue
            }
            return try await apply(verified, tenantID: tenantID)
        }
        environment.logger.info("notification refused", ["bundle": claim.bundleId, "reasons": reasons.joined(separator: ",")])
        throw NotificationRejected(reason: reasons.first ?? "no tenant has this bundle id")
    }

    /// What a notification claims before anything is trusted: it only orders the tenants whose
    /// verifiers are tried (several may share a bundle id, e.g. production and staging).
    struct NotificationClaim {
        let bundleId: String
        let production: Bool
        let originalTransactionId: String?
    }

    static func claim(_ jws: String) throws -> NotificationClaim {
        struct Inner: Decodable { let originalTransactionId: String? }
        guard let parsed = try? CompactJWS(compact: jws), let identity = try? parsed.decodePayload(NotificationIdentity.self),
              let app = identity.app, let bundle = app.bundleId
        else { throw NotificationRejected(reason: "not a signed notification") }
        let inner = identity.data?.signedTransactionInfo.flatMap { try? CompactJWS(compact: $0).decodePayload(Inner.self) }
        return NotificationClaim(bundleId: bundle, production: app.environment == "Production", originalTransactionId: inner?.originalTransactionId)
    }

    /// The tenants with the claimed bundle id: the one already holding the transaction first,
    /// then those whose production setting matches the claimed environment.
    private func candidateTenants(_ claim: NotificationClaim) async throws -> [String] {
        try await database.read { db in
            let rows = try db.query("SELECT tenant_id, production FROM commerce_apple_configs WHERE bundle_id = ?", [.text(claim.bundleId)])
            var ranked: [(holds: Bool, matches: Bool, id: String)] = []
            for row in rows {
                let id: String = try row.get("tenant_id")
                var holds = false
                if let original = claim.originalTransactionId {
                    holds = try db.queryOne(
                        "SELECT 1 AS found FROM commerce_subscriptions WHERE tenant_id = ? AND original_transaction_id = ?", id, original) != nil
                        || db.queryOne(
                            "SELECT 1 AS found FROM commerce_purchases WHERE tenant_id = ? AND original_transaction_id = ?", id, original) != nil
                }
                ranked.append((holds, try row.get("production", as: Bool.self) == claim.production, id))
            }
            return ranked.sorted { ($0.holds ? 0 : 1, $0.matches ? 0 : 1, $0.id) < ($1.holds ? 0 : 1, $1.matches ? 0 : 1, $1.id) }.map(\.id)
        }
    }

    private func apply(_ verified: VerifiedNotification, tenantID: String) async throws -> NotificationOutcome {
        let now = environment.clock.now
        let note = verified.notification
        let at = note.signedDate ?? now
        let plans = try await plans(tenantID: tenantID)
        let newID = environment.ids.next().lowercased
        for _ in 0..<3 {
            do {
                return try await record(verified, tenantID: tenantID, plans: plans, at: at, newID: newID, now: now)
            } catch let error as DatabaseError where error.kind == .uniqueViolation {
                // A concurrent delivery of the same notification, or a concurrent first report of
                // its subscription, inserted first: try again, which sees that row.
                continue
            }
        }
        throw PurchaseError(.storeUnavailable, .collided(.notification))
    }

    private func record(
        _ verified: VerifiedNotification, tenantID: String, plans: [Plan], at: Date, newID: String, now: Date
    ) async throws -> NotificationOutcome {
        let note = verified.notification
        return try await database.write { db in
            if try db.queryOne("SELECT 1 AS found FROM commerce_notifications WHERE notification_uuid = ?", note.notificationUUID) != nil {
                return .duplicate
            }
            try db.execute(
                """
                INSERT INTO commerce_notifications (notification_uuid, tenant_id, notification_type, subtype, environment,
                  original_transaction_id, transaction_id, consumption_request_reason, outcome, signed_at, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'recorded', ?, ?)
                """,
                [.text(note.notificationUUID), .text(tenantID), .text(note.notificationType), note.subtype.sqlValue,
                 note.data?.environment?.rawValue.sqlValue ?? .null, verified.transaction?.originalTransactionId.sqlValue ?? .null,
                 verified.transaction?.transactionId.sqlValue ?? .null, note.data?.consumptionRequestReason.sqlValue ?? .null,
                 at.sqlValue, now.sqlValue])
            let outcome = try Self.applyFacts(db, verified, tenantID: tenantID, plans: plans, at: at, newID: newID, now: now)
            if outcome == .applied {
                try db.execute("UPDATE commerce_notifications SET outcome = 'applied' WHERE notification_uuid = ?", note.notificationUUID)
            }
            return outcome
        }
    }

    /// Applies one notification's facts to the subscription or credit purchase it is about,
    /// each under `OrderedFacts`' rule: the nested transaction dated by its own `signedDate`, the
    /// notification's verdict by `at`, the notification's.
    static func applyFacts(
        _ db: any DatabaseConnection, _ verified: VerifiedNotification, tenantID: String, plans: [Plan], at: Date, newID: String, now: Date
    ) throws -> NotificationOutcome {
        let type = verified.notification.notificationType
        guard let transaction = verified.transaction, !["TEST", "CONSUMPTION_REQUEST"].contains(type) else { return .recorded }
        guard let plan = plans.first(where: { $0.applePlatformProductId == transaction.productId }) else {
            return try applyToCreditPurchase(db, type: type, transaction: transaction, tenantID: tenantID, at: at, now: now)
        }
        let expiry = try expiry(of: transaction, plan: plan)
        let subscription = try recordTransaction(
            db, tenantID: tenantID, payload: transaction, plan: plan, expiry: expiry, signedAt: transaction.signedDate ?? at, newID: newID, now: now)
        if subscription.accountId == nil, let tag = transaction.appAccountToken, let token = try db.queryOne(
            "SELECT customer_id FROM commerce_account_tokens WHERE token = ? AND tenant_id = ?", tag.lowercased(), tenantID)
        {
            // A SubscriptionFlow purchase tagged with an account token belongs to that token's customer.
            _ = try setHolder(db, subscription, customerHolder(try token.get("customer_id")), now)
        }
        let row = try db.queryOne("SELECT * FROM commerce_subscriptions WHERE id = ?", subscription.id)!
        // A refund of an earlier period leaves the current one alone; only the latest transaction's ends access.
        let aboutLatest = try row.get("latest_transaction_id", as: String.self) == transaction.transactionId
        var facts = OrderedFacts(signedAt: at)
        if let renewal = verified.renewalInfo, let status = renewal.autoRenewStatus {
            facts.set("auto_renew", .boolean(status == 1), in: .autoRenew)
        }
        switch type {
        case "DID_RENEW":
            for column in ["billing_issue_at", "grace_expires_at", "ended_at"] { facts.set(column, .null, in: .lapse) }
        case "DID_FAIL_TO_RENEW":
            // GRACE_PERIOD without a grace end has been seen (notes §2.2): then there is no grace.
            facts.set("billing_issue_at", at.sqlValue, in: .lapse)
            facts.set("grace_expires_at", verified.renewalInfo?.gracePeriodExpiresDate.sqlValue ?? .null, in: .lapse)
        case "GRACE_PERIOD_EXPIRED":
            facts.set("grace_expires_at", .null, in: .lapse)
            facts.set("billing_issue_at", (subscription.billingIssueAt ?? at).sqlValue, in: .lapse)
        case "EXPIRED":
            facts.set("ended_at", min(at, now).sqlValue, in: .lapse)
            facts.set("grace_expires_at", .null, in: .lapse)
        case "REFUND", "REVOKE":
            if aboutLatest { facts.set("revoked_at", (transaction.revocationDate ?? at).sqlValue, in: .revocation) }
        case "REFUND_REVERSED":
            if aboutLatest { facts.set("revoked_at", .null, in: .revocation) }
        default:
            break
        }
        let sets = try facts.assignments(against: row)
        if !sets.isEmpty {
            try db.execute(
                "UPDATE commerce_subscriptions SET " + sets.map { "\($0.0) = ?" }.joined(separator: ", ") + ", updated_at = ? WHERE id = ?",
                sets.map(\.1) + [now.sqlValue, .text(subscription.id)])
        }
        return .applied
    }

    /// REFUND takes back a credit package's credits (never below zero); REFUND_REVERSED gives
    /// them again. Each applies once per transaction, and only under `OrderedFacts`' rule: the
    /// purchase remembers when the last word on its refund was signed (the reported copy's
    /// `signedDate` at first), so a refund delivered after a later reversal takes nothing.
    static func applyToCreditPurchase(
        _ db: any DatabaseConnection, type: String, transaction: TransactionPayload, tenantID: String, at: Date, now: Date
    ) throws -> NotificationOutcome {
        guard ["REFUND", "REFUND_REVERSED"].contains(type), let row = try db.queryOne(
            "SELECT account_id, credits, revoked_at, revocation_as_of FROM commerce_purchases WHERE tenant_id = ? AND transaction_id = ?"
                + db.dialect.forUpdate,
            tenantID, transaction.transactionId)
        else { return .recorded }
        guard OrderedFacts.isCurrent(at, after: try row.get("revocation_as_of", as: Date?.self)) else { return .recorded }
        let revoked = try row.get("revoked_at", as: Date?.self) != nil
        let credits: Int = try row.get("credits")
        let account: String = try row.get("account_id")
        let refunded = type == "REFUND"
        guard refunded != revoked else {
            // Already so: only the time of the latest word moves.
            try db.execute("UPDATE commerce_purchases SET revocation_as_of = ? WHERE tenant_id = ? AND transaction_id = ?",
                           at, tenantID, transaction.transactionId)
            return .recorded
        }
        try db.execute(
            "UPDATE commerce_purchases SET revoked_at = ?, revocation_as_of = ? WHERE tenant_id = ? AND transaction_id = ?",
            [refunded ? (transaction.revocationDate ?? now).sqlValue : .null, at.sqlValue, .text(tenantID), .text(transaction.transactionId)])
        try addCredits(db, tenantID: tenantID, accountID: account, refunded ? -credits : credits)
        return .applied
    }
}
