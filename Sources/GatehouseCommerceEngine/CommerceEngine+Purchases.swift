import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// What the app reported (seed 000 §07, `verify-purchase`).
public struct PurchaseReport: Sendable, Equatable {
    /// `apple` or `google`.
    public var platform: String
    public var platformProductId: String
    /// The App Store transaction id (`apple`).
    public var transactionId: String
    public var signedTransaction: String?
    /// The Play Billing purchase token (`google`).
    public var purchaseToken: String?
    public var transferToCurrentAccount: Bool
    public init(
        platform: String, platformProductId: String, transactionId: String, signedTransaction: String?, purchaseToken: String? = nil,
        transferToCurrentAccount: Bool
    ) {
        self.platform = platform
        self.platformProductId = platformProductId
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.purchaseToken = purchaseToken
        self.transferToCurrentAccount = transferToCurrentAccount
    }
}

/// What a verified report did.
public enum PurchaseOutcome: Sendable, Equatable {
    case creditPackage(creditsGranted: Int)
    /// A plan: its entitlement now, and whether this report moved it from another account.
    case serviceEntitlement(EntitlementState, transferred: Bool)
}

/// A purchase the commerce engine will not take, in its own terms. It carries no text:
/// `reason` says what was refused, as data, and the dialects word it
/// (`PurchaseError+Text.swift` in the server).
public struct PurchaseError: Error, Equatable, Sendable {
    public enum Code: Sendable, CaseIterable {
        /// The tenant's App Store connection is missing what this needs.
        case storeNotConfigured
        /// The transaction is malformed, unverifiable or not what was reported.
        case purchaseInvalid
        /// The product is not sold by this tenant.
        case productUnknown
        /// The purchase was refunded or revoked.
        case purchaseRevoked
        /// The purchase or plan belongs to another account.
        case linkedToAnotherAccount
        /// The App Store could not be reached, or the change collided; retry.
        case storeUnavailable
        /// No active trial or subscription covers this.
        case entitlementInactive
        /// No trial is available for this account.
        case trialUnavailable
    }
    /// What was refused.
    public enum Reason: Equatable, Sendable {
        case storeNotSetUp
        case signedTransactionMissing
        case unverifiable
        /// No signed transaction was sent and no App Store Server API key is set up to look it up.
        case nothingToLookUpWith
        case storeUnreachable
        case unknownToStore
        /// The change collided with a concurrent one (a notification, a link); retry.
        case collided(Collision)
        case noTrial
        case entitlementInactive
        /// The purchase (or plan) is linked to another account (or workspace).
        case linkedElsewhere(Link)
        case noPurchaseDate
        case noExpiry
        /// `platform` is neither `apple` nor `google`.
        case platformUnknown
        /// What only the Google Play path refuses.
        case google(GooglePlayRefusal)
        case transactionIDMalformed
        case productMismatch
        case revoked
        case creditPackageNotConsumable
        /// A plan of this interval must be a product of this App Store type.
        case planTypeMismatch(interval: String, expectedType: String)
        case productNotSold
    }

    public enum Collision: Equatable, Sendable { case notification, link }
    public enum GooglePlayRefusal: Equatable, Sendable {
        /// No package name or service account key is saved.
        case notSetUp
        /// A service account key is saved but does not open under this server's `store-secret-key`.
        case keyUnreadable
        /// Google refused the service account (a wrong key, or one not granted access to the app yet).
        case accessRefused
        /// `purchaseToken` is missing, or not a token Google issues.
        case purchaseTokenMalformed
        /// A test purchase (license tester) on a production configuration.
        case testPurchase
        /// The purchase is still pending (a cash payment not made yet, say).
        case pending
        /// Google Play could not be reached (or answered 5xx); retry.
        case unreachable
        /// Google knows no such purchase token (for this package).
        case unknownToStore
        /// Google's answer about the purchase is not what its API documents.
        case unreadable
        /// Reported from an app whose key is not an Android one.
        case notAndroid
    }
    public enum Link: Equatable, Sendable { case purchaseToAccount, purchaseToWorkspace, planToAccount }

    public let code: Code
    public let reason: Reason
    /// For `.linkedToAnotherAccount`: whether a move may be offered.
    public let canTransfer: Bool?
    public init(_ code: Code, _ reason: Reason, canTransfer: Bool? = nil) {
        self.code = code
        self.reason = reason
        self.canTransfer = canTransfer
    }
}

