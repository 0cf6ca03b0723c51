import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// What the app reported (seed 000 §07, `verify-purchase`).
public struct PurchaseReport: Sendable, Equatable {
    public var platform: String
    public var platformProductId: String
    public var transactionId: String
    public var signedTransaction: String?
    public var transferToCurrentAccount: Bool
    public init(platform: String, platformProductId: String, transactionId: String, signedTransaction: String?, transferToCurrentAccount: Bool) {
        self.platform = platform
        self.platformProductId = platformProductId
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.transferToCurrentAccount = transferToCurrentAccount
    }
}

/// What a verified report did.
public enum PurchaseOutcome: Sendable, Equatable {
    case creditPackage(creditsGranted: Int)
}

/// A purchase the server will not take; `code` is the Datacove `error.code`.
public struct PurchaseError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case storeNotConfigured = "STORE_NOT_CONFIGURED"
        case purchaseInvalid = "PURCHASE_INVALID"
        case productUnknown = "PRODUCT_UNKNOWN"
        case purchaseRevoked = "PURCHASE_REVOKED"
        case linkedToAnotherAccount = "PURCHASE_LINKED_TO_ANOTHER_ACCOUNT"
        case storeUnavailable = "STORE_UNAVAILABLE"
    }
    public let code: Code
    public let message: String
    /// For `PURCHASE_LINKED_TO_ANOTHER_ACCOUNT`: whether a move may be offered.
    public let canTransfer: Bool?
    public init(_ code: Code, _ message: String, canTransfer: Bool? = nil) {
        self.code = code
        self.message = message
        self.canTransfer = canTransfer
    }
}

extension CommerceEngine {
    /// Verifies a reported App Store transaction and grants what it bought, once: the
    /// transaction id is the idempotency key, so reporting it again changes nothing.
    /// Credit packages are handled here; plans come with the entitlement engine.
    public func verifyPurchase(tenantID: String, accountID: String, _ report: PurchaseReport, appStoreAPIOverride: URL? = nil)
        async throws -> PurchaseOutcome
    {
        guard report.platform == "apple" else { throw PurchaseError(.purchaseInvalid, "platform must be apple") }
        guard !report.transactionId.isEmpty, report.transactionId.allSatisfy(\.isASCII), report.transactionId.allSatisfy(\.isNumber) else {
            throw PurchaseError(.purchaseInvalid, "transactionId must be the App Store transaction id")
        }
        let stored = try await database.read { db in
            try db.queryOne("SELECT * FROM commerce_apple_configs WHERE tenant_id = ?", tenantID)
        }
        guard let stored, let config = try Self.appleConfig(stored), let bundleID = config.bundleId else {
            throw PurchaseError(.storeNotConfigured, "The App Store connection of this app is not set up.")
        }
        let verifier = try SignedDataVerifier(
            bundleId: bundleID, appAppleId: config.appAppleId, allowsTestEnvironments: !config.production,
            extraTrustedRootPEM: config.extraTrustedRootPEM)
        let signed = try await signedTransaction(report, stored: stored, bundleID: bundleID, override: appStoreAPIOverride)
        let payload: TransactionPayload
        do {
            payload = try verifier.verifyTransaction(signed)
        } catch let error as AppleVerificationError {
            environment.logger.info("purchase refused", ["code": "\(error.code)", "tenant": tenantID])
            throw PurchaseError(.purchaseInvalid, "The transaction could not be verified.")
        }
        guard payload.transactionId == report.transactionId, payload.productId == report.platformProductId else {
            throw PurchaseError(.purchaseInvalid, "The transaction does not match the reported product.")
        }
        if payload.revocationDate != nil { throw PurchaseError(.purchaseRevoked, "This purchase was refunded or revoked.") }
        let packages = try await creditPackages(tenantID: tenantID)
        guard let package = packages.first(where: { $0.platformProductId == payload.productId }) else {
            throw PurchaseError(.productUnknown, "This product is not sold here.")
        }
        let credits = package.credits * max(1, payload.quantity ?? 1)
        do {
            return try await grant(tenantID: tenantID, accountID: accountID, payload: payload, credits: credits)
        } catch let error as DatabaseError where error.kind == .uniqueViolation {
            // A concurrent report of the same transaction inserted first (PostgreSQL locks no
            // row that does not exist yet); the second attempt finds it and answers the same.
            return try await grant(tenantID: tenantID, accountID: accountID, payload: payload, credits: credits)
        }
    }

