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
    /// What was bought.
    public enum Kind: String, Sendable {
        /// Datacove: credits added to the wallet.
        case creditPackage = "credit_package"
        /// Datacove: a plan, now held by the account.
        case serviceEntitlement = "service_entitlement"
        /// SubscriptionFlow: the purchase is linked to the customer.
        case linked
    }
    /// What was bought.
    public let kind: Kind
    /// Credits added (credit packages).
    public let creditsGranted: Int?
    /// The plan's state now (plans).
    public let entitlementStatus: String?
    /// The end of the plan's paid period, when it has one.
    public let currentPeriodEnd: Date?
    /// Whether the plan was just moved here from another account.
    public let transferred: Bool
    /// SubscriptionFlow: a sandbox purchase on a production connection, unlocked for this session only.
    public let sandbox: Bool

    /// A receipt; only `kind` is required.
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
    /// A plan the paywall offers.
    public struct Plan: Sendable, Equatable, Codable {
        /// The catalog id.
        public let productId: String
        /// The App Store product id to buy.
        public let platformProductId: String
        /// The name shown to the user.
        public let displayName: String
        /// `monthly`, `annual` or `one_time_year`.
        public let interval: String
        /// The workflow the plan unlocks, if any.
        public let gatedWorkflowId: String?
    }
    /// Whether gated features may be used, as the server decided at `serverTime`.
    public let canExecuteGatedWorkflow: Bool
    /// When the server's answer stops holding without a refresh (end of the period or trial), if known.
    public let validUntil: Date?
    /// The plan's state (`none`, `active`, `in_grace`, …).
    public let entitlementStatus: String
    /// The trial's state, where the dialect has trials.
    public let trialStatus: String?
    /// Whether the paywall may offer the trial.
    public let trialOfferAvailable: Bool
    /// The plans the paywall offers.
    public let plans: [Plan]
    /// The server's clock when it answered, which timing uses instead of the device's.
    public let serverTime: Date
}

/// The dialect the manager reports to: Datacove (signed-in session) or SubscriptionFlow (account token pair).
public protocol PurchaseBackend: Sendable {
    /// The UUID to tag purchases with (SubscriptionFlow's account token); nil for Datacove.
    func appAccountToken() async -> UUID?
    /// Reports a verified transaction; `transferToCurrentAccount` after the user agreed to move a plan.
    func report(_ transaction: StoreTransaction, transferToCurrentAccount: Bool) async -> ReportVerdict
    /// Reads the entitlement from the server.
    func entitlement() async throws -> EntitlementSnapshot
}
