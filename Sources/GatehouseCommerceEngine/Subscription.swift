import Foundation
import GatehouseDatabase

/// One App Store subscription chain (all renewals of an `originalTransactionId`), or one line
/// item of a Google Play purchase token, and the account it is linked to; the row behind a
/// plan's entitlement.
public struct Subscription: Sendable, Equatable {
    public let id: String
    public let originalTransactionId: String
    /// The holder: a Gatehouse account id, or `customer:<id>` for SubscriptionFlow; nil until linked.
    public let accountId: String?
    public let planId: String
    public let platformProductId: String
    public let environment: AppStoreEnvironment
    /// `PURCHASED` or `FAMILY_SHARED`.
    public let ownershipType: String
    public let expiresAt: Date
    public let graceExpiresAt: Date?
    public let billingIssueAt: Date?
    /// Set when Apple said the subscription expired (EXPIRED), which ends access even before `expiresAt`.
    public let endedAt: Date?
    public let revokedAt: Date?
    public let autoRenew: Bool?
    /// `apple` or `google`: the store that sells it.
    public let store: String

    /// The entitlement this subscription gives at `now` (server time, never the device's).
    public func state(at now: Date) -> EntitlementState {
        if revokedAt != nil { return EntitlementState(status: .revoked, currentPeriodEnd: expiresAt) }
        if let endedAt, endedAt <= now {
            return EntitlementState(status: .expired, currentPeriodEnd: min(endedAt, expiresAt))
        }
        if now < expiresAt { return EntitlementState(status: .active, currentPeriodEnd: expiresAt) }
        if let grace = graceExpiresAt, now < grace { return EntitlementState(status: .inGrace, currentPeriodEnd: grace) }
        return EntitlementState(status: billingIssueAt != nil ? .billingRetry : .expired, currentPeriodEnd: expiresAt)
    }

    init(_ row: Row) throws {
        id = try row.get("id")
        originalTransactionId = try row.get("original_transaction_id")
        accountId = try row.get("account_id")
        planId = try row.get("plan_id")
        platformProductId = try row.get("platform_product_id")
        environment = AppStoreEnvironment(rawValue: try row.get("environment")) ?? .production
        ownershipType = try row.get("ownership_type")
        expiresAt = try row.get("expires_at")
        graceExpiresAt = try row.get("grace_expires_at")
        billingIssueAt = try row.get("billing_issue_at")
        endedAt = try row.get("ended_at")
        revokedAt = try row.get("revoked_at")
        autoRenew = try row.get("auto_renew")
        store = try row.get("store", as: String?.self) ?? "apple"
    }
}

/// Whether a plan gives access now, and until when.
public struct EntitlementState: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Paid and within its period.
        case active
        /// Renewal failed; access continues until Apple's grace period ends.
        case inGrace = "in_grace"
        /// Renewal failed and grace is over (or there was none); Apple may still recover it.
        case billingRetry = "billing_retry"
        case expired
        /// Refunded, revoked or no longer shared by the family: access ended for good.
        case revoked
        /// No plan on this account.
        case none
    }
    public let status: Status
    public let currentPeriodEnd: Date?

    /// Whether gated workflows may run.
    public var hasAccess: Bool { status == .active || status == .inGrace }

    public static let none = EntitlementState(status: .none, currentPeriodEnd: nil)
}