extension CommerceEngine {
    /// Verifies a reported App Store transaction and grants what it bought, once: the
    /// transaction id is the idempotency key for credits, the original transaction id the
    /// account link of a plan, so reporting either again changes nothing.
    public func verifyPurchase(tenantID: String, accountID: String, _ report: PurchaseReport, appStoreAPIOverride: URL? = nil)
        async throws -> PurchaseOutcome
    {
        if report.platform == "google" { return try await verifyGooglePurchase(tenantID: tenantID, accountID: accountID, report) }
        guard report.platform == "apple" else { throw PurchaseError(.purchaseInvalid, .platformUnknown) }
        guard !report.transactionId.isEmpty, report.transactionId.count <= 40, report.transactionId.allSatisfy(\.isASCII),
              report.transactionId.allSatisfy(\.isNumber)
        else {
            throw PurchaseError(.purchaseInvalid, .transactionIDMalformed)
        }
        let connection = try await storeConnection(tenantID: tenantID)
        let payload = try await verifiedTransaction(
            tenantID: tenantID, connection: connection, signed: report.signedTransaction, transactionID: report.transactionId,
            override: appStoreAPIOverride)
        guard payload.transactionId == report.transactionId, payload.productId == report.platformProductId else {
            throw PurchaseError(.purchaseInvalid, .productMismatch)
        }
        switch try await product(tenantID: tenantID, payload: payload) {
        case .creditPackage(let package):
            if payload.revocationDate != nil { throw PurchaseError(.purchaseRevoked, .revoked) }
            return try await grantCredits(tenantID: tenantID, accountID: accountID, payload: payload, package: package)
        case .plan(let plan):
            let link = try await linkPlan(
                tenantID: tenantID, holder: accountID, payload: payload, plan: plan,
                transfer: report.transferToCurrentAccount ? .whenAsked : .automaticOnly)
            return .serviceEntitlement(link.subscription.state(at: environment.clock.now), transferred: link.transferred)
        }
    }

    /// What a verified transaction bought, or `PRODUCT_UNKNOWN`.
    func product(tenantID: String, payload: TransactionPayload) async throws -> CatalogueProduct {
        // An App Store transaction buys only what is sold through the App Store.
        let (packages, plans) = try await database.read { db in
            (try Self.creditPackages(db, tenantID, provider: "apple"), try Self.plans(db, tenantID))
        }
        if let package = packages.first(where: { $0.platformProductId == payload.productId }) {
            if let type = payload.type, type != "Consumable" { throw PurchaseError(.purchaseInvalid, .creditPackageNotConsumable) }
            return .creditPackage(package)
        }
        if let plan = plans.first(where: { $0.applePlatformProductId == payload.productId }) {
            let expected = plan.interval == .oneTimeYear ? "Non-Renewing Subscription" : "Auto-Renewable Subscription"
            if let type = payload.type, type != expected { throw PurchaseError(.purchaseInvalid, .planTypeMismatch(interval: plan.interval.rawValue, expectedType: expected)) }
            return .plan(plan)
        }
        throw PurchaseError(.productUnknown, .productNotSold)
    }

    func grantCredits(tenantID: String, accountID: String, payload: TransactionPayload, package: CreditPackage) async throws -> PurchaseOutcome {
        let now = environment.clock.now
        let purchase = CreditPurchase(
            transactionID: payload.transactionId, chain: payload.originalTransactionId, productID: payload.productId,
            credits: package.credits * max(1, payload.quantity ?? 1), environment: payload.environment.rawValue, signedAt: payload.signedDate,
            // The copy is Apple's word that the purchase stood unrefunded when it was signed.
            revocationAsOf: payload.signedDate ?? now, store: nil)
        return try await grantCredits(tenantID: tenantID, accountID: accountID, purchase)
    }

