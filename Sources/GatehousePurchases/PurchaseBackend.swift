import Foundation

/// What the server said about a reported transaction, reduced to what the manager must do.
public enum ReportVerdict: Sendable, Equatable {
    /// 200: granted or linked. Finish the transaction.
    case accepted(PurchaseReceipt)
    /// Datacove 409 with `canTransfer: true`: the plan is active on another account; ask the user.
    case transferOffered(message: String)
    /// Refused for good (Datacove 409/400 refusals, SubscriptionFlow 409/422). Finish, so it is not redelivered.
    case refused(status: Int, code: PurchasesErrorCode?, message: String)
    /// 401, 429, 5xx, offline: leave it unfinished; StoreKit delivers it again.
    case retryLater(reason: String, retryAfter: TimeInterval?)
}

/// A 200 answer: credits granted, or the plan's entitlement now.
public struct PurchaseReceipt: Sendable, Equatable {
    public enum Kind: String, Sendable { case creditPackage = "credit_package", serviceEntitlement = "service_entitlement", linked }
    public let kind: Kind
    public let creditsGranted: Int?
    public let entitlementStatus: String?
    public let currentPeriodEnd: Date?
    public let transferred: Bool
    /// SubscriptionFlow: a sandbox purchase on a production connection, unlocked for this session only.
    public let sandbox: Bool

    public init(kind: Kind, creditsGranted: Int? = nil, entitlementStatus: String? = nil, currentPeriodEnd: Date? = nil,
                transferred: Bool = false, sandbox: Bool = false) {
        self.kind = kind
        self.creditsGranted = creditsGranted
        self.entitlementStatus = entitlementStatus
        self.currentPeriodEnd = currentPeriodEnd
        self.transferred = transferred
        self.sandbox = sandbox
    }
}

/// The server state the paywall and gated features read.
public struct EntitlementSnapshot: Sendable, Equatable, Codable {
    public struct Plan: Sendable, Equatable, Codable {
        public let productId: String
        public let platformProductId: String
        public let displayName: String
        public let interval: String
        public let gatedWorkflowId: String?
    }
    /// Whether gated features may be used, as the server decided at `serverTime`.
    public let canExecuteGatedWorkflow: Bool
    /// When the server's answer stops holding without a refresh (end of the period or trial), if known.
    public let validUntil: Date?
    public let entitlementStatus: String
    public let trialStatus: String?
    public let trialOfferAvailable: Bool
    public let plans: [Plan]
    public let serverTime: Date
}

/// The dialect the manager reports to: Datacove (signed-in session) or SubscriptionFlow (account token pair).
public protocol PurchaseBackend: Sendable {
    /// The UUID to tag purchases with (SubscriptionFlow's account token); nil for Datacove.
    func appAccountToken() async -> UUID?
    func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict
    func entitlement() async throws -> EntitlementSnapshot
}
