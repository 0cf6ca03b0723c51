import Foundation
import GatehouseCore
import GatehouseDatabase

/// A tenant's App Store connection as the engine uses it: the verifier and the API credentials.
struct StoreConnection: Sendable {
    let config: AppleConfig
    let bundleId: String
    let verifier: SignedDataVerifier
    let credentials: AppStoreCredentials?
    /// SubscriptionFlow: untagged Apple purchases may be claimed by the app.
    let claimsUntaggedPurchases: Bool
}

extension CommerceEngine {
    /// The tenant's verifier and credentials, or `STORE_NOT_CONFIGURED`.
    func storeConnection(tenantID: String) async throws -> StoreConnection {
        let stored = try await database.read { db in
            try db.queryOne("SELECT * FROM commerce_apple_configs WHERE tenant_id = ?", tenantID)
        }
        guard let stored, let config = try Self.appleConfig(stored), let bundleID = config.bundleId else {
            throw PurchaseError(.storeNotConfigured, .storeNotSetUp)
        }
        var verifier = try SignedDataVerifier(
            bundleId: bundleID, appAppleId: config.appAppleId, allowsTestEnvironments: !config.production,
            extraTrustedRootPEM: config.extraTrustedRootPEM, xcodeCertificatePEM: config.xcodeCertificatePEM)
        if config.production, !productionTestRoots.isEmpty {
            verifier = SignedDataVerifier(
                bundleId: bundleID, appAppleId: config.appAppleId, allowsTestEnvironments: false,
                trustedRoots: verifier.trustedRoots + productionTestRoots)
        }
        var credentials: AppStoreCredentials?
        if let issuer: String = try stored.get("issuer_id"), let keyID: String = try stored.get("key_id"),
           let key: String = try stored.get("private_key")
        {
            credentials = AppStoreCredentials(issuerId: issuer, keyId: keyID, privateKeyPEM: key, bundleId: bundleID)
        }
        return StoreConnection(
            config: config, bundleId: bundleID, verifier: verifier, credentials: credentials,
            claimsUntaggedPurchases: try stored.get("claim_untagged_purchases", as: Bool?.self) ?? false)
    }

    /// Verifies the signed transaction as reported, or as fetched from the App Store Server API
    /// when only its id was sent. Every verification failure is one `PURCHASE_INVALID`.
    func verifiedTransaction(
        tenantID: String, connection: StoreConnection, signed: String?, transactionID: String?, override: URL?
    ) async throws -> TransactionPayload {
        let jws: String
        if let signed {
            jws = signed
        } else if let transactionID {
            jws = try await fetchTransaction(transactionID, connection: connection, override: override)
        } else {
            throw PurchaseError(.purchaseInvalid, .signedTransactionMissing)
        }
        do {
            return try connection.verifier.verifyTransaction(jws)
        } catch let error as AppleVerificationError {
            environment.logger.info("purchase refused", ["code": "\(error.code)", "tenant": tenantID])
            throw PurchaseError(.purchaseInvalid, .unverifiable)
        }
    }

    private func fetchTransaction(_ id: String, connection: StoreConnection, override: URL?) async throws -> String {
        guard let credentials = connection.credentials else {
            throw PurchaseError(.storeNotConfigured, .nothingToLookUpWith)
        }
        let api = AppStoreServerAPI(credentials: credentials, http: environment.http, clock: environment.clock, overrideURL: override)
        do {
            return try await api.transactionInfo(id: id).signedTransaction
        } catch let error as AppStoreAPIError where error.isRetryable {
            throw PurchaseError(.storeUnavailable, .storeUnreachable)
        } catch is AppStoreAPIError {
            throw PurchaseError(.purchaseInvalid, .unknownToStore)
        }
    }

    static func appleConfig(_ row: Row) throws -> AppleConfig? {
        let key: String? = try row.get("private_key")
        return AppleConfig(
            bundleId: try row.get("bundle_id"), issuerId: try row.get("issuer_id"), keyId: try row.get("key_id"),
            appAppleId: try row.get("app_apple_id"), hasPrivateKey: key != nil, production: try row.get("production"),
            extraTrustedRootPEM: try row.get("extra_trusted_root_pem"), xcodeCertificatePEM: try row.get("xcode_certificate_pem"),
            claimUntaggedPurchases: try row.get("claim_untagged_purchases", as: Bool?.self) ?? false)
    }
}