    /// Records the purchase and credits the wallet once per `transactionID`. In the granting
    /// transaction, `first` runs before anything is read (Google's locks the token's row) and
    /// `then` once the purchase is the account's (Google's marks it for consumption).
    func grantCredits(
        tenantID: String, accountID: String, _ purchase: CreditPurchase, first: @escaping Step = { _ in }, then: @escaping Step = { _ in }
    ) async throws -> PurchaseOutcome {
        do {
            return try await grant(tenantID: tenantID, accountID: accountID, purchase, first: first, then: then)
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A concurrent report of the same transaction inserted first (PostgreSQL locks no
            // row that does not exist yet); the second attempt finds it and answers the same.
            return try await grant(tenantID: tenantID, accountID: accountID, purchase, first: first, then: then)
        }
    }

    typealias Step = @Sendable (any DatabaseConnection) throws -> Void

    /// Records the purchase and credits the wallet, or finds the earlier grant.
    private func grant(tenantID: String, accountID: String, _ purchase: CreditPurchase, first: @escaping Step, then: @escaping Step) async throws
        -> PurchaseOutcome
    {
        let now = environment.clock.now
        return try await database.write { db in
            try first(db)
            if let existing = try db.queryOne(
                "SELECT account_id, credits FROM commerce_purchases WHERE tenant_id = ? AND transaction_id = ?" + db.dialect.forUpdate,
                tenantID, purchase.transactionID)
            {
                guard try existing.get("account_id", as: String.self) == accountID else {
                    // Credits already spent on another account cannot move with the purchase.
                    throw PurchaseError(.linkedToAnotherAccount, .linkedElsewhere(.purchaseToAccount), canTransfer: false)
                }
                try then(db)
                return .creditPackage(creditsGranted: try existing.get("credits"))
            }
            try db.execute(
                """
                INSERT INTO commerce_purchases (tenant_id, transaction_id, original_transaction_id, account_id, platform_product_id,
                  kind, credits, environment, signed_at, revocation_as_of, store, created_at)
                VALUES (?, ?, ?, ?, ?, 'credit_package', ?, ?, ?, ?, ?, ?)
                """,
                [.text(tenantID), .text(purchase.transactionID), .text(purchase.chain), .text(accountID), .text(purchase.productID),
                 .integer(Int64(purchase.credits)), .text(purchase.environment), purchase.signedAt.sqlValue, purchase.revocationAsOf.sqlValue,
                 purchase.store.sqlValue, now.sqlValue])
            try Self.addCredits(db, tenantID: tenantID, accountID: accountID, purchase.credits)
            try then(db)
            return .creditPackage(creditsGranted: purchase.credits)
        }
    }

    /// Adds (or, when negative, removes) `WALLET` credits; a balance never drops below zero.
    static func addCredits(_ db: any DatabaseConnection, tenantID: String, accountID: String, _ credits: Int) throws {
        if credits >= 0 {
            try db.execute(
                """
                INSERT INTO commerce_wallets (tenant_id, account_id, kind, credits) VALUES (?, ?, 'WALLET', ?)
                ON CONFLICT (tenant_id, account_id, kind) DO UPDATE SET credits = commerce_wallets.credits + excluded.credits
                """,
                [.text(tenantID), .text(accountID), .integer(Int64(credits))])
        } else {
            try db.execute(
                """
                UPDATE commerce_wallets SET credits = CASE WHEN credits + ? < 0 THEN 0 ELSE credits + ? END
                WHERE tenant_id = ? AND account_id = ? AND kind = 'WALLET'
                """,
                [.integer(Int64(credits)), .integer(Int64(credits)), .text(tenantID), .text(accountID)])
        }
    }

    /// The account's credits by kind (`WALLET`, `TRIAL`, `SUBSCRIPTION`), zero where none.
    public func wallet(tenantID: String, accountID: String) async throws -> [String: Int] {
        try await database.read { db in try Self.wallet(db, tenantID: tenantID, accountID: accountID) }
    }

    /// The wallet, read in a transaction the caller holds (a profile read's, say).
    public static func wallet(_ db: any DatabaseConnection, tenantID: String, accountID: String) throws -> [String: Int] {
        var wallet = ["WALLET": 0, "TRIAL": 0, "SUBSCRIPTION": 0]
        for row in try db.query("SELECT kind, credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ?", [.text(tenantID), .text(accountID)]) {
            wallet[try row.get("kind")] = try row.get("credits")
        }
        return wallet
    }
}

/// A credit package bought once, by either store: the row of `commerce_purchases` it makes.
struct CreditPurchase: Sendable {
    /// The idempotency key: Apple's transaction id, Google's order id.
    let transactionID: String
    /// Apple's original transaction id; `google:<token hash>` for Google.
    let chain: String
    let productID: String
    let credits: Int
    /// `Production`, `Sandbox`, `Xcode`.
    let environment: String
    let signedAt: Date?
    /// When the purchase was last known unrefunded.
    let revocationAsOf: Date
    /// nil for the App Store (rows from before Google), `google`.
    let store: String?
}

/// What a product id in a verified transaction stands for in the tenant's catalogue.
enum CatalogueProduct {
    case creditPackage(CreditPackage)
    case plan(Plan)
}
