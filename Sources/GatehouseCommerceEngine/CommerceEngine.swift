import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase

/// App Store purchases, credits, plans and trials. This part holds each tenant's store
/// configuration (seed 000 §07 "Store setup"); verification lives in `SignedDataVerifier`.
public final class CommerceEngine: Sendable {
    public let environment: Environment
    /// Answers whether a plan may move between accounts without asking.
    let accounts: (any AccountDirectory)?

    /// Roots a production tenant trusts besides Apple's; only tests set them (production
    /// behaviour with test-signed data), never the server.
    let productionTestRoots: [Certificate]
    /// Seals the stores' secrets at rest (a Google service account's key); without it none is kept.
    let secrets: SecretBox?
    /// Where Google is reached, and the tokens held for it.
    let google: GoogleEndpoints
    let googleTokens: GoogleAccessTokens
    let pushTokens: GooglePushTokens
    /// The name a change to a tenant's plans is announced under (key: the tenant id), for
    /// caches built from them on any node (see ``CacheInvalidations``).
    public static let planCacheName = "commerce-plans"

    public convenience init(
        environment: Environment, accounts: (any AccountDirectory)? = nil, secrets: SecretBox? = nil, google: GoogleEndpoints = .live
    ) {
        self.init(environment: environment, accounts: accounts, secrets: secrets, google: google, productionTestRoots: [])
    }

    init(
        environment: Environment, accounts: (any AccountDirectory)?, secrets: SecretBox? = nil, google: GoogleEndpoints = .live,
        productionTestRoots: [Certificate]
    ) {
        self.environment = environment
        self.accounts = accounts
        self.secrets = secrets
        self.productionTestRoots = productionTestRoots
        self.google = google
        googleTokens = GoogleAccessTokens(tokenURL: google.token, http: environment.http, clock: environment.clock)
        pushTokens = GooglePushTokens(certificatesURL: google.certificates, http: environment.http, clock: environment.clock)
    }

    var database: any Database { environment.database }

    /// Saves App Store credentials. The private key must be an EC P-256 `.p8`; an extra
    /// trusted root and an Xcode StoreKit testing certificate are refused on production tenants
    /// (they exist for tests and Xcode).
    public func updateAppleConfig(tenantID: String, _ patch: AppleConfigPatch) async throws -> AppleConfig {
        if let key = patch.privateKey, (try? P256PrivateKey(pem: key)) == nil {
            throw CommerceError(.validationFailed, .appStore(.privateKey))
        }
        if let bundle = patch.bundleId, !Self.isBundleID(bundle) { throw CommerceError(.validationFailed, .appStore(.bundleID)) }
        if let id = patch.appAppleId, id <= 0 { throw CommerceError(.validationFailed, .appStore(.appAppleID)) }
        for (name, value) in [("issuerId", patch.issuerId), ("keyId", patch.keyId)] {
            if let value, value.isEmpty || value.count > 100 { throw CommerceError.invalid(name, .length(1...100)) }
        }
        if case .some(.some(let pem)) = patch.extraTrustedRootPEM, (try? Certificate(pem: pem)) == nil {
            throw CommerceError.invalid("extraTrustedRootPEM", .pemCertificate)
        }
        if case .some(.some(let pem)) = patch.xcodeCertificatePEM,
           (try? SignedDataVerifier.xcodeCertificate(pem: pem, allowsTestEnvironments: true)) == nil
        {
            throw CommerceError(.validationFailed, .appStore(.xcodeCertificate))
        }
        let now = environment.clock.now
        return try await database.write { db in
            guard try db.queryOne("SELECT id FROM tenants WHERE id = ?", tenantID) != nil else { throw CoreError.notFound(.tenant) }
            try db.execute(
                "INSERT INTO commerce_apple_configs (tenant_id, production, updated_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id) DO NOTHING",
                [.text(tenantID), .boolean(true), now.sqlValue])
            // Held until commit: concurrent patches of different fields each see the other's save.
            _ = try db.queryOne("SELECT tenant_id FROM commerce_apple_configs WHERE tenant_id = ?" + db.dialect.forUpdate, tenantID)
            var config = try Self.appleConfig(db, tenantID)!
            config.bundleId = patch.bundleId ?? config.bundleId
            config.issuerId = patch.issuerId ?? config.issuerId
            config.keyId = patch.keyId ?? config.keyId
            config.appAppleId = patch.appAppleId ?? config.appAppleId
            config.production = patch.production ?? config.production
            if let extra = patch.extraTrustedRootPEM { config.extraTrustedRootPEM = extra }
            if let xcode = patch.xcodeCertificatePEM { config.xcodeCertificatePEM = xcode }
            config.claimUntaggedPurchases = patch.claimUntaggedPurchases ?? config.claimUntaggedPurchases
            if config.production, config.extraTrustedRootPEM != nil {
                throw CommerceError(.validationFailed, .sandboxOnly("extraTrustedRootPEM"))
            }
            if config.production, config.xcodeCertificatePEM != nil {
                throw CommerceError(.validationFailed, .sandboxOnly("xcodeCertificatePEM"))
            }
            try db.execute(
                """
                UPDATE commerce_apple_configs SET bundle_id = ?, issuer_id = ?, key_id = ?, app_apple_id = ?, production = ?,
                  extra_trusted_root_pem = ?, xcode_certificate_pem = ?, claim_untagged_purchases = ?, private_key = COALESCE(?, private_key),
                  updated_at = ?
                WHERE tenant_id = ?
                """,
                [config.bundleId.sqlValue, config.issuerId.sqlValue, config.keyId.sqlValue, config.appAppleId.sqlValue,
                 .boolean(config.production), config.extraTrustedRootPEM.sqlValue, config.xcodeCertificatePEM.sqlValue,
                 .boolean(config.claimUntaggedPurchases), patch.privateKey.sqlValue, now.sqlValue, .text(tenantID)])
            return try Self.appleConfig(db, tenantID)!
        }
    }

    public func appleConfig(tenantID: String) async throws -> AppleConfig? {
        try await database.read { db in try Self.appleConfig(db, tenantID) }
    }

    static func appleConfig(_ db: any DatabaseConnection, _ tenantID: String) throws -> AppleConfig? {
        guard let row = try db.queryOne("SELECT * FROM commerce_apple_configs WHERE tenant_id = ?", tenantID) else { return nil }
        return try appleConfig(row)
    }

    static func isBundleID(_ text: String) -> Bool {
        (1...155).contains(text.count) && text.contains(".")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