    /// Records the purchase and credits the wallet, or finds the earlier grant.
    private func grant(tenantID: String, accountID: String, payload: TransactionPayload, credits: Int) async throws -> PurchaseOutcome {
        let now = environment.clock.now
        return try await database.write { db in
            if let existing = try db.queryOne(
                "SELECT account_id, credits FROM commerce_purchases WHERE tenant_id = ? AND transaction_id = ?" + db.dialect.forUpdate,
                tenantID, payload.transactionId)
            {
                guard try existing.get("account_id", as: String.self) == accountID else {
                    // Credits already spent on another account cannot move with the purchase.
                    throw PurchaseError(.linkedToAnotherAccount, "This purchase belongs to another account.", canTransfer: false)
                }
                return .creditPackage(creditsGranted: try existing.get("credits"))
            }
            try db.execute(
                """
                INSERT INTO commerce_purchases (tenant_id, transaction_id, original_transaction_id, account_id, platform_product_id,
                  kind, credits, environment, signed_at, created_at) VALUES (?, ?, ?, ?, ?, 'credit_package', ?, ?, ?, ?)
                """,
                [.text(tenantID), .text(payload.transactionId), .text(payload.originalTransactionId), .text(accountID),
                 .text(payload.productId), .integer(Int64(credits)), .text(payload.environment.rawValue), payload.signedDate.sqlValue,
                 now.sqlValue])
            try db.execute(
                """
                INSERT INTO commerce_wallets (tenant_id, account_id, kind, credits) VALUES (?, ?, 'WALLET', ?)
                ON CONFLICT (tenant_id, account_id, kind) DO UPDATE SET credits = commerce_wallets.credits + excluded.credits
                """,
                [.text(tenantID), .text(accountID), .integer(Int64(credits))])
            return .creditPackage(creditsGranted: credits)
        }
    }

    /// The account's credits by kind (`WALLET`, `TRIAL`, `SUBSCRIPTION`), zero where none.
    public func wallet(tenantID: String, accountID: String) async throws -> [String: Int] {
        try await database.read { db in
            var wallet = ["WALLET": 0, "TRIAL": 0, "SUBSCRIPTION": 0]
            for row in try db.query("SELECT kind, credits FROM commerce_wallets WHERE tenant_id = ? AND account_id = ?", [.text(tenantID), .text(accountID)]) {
                wallet[try row.get("kind")] = try row.get("credits")
            }
            return wallet
        }
    }

    /// The signed transaction: as reported, or fetched from the App Store Server API by id.
    private func signedTransaction(_ report: PurchaseReport, stored: Row, bundleID: String, override: URL?) async throws -> String {
        if let signed = report.signedTransaction { return signed }
        let issuer: String? = try stored.get("issuer_id")
        let keyID: String? = try stored.get("key_id")
        let key: String? = try stored.get("private_key")
        guard let issuer, let keyID, let key else {
            throw PurchaseError(.storeNotConfigured, "Send signedTransaction, or set up the App Store Server API key.")
        }
        let api = AppStoreServerAPI(
            credentials: AppStoreCredentials(issuerId: issuer, keyId: keyID, privateKeyPEM: key, bundleId: bundleID),
            http: environment.http, clock: environment.clock, overrideURL: override)
        do {
            return try await api.transactionInfo(id: report.transactionId).signedTransaction
        } catch let error as AppStoreAPIError where error.isRetryable {
            throw PurchaseError(.storeUnavailable, "The App Store could not be reached. Try again.")
        } catch is AppStoreAPIError {
            throw PurchaseError(.purchaseInvalid, "The App Store does not know this transaction.")
        }
    }

    static func appleConfig(_ row: Row) throws -> AppleConfig? {
        let key: String? = try row.get("private_key")
        return AppleConfig(
            bundleId: try row.get("bundle_id"), issuerId: try row.get("issuer_id"), keyId: try row.get("key_id"),
            appAppleId: try row.get("app_apple_id"), hasPrivateKey: key != nil, production: try row.get("production"),
            extraTrustedRootPEM: try row.get("extra_trusted_root_pem"))
    }
}
